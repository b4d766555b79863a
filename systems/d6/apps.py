from django.apps import AppConfig


class D6EncountersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "systems.d6"
    # The label (and so the migrations, tables, URL namespace and template folder) stays the old one.
    label = "d6_encounters"
