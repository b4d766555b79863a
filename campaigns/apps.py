from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from campaigns import tokens  # noqa: F401  (a new password revokes the user's API tokens)
