"""Campaign settings for TIMEMASTER character creation (the digest's readings as defaults).

timemaster-characters.md §11 ambiguity 3 (hopeless reroll), §10 rules 5 and 35, §9.5 (Time Barrier).
The advancement engine adds its own settings; ``SYSTEM.settings`` lists both.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import SettingSpec, resolve_settings

from .tables import CORPS_PRESENT_YEAR

CREATION_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        name="hopeless_reroll_rounds",
        label="Rerolls allowed for a hopeless set of Ability numbers",
        kind="int",
        default=1,
        minimum=0,
        maximum=5,
        meaning="How often a weak set of Ability numbers may be rolled again when building an agent.",
        help="A set with three or more numbers of 40 or less may have all those numbers rolled again. "
        "0 turns rerolls off; the rules' reading is one round.",
        rule="timemaster-characters.md §2 step 4, §11 ambiguity 3",
    ),
    SettingSpec(
        name="corps_present_year",
        label="The Corps' present (the Time Barrier)",
        kind="int",
        default=CORPS_PRESENT_YEAR,
        minimum=CORPS_PRESENT_YEAR,
        maximum=99999,
        meaning="The latest year an agent can come from or travel to.",
        help="No agent is recruited, and no mission goes, past this year. It starts at 7192 and moves "
        "forward as the campaign's real time passes.",
        rule="timemaster-characters.md §9.5, §10 rules 5 and 35",
    ),
)


def resolve(values: Any = None) -> dict[str, Any]:
    """Creation settings merged over their defaults; unknown names (other engines' settings) are kept.

    Raises RuleError when a creation setting has an illegal value.
    """
    return resolve_settings(CREATION_SETTINGS, values, keep_unknown=True)
