from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from campaigns import pending, tokens  # noqa: F401  (a new password revokes the user's API tokens)

        if pending.drafts_awaiting_gm not in pending.SOURCES:
            pending.SOURCES.append(pending.drafts_awaiting_gm)
