from characters.registry import PlayPage, SystemApp, SystemAppConfig


class TempoConflictsConfig(SystemAppConfig):
    # The old label: the migrations, tables, URL namespace and template folder stay.
    name = "systems.tempo"
    label = "tempo_conflicts"
    system = SystemApp(
        key="tempo",
        name="Tempo",
        new_label="New agent",
        play_pages=(PlayPage("Conflicts", "tempo-conflict-list", ("tempo-conflict-", "tempo-fate-refresh")),),
        character_page_prefixes=("tempo-roll", "tempo-fate-gain"),
        play_in_progress="systems.tempo.in_progress:records",
        roll_context="systems.tempo.sheet_rolls:context",
        ledger_sentence="systems.tempo.ledger_words:sentence",
        roll_words="systems.tempo.services:roll_words",
        play_session_end="systems.tempo.play_sessions:end_choices",
        play_session_events="systems.tempo.play_sessions:events",
    )

    def ready(self) -> None:
        super().ready()
        from campaigns.models import HIDDEN_ROLLS, HIDDEN_TOPICS, PARTIAL_ROLLS
        from systems.tempo.services import conflict_roll, hidden_conflict_rolls, hidden_conflict_topics

        # A conflict's rolls reach the dice log's readers only as the conflict page does.
        HIDDEN_ROLLS["tempo"] = hidden_conflict_rolls
        # ... and so do its turns the live feed's (campaigns/table/live.py).
        HIDDEN_TOPICS["tempo"] = hidden_conflict_topics
        # ... and a conflict's roll outside its dice scope's lanes stays out of the table's roll log.
        PARTIAL_ROLLS["tempo"] = conflict_roll
