from django.apps import AppConfig


class TempoConflictsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "systems.tempo"
    # The label (and so the migrations, tables, URL namespace and template folder) stays the old one.
    label = "tempo_conflicts"

    def ready(self):
        from characters import registry

        registry.register(
            registry.SystemApp(
                key="tempo",
                name="Tempo",
                engine="systems.tempo.engine",
                wizard="systems.tempo.wizard",
                new_label="New agent",
                play_pages=(registry.PlayPage("Conflicts", "tempo-conflict-list"),),
                archive_sections=("tempo_conflicts",),
            )
        )

        from campaigns.models import HIDDEN_ROLLS
        from systems.tempo.services import hidden_conflict_rolls

        # A conflict's rolls reach the dice log's readers only as the conflict page does.
        HIDDEN_ROLLS["tempo"] = hidden_conflict_rolls
