from django.apps import AppConfig


class TtkMissionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ttk_missions"
