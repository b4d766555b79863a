from django.apps import AppConfig


class D6EncountersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "systems.d6"
    # The label (and so the migrations, tables, URL namespace and template folder) stays the old one.
    label = "d6_encounters"

    def ready(self):
        from characters import registry

        registry.register(
            registry.SystemApp(
                key="d6",
                name="D6 System",
                engine="systems.d6.engine",
                wizard="systems.d6.wizard",
                new_label="New character",
                play_pages=(registry.PlayPage("Encounters", "d6-encounter-list"),),
                archive_sections=("d6_encounters",),
            )
        )
