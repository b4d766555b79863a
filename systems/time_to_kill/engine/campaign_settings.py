"""Campaign and mission settings of Time to Kill: every choice the digest leaves to the GM, with the
digest's reading as the default (rules README ruling 6; time-to-kill.md §E1, §E3, §E9, §E22, §E24)."""

from __future__ import annotations

from typing import Any

from characters.systems.base import SettingSpec, resolve_settings

FATE_ASSIGNMENT_MODES: tuple[str, ...] = ("gm_arranges", "roll_order")

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "mission_stones",
        "Mission length (stones)",
        "int",
        25,
        meaning="How many stones are in the bag when a mission starts: the length of a mission.",
        help="Ordinary stones in the bag at the start of a mission; the target stone is added on top. "
        "The author floats 20 to 30 but commits to nothing. The GM may change it for each mission.",
        minimum=1,
        maximum=200,
        rule="rules README ruling 6; time-to-kill.md §B1, §E1, §E2",
    ),
    SettingSpec(
        "players_see_stone_count",
        "Players see the stones left in the bag",
        "bool",
        False,
        meaning="Whether players can see how many stones are left in the bag.",
        help="Off: only the GM knows how many stones remain (and how many there were).",
        rule="rules README ruling 6; time-to-kill.md hidden information, §E22",
    ),
    SettingSpec(
        "wait_stones_persist",
        "Wait stones keep until spent",
        "bool",
        False,
        meaning="Whether wait stones pile up or lapse after the next action.",
        help="Off: a wait stone is good for the next action only and lapses otherwise, so a ninja holds "
        "at most one. On: wait stones pile up and stay until used (an automatic result still costs one).",
        rule="time-to-kill.md §B3, §E9",
    ),
    SettingSpec(
        "fate_assignment",
        "Placing the Fate dice",
        "choice",
        "gm_arranges",
        meaning="How the four Fate dice are placed at the start of a turn.",
        help="gm_arranges: the GM puts each of the four dice on the Fate of their choice; "
        "roll_order: the dice go on Opposition, Concealment, Terrain, Circumstance as rolled.",
        choices=FATE_ASSIGNMENT_MODES,
        choice_labels=(("gm_arranges", "The GM arranges them"), ("roll_order", "In the order rolled")),
        choice_help="The GM arranges them: the GM puts each of the four dice on the Fate of their choice. In "
        "the order rolled: the dice go on Opposition, Concealment, Terrain, Circumstance as "
        "rolled.",
        rule="time-to-kill.md §B2, §E3",
    ),
    SettingSpec(
        "survivor_rebuild",
        "A surviving ninja may be rebuilt",
        "bool",
        False,
        meaning="Whether a ninja who survives a mission may be rebuilt with the new ranking.",
        help="On: after a successful mission a living ninja may re-spend their creation points with the "
        "budget the player's ranking now gives.",
        rule="time-to-kill.md §E24",
    ),
)


def resolved(settings: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults with the given values on top; an invalid value is refused, unknown names are ignored
    (``GameSystem.validate_settings`` reports them)."""
    return resolve_settings(
        SETTINGS, settings, not_an_object="Settings must be an object of name: value pairs."
    )
