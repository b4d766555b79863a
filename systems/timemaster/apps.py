from characters.registry import PlayPage, SheetKindSpec, SystemApp, SystemAppConfig


class TimemasterConfig(SystemAppConfig):
    """TIMEMASTER's Django side: the agent builder, advancement (shop, free pick, violations,
    bonus points), the mission rules and pages (significance tally, close, publish, after-action
    record, audit), its NPC rules, and Action Table checks and attacks from the dice roller.

    Its models are the GM's record of fights (GM only): an NPC's condition
    (models.NPCConditionEntry), which NPC a logged attack fell on (models.AttackedNPC) and the
    holds and knockdowns that last (models.FightState), each carried in the campaign archive by
    its section (archive.py, archive_attacked.py, archive_fight_states.py), and which agent's
    ledger entries a logged roll wrote (models.RollLedgerEntry: the GM's log marks a reverted
    one; not in the archive, a restored log marks only NPC reverts); the other rows it
    reads and writes are the platform's (campaigns.models.Mission and SignificanceEntry,
    characters.models.Character and AdvancementEntry), which stay where their tables are.
    """

    name = "systems.timemaster"
    label = "timemaster"
    system = SystemApp(
        key="timemaster",
        name="TIMEMASTER",
        new_label="New agent",
        play_pages=(PlayPage("Missions", "missions-list", ("missions-",)),),
        # A closed mission's after-action report (sheets.py): the GM's copy, or a player's.
        sheet_kinds=(
            SheetKindSpec(
                "after_action",
                "After-action report",
                target="mission",
                target_label="mission",
                target_required=True,
                file_word="after-action-report",
            ),
        ),
        ledger_sentence="systems.timemaster.ledger_words:sentence",
        # ending a play session links each agent's bonus Success Points award for it (issue 50)
        play_session_end="systems.timemaster.play_sessions:end_choices",
        # missions (systems.timemaster.missions) and NPC rules (npc_rules.RULES) by the folder's
        # convention; the dice page's check, condition and attack panels, and a roll's detail:
        dice_panels="systems.timemaster.check_views:dice_panels",
        roll_detail_template="timemaster/_roll_detail.html",
        roll_context="systems.timemaster.sheet_rolls:context",
        # the hit locations: a called shot's, a crumpled one's, an armor's coverage (api_condition)
        openapi_enums=(("TimemasterHitLocationEnum", "systems.timemaster.engine.armor.LOCATIONS"),),
        # the campaign archive's TIMEMASTER sections, in order: NPC condition entries, the attacks'
        # NPCs, the holds and knockdowns (each points at the platform's npcs, characters and rolls)
        archive_sections=(
            "systems.timemaster.archive",
            "systems.timemaster.archive_attacked",
            "systems.timemaster.archive_fight_states",
        ),
    )
