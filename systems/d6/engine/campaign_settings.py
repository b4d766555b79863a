"""Campaign settings of the D6 engine: every choice the digest leaves to the GM, with the digest's
reading as the default (d6-game-time.md §B2, §B4, §E3, §E5; rules README)."""

from __future__ import annotations

from typing import Any

from characters.systems.base import SettingSpec, resolve_settings

from .tables import (
    DEFAULT_INITIATIVE_METHOD,
    FINAL_TIE_RULES,
    INITIATIVE_METHODS,
    RULES,
    WILD_DIE_RULES,
    WILD_ONE_RULES,
)

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "initiative_method",
        "Initiative method",
        "choice",
        DEFAULT_INITIATIVE_METHOD,
        meaning="How the order of action is decided in an encounter.",
        help="first_move (Method 1): whoever makes the first significant move goes first, the rest by "
        "the tie-break chain; once_per_scene (Method 2): one Perception roll each for the scene; "
        "every_round (Method 3): a new Perception roll each round. An encounter may pick another.",
        choices=tuple(INITIATIVE_METHODS),
        choice_labels=(
            ("first_move", "Method 1: the first significant move"),
            ("once_per_scene", "Method 2: one roll per scene"),
            ("every_round", "Method 3: a roll every round"),
        ),
        choice_help="Method 1: whoever makes the first significant move goes first, the rest by the "
        "tie-break chain. Method 2: one Perception roll each for the scene. Method 3: a new Perception roll "
        "each round. An encounter may pick another.",
        rule=f"{RULES} §B2, §E1, §E2",
    ),
    SettingSpec(
        "optional_initiative_bonus",
        "Optional initiative bonus",
        "bool",
        False,
        meaning="High search, Reflexes or related special abilities add to initiative rolls.",
        help="Adds +1 per full 2D of search above Perception, +1 per full 4D of Reflexes and +1 per 6 "
        "ranks of Skill Bonus or Increased Attribute for Reflexes or search to initiative rolls.",
        rule=f"{RULES} §B4, §E6",
    ),
    SettingSpec(
        "wild_die",
        "Wild Die",
        "choice",
        "exploding",
        meaning="Whether a 6 on the Wild Die is rolled again and added.",
        help="The chapter does not define the Wild Die. exploding: a 6 is rolled again and added; "
        "plain: Wild Dice are ordinary dice.",
        choices=tuple(WILD_DIE_RULES),
        choice_labels=(("exploding", "Exploding"), ("plain", "Plain")),
        choice_help="The chapter does not define the Wild Die. Exploding: a 6 is rolled again and added. "
        "Plain: Wild Dice are ordinary dice.",
        rule=f"{RULES} §B2 [EXTERNAL], §E3",
    ),
    SettingSpec(
        "wild_die_one",
        "A 1 on the Wild Die",
        "choice",
        "flag",
        meaning="What a 1 on the Wild Die does to a roll.",
        help="flag: the roll is marked for the GM, the total is unchanged; remove_highest: the 1 and "
        "the highest other die are taken off the total.",
        choices=tuple(WILD_ONE_RULES),
        choice_labels=(("flag", "Marked for the GM"), ("remove_highest", "Remove the highest die")),
        choice_help="Marked for the GM: the roll is marked, the total is unchanged. Remove the highest die: "
        "the 1 and the highest other die are taken off the total.",
        rule=f"{RULES} §E3, §E15 [EXTERNAL]",
    ),
    SettingSpec(
        "final_tie",
        "When every tie-break factor ties",
        "choice",
        "random",
        meaning="Who goes first when two characters tie on everything.",
        help="random: a recorded random draw settles it and the GM may reorder; gm: the tied "
        "characters stay unresolved until the GM sets the order.",
        choices=FINAL_TIE_RULES,
        choice_labels=(("random", "A random draw"), ("gm", "The GM decides")),
        choice_help="A random draw: a recorded draw settles it and the GM may reorder. The GM decides: the "
        "tied characters stay unresolved until the GM sets the order.",
        rule=f"{RULES} §B3, §E5",
    ),
)


def resolved(settings: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults with the given values on top; an invalid value is refused, unknown names are ignored
    (``GameSystem.validate_settings`` reports them)."""
    return resolve_settings(SETTINGS, settings)
