"""Numbers and lists of the TIMEMASTER advancement rules, as data.

Sources: timemaster-characters.md §6 (Success Points, rank and grade, regulations), §7 (Standard
Equipment Package), §9.5 (Times Visited), §10 (validation) and rulings 1-5 of rules/README.md.
Skill and talent catalogues live in ``tables.py`` (owned by the character-creation engine); the
advancement modules import it lazily.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import SettingSpec

# -- rank and grade: §6.5, ruling 1 ------------------------------------------------------------
RANK_NAMES: tuple[str, ...] = (
    "Trainee",
    "Probationer",
    "Agent",
    "Operative",
    "Veteran",
    # from here on the Corps brings agents back unaged
    "Lifer",
    "Sentry",
    "Time Guard",
    "Protector",
    "Timemaster",
)
START_RANK = "Trainee"
START_GRADE = 0
GRADES_PER_RANK = 10  # grades 0-9; the tenth step is grade 0 of the next rank (ruling 1)
TOP_RANK = "Timemaster"
TOP_GRADE = 10  # Timemaster runs 0-10; Timemaster/10 earns no more Success Points (ruling 1)
UNAGED_FROM_RANK = "Lifer"  # §6.5: the Corps brings agents back unaged from Lifer upward

# -- Success Points: §6.1-§6.4, ruling 2 -------------------------------------------------------
ADVENTURE_SIGNIFICANCE_MIN = 1
ADVENTURE_SIGNIFICANCE_MAX = 1000
BONUS_SP_STEP = 10
BONUS_SP_MAX_PER_SESSION = 50
# How many game sessions' bonus totals a build remembers for that cap (the most recently awarded
# ones): the build must not grow by a key per session over years of play (issue 22). An award
# naming a session further back than these is checked as a session of its own.
BONUS_SESSIONS_KEPT = 20

# What each purchase costs (§6.4 cost table).
SP_COSTS: dict[str, int] = {
    "new_skill": 50,
    "new_talent": 200,
    "ability_point": 50,
    "specialist_to_expert": 100,
    "expert_to_master": 150,
}
PURCHASE_LABELS: dict[str, str] = {
    "new_skill": "New skill at Specialist",
    "new_talent": "New paranormal talent",
    "ability_point": "One Ability point",
    "specialist_to_expert": "Skill from Specialist to Expert",
    "expert_to_master": "Skill from Expert to Master",
}
# Raising purchases: purchase -> (level required now, level after).
SKILL_RAISES: dict[str, tuple[str, str]] = {
    "specialist_to_expert": ("specialist", "expert"),
    "expert_to_master": ("expert", "master"),
}
SKILL_LEVELS: tuple[str, ...] = ("specialist", "expert", "master")
ABILITY_MAX = 80  # §6.4 note 1
TALENT_CAP = 8  # §5.1, ambiguity 35: a hard cap

# Prerequisites (§10 item 28) and skills without levels (§10 item 29) are read from
# tables.SKILLS[key]["prerequisite"] and ["has_levels"].
# The one skill an agent may hold several times, once per specialty (§4.6).
REPEATABLE_SKILL = "historical_specialty"

# -- Standard Equipment Package: §7 ------------------------------------------------------------
# significance None = the rules give no rating; the GM enters one when such an item is left behind.
BODY_SUIT_CUTOFF_YEAR = 5180  # rated 750 for missions dated before 5180 A.D., otherwise 0
SEP_ITEMS: dict[str, dict[str, Any]] = {
    "communicator": {"name": "Time Corps Communicator", "significance": 200},
    "stunner": {"name": "Time Corps Stunner", "significance": 300},
    "electronics_kit": {"name": "Electronics Kit", "significance": 150},
    "medical_kit": {"name": "Medical Kit", "significance": 500},
    "body_suit": {"name": "Body Suit", "significance": 750, "dated": True},
    "chronoscooter": {"name": "Chronoscooter", "significance": 1000},
    "period_clothing": {"name": "Disguise: period clothing and carrier", "significance": None},
    "period_weapons_armor": {"name": "Period weapons and armor", "significance": None},
    "props": {"name": "Miscellaneous props", "significance": None},
    "money": {"name": "Mission money", "significance": None},
    "disguise_kit": {"name": "Disguise kit", "significance": None},
}

# -- the significance tally: §6.1-§6.2, ruling 4 -----------------------------------------------
TALLY_KINDS: dict[str, dict[str, Any]] = {
    "npc_death": {"label": "NPC death", "min": 0, "max": 500},  # human NPCs up to 500, Demoreans 0 (§8)
    "event_changed": {"label": "Event changed", "min": 0, "max": 1000},
    "equipment_left_behind": {"label": "Equipment left behind", "min": 0, "max": 1000},
    "other": {"label": "Other mistake", "min": 0, "max": 1000},
}

# -- regulations and punishments: §6.6 ---------------------------------------------------------
# Short names in our own words.
REGULATIONS: dict[int, str] = {
    1: "No needless killing",
    2: "Stop renegades and Demoreans",
    3: "Travel only with leave",
    4: "Leave nothing behind",
    5: "Keep the secret",
    6: "Leave ancestry alone",
    7: "Destroy renegade gear",
    8: "Finish the mission",
}
PUNISHMENTS: dict[str, dict[str, Any]] = {
    "none": {"label": "No punishment", "ranks": 0, "grades": 0, "banish": False},
    "demote_grade": {"label": "Demoted one grade", "ranks": 0, "grades": 1, "banish": False},
    "demote_rank": {"label": "Demoted one rank", "ranks": 1, "grades": 0, "banish": False},
    "demote_two_ranks": {"label": "Demoted two ranks", "ranks": 2, "grades": 0, "banish": False},
    "banishment": {"label": "Banished to a prison Parallel", "ranks": 0, "grades": 0, "banish": True},
}
# Offence number -> punishments allowed without a judiciary override. The ladder stops at the
# fourth step: any later offence (possible only after a lightened punishment) is also banishment.
PUNISHMENT_LADDER: dict[int, tuple[str, ...]] = {
    1: ("demote_grade",),
    2: ("demote_rank",),
    3: ("demote_two_ranks", "banishment"),  # the GM chooses
    4: ("banishment",),
}

# -- Times Visited: §9.5, ruling 5 -------------------------------------------------------------
HOME_PARALLEL = "T-0"  # the Corps' home Parallel; an agent's native Parallel unless the build says
PARALLEL_CLASSES = ("T", "M", "R", "A")  # twin, moderately different, radically different, alien
CORPS_PRESENT_YEAR = 7192  # the Time Barrier at the start of play (§9.5)

# -- campaign settings offered by the advancement engine ---------------------------------------
ADVANCEMENT_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        name="bonus_sp_for_demoted_agents",
        label="Demoted agents may receive bonus Success Points",
        kind="bool",
        default=False,
        meaning="Whether an agent who was demoted can still be given bonus Success Points.",
        help="Off: an agent below the rank/grade held before a demotion gets no bonus points either.",
        rule="timemaster-characters.md §11 ambiguity 12",
    ),
)

# -- the build's advancement bookkeeping (build["state"]) --------------------------------------
STATE_DEFAULTS: dict[str, Any] = {
    "adventures_closed": 0,  # how many adventures this agent has finished
    "shop_open": False,  # True between an adventure's close and the next mission's start
    "current_mission": None,  # mission id (str) in progress, if any
    "missions_closed": [],
    "missions_awarded": [],  # missions with a regular award entry
    "qualifying_missions": [],  # missions whose award advances the grade
    "missions_advanced": [],  # missions that already advanced the grade
    "skills_acquired_in": {},  # skill key -> adventures_closed when bought or granted
    "skills_raised_in": {},  # skill key -> adventures_closed when last raised
    # [[session id (str), bonus SP awarded in it], ...] for the BONUS_SESSIONS_KEPT sessions most
    # recently awarded, the latest last (a list: PostgreSQL's jsonb would not keep a map's order)
    "bonus_sessions": [],
    "ranks_rewarded": [START_RANK],  # ranks whose free pick was already granted
    "pending_free_choices": [],  # [{"rank": str, "reason": str}]
    "offences": 0,
    "offence_log": [],  # [{"regulation": int, "offence": int, "punishment": str}]
    "demoted_from": None,  # {"rank": str, "grade": int} held before a demotion, until regained
    "banished": False,
    "sp_earned_regular": 0,
    "sp_earned_bonus": 0,
    "sp_spent": 0,
    "sp_forgone": 0,
}
