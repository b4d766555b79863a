from django.apps import AppConfig


class D6EncountersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "d6_encounters"
