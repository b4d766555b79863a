from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    default_auto_field = "django.db.models.BigAutoField"
