from characters.registry import PlayPage, SystemApp, SystemAppConfig


class TtkMissionsConfig(SystemAppConfig):
    # The old label: the migrations, tables, URL namespace and template folder stay.
    name = "systems.time_to_kill"
    label = "ttk_missions"
    system = SystemApp(
        key="time_to_kill",
        name="Time to Kill",
        new_label="New ninja",
        sheet_kinds=("fate_record",),
        play_pages=(PlayPage("Missions", "ttk-run-list", ("ttk-run",)),),
        play_in_progress="systems.time_to_kill.in_progress:records",
        roll_context="systems.time_to_kill.sheet_rolls:context",
    )
