from characters.registry import PlayPage, SheetKindSpec, SystemApp, SystemAppConfig


class TtkMissionsConfig(SystemAppConfig):
    # The old label: the migrations, tables, URL namespace and template folder stay.
    name = "systems.time_to_kill"
    label = "ttk_missions"
    system = SystemApp(
        key="time_to_kill",
        name="Time to Kill",
        new_label="New ninja",
        # The GM's Fate Record Sheet (sheets.py): blank, or a mission run's current turn.
        sheet_kinds=(
            SheetKindSpec(
                "fate_record",
                "Fate Record Sheet",
                readers="gm",
                target="run",
                target_label="mission run",
                in_gm_bundle=True,
            ),
        ),
        play_pages=(PlayPage("Missions", "ttk-run-list", ("ttk-run",)),),
        play_in_progress="systems.time_to_kill.in_progress:records",
        roll_context="systems.time_to_kill.sheet_rolls:context",
        play_session_events="systems.time_to_kill.play_sessions:events",
    )
