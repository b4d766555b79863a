from django.apps import AppConfig


class TtkMissionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "systems.time_to_kill"
    # The label (and so the migrations, tables, URL namespace and template folder) stays the old one.
    label = "ttk_missions"
