from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_save

        from campaigns import chart_warming, pending, tokens  # noqa: F401  (a new password revokes the user's API tokens)
        from campaigns.table import live
        from characters import signals

        signals.finalized.connect(
            live.character_finalized, dispatch_uid="campaigns.table.live.character_finalized"
        )
        if pending.drafts_awaiting_gm not in pending.SOURCES:
            pending.SOURCES.append(pending.drafts_awaiting_gm)
        # a campaign's report pictures are drawn when its play changes them (sender looked up there)
        post_save.connect(chart_warming.saved, dispatch_uid="campaigns.chart_warming")
        # the first roll of a day starts a play session where the campaign's setting asks for it
        from campaigns.chronicle import play_sessions
        from campaigns.models import Roll

        post_save.connect(
            play_sessions.roll_saved, sender=Roll, dispatch_uid="campaigns.chronicle.roll_saved"
        )
