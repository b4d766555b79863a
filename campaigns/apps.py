from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from campaigns import live, pending, tokens  # noqa: F401  (a new password revokes the user's API tokens)
        from characters import signals

        signals.finalized.connect(live.character_finalized, dispatch_uid="campaigns.live.character_finalized")
        if pending.drafts_awaiting_gm not in pending.SOURCES:
            pending.SOURCES.append(pending.drafts_awaiting_gm)
