from characters.registry import PlayPage, SystemApp, SystemAppConfig


class D6EncountersConfig(SystemAppConfig):
    # The old label: the migrations, tables, URL namespace and template folder stay.
    name = "systems.d6"
    label = "d6_encounters"
    system = SystemApp(
        key="d6",
        name="D6 System",
        play_pages=(PlayPage("Encounters", "d6-encounter-list", ("d6-encounter-",)),),
        play_in_progress="systems.d6.in_progress:records",
        roll_context="systems.d6.sheet_rolls:context",
        # a play session's page lists the encounters set up and played during it (issue 50)
        play_session_events="systems.d6.play_sessions:events",
    )
