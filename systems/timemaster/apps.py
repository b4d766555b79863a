from characters.registry import PlayPage, SystemApp, SystemAppConfig


class TimemasterConfig(SystemAppConfig):
    """TIMEMASTER's Django side: the agent builder, advancement (shop, free pick, violations,
    bonus points), the mission pages (significance tally, close, publish, after-action record,
    audit) and Action Table checks from the dice roller.

    It has no models and no migrations: the rows it reads and writes are the platform's
    (campaigns.models.Mission and SignificanceEntry, characters.models.Character and
    AdvancementEntry), which stay where their tables are so the move changed no table.
    """

    name = "systems.timemaster"
    label = "timemaster"
    system = SystemApp(
        key="timemaster",
        name="TIMEMASTER",
        new_label="New agent",
        play_pages=(PlayPage("Missions", "missions-list", ("missions-",)),),
        # Its archive section (mission_records) is still the platform's (archive.sections), with the
        # mission logic it reads (campaigns.missions); it moves here with that logic.
        ledger_sentence="systems.timemaster.ledger_words:sentence",
        roll_context="systems.timemaster.sheet_rolls:context",
    )
