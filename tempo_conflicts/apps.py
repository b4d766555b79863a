from django.apps import AppConfig


class TempoConflictsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tempo_conflicts"
