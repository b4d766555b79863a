from django.apps import AppConfig


class TtkMissionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "systems.time_to_kill"
    # The label (and so the migrations, tables, URL namespace and template folder) stays the old one.
    label = "ttk_missions"

    def ready(self):
        from characters import registry

        registry.register(
            registry.SystemApp(
                key="time_to_kill",
                name="Time to Kill",
                engine="systems.time_to_kill.engine",
                wizard="systems.time_to_kill.wizard",
                new_label="New ninja",
                sheet_kinds=("fate_record",),
                play_pages=(registry.PlayPage("Mission runs", "ttk-run-list"),),
                archive_sections=("ttk_runs",),
            )
        )
