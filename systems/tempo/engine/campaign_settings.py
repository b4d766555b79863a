"""Campaign settings of Tempo: every choice the digest leaves to the GM (rules README ruling 7,
tempo-flashpoints.md §B2 optional rules, §B8 alternative reading, hidden information)."""

from __future__ import annotations

from typing import Any

from characters.systems.base import SettingSpec, resolve_settings

from .tables import FATE_REFRESH_MODES, TEMPO_LOSS_RULES

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "starting_fate_points",
        "Starting fate points",
        "int",
        0,
        meaning="Fate points a new agent begins with.",
        help="Fate points a new agent begins with. Neither text gives a number, so the GM decides.",
        minimum=0,
        maximum=20,
        rule="rules README ruling 7; tempo-flashpoints.md §E12",
    ),
    SettingSpec(
        "fate_refresh",
        "Fate point refresh",
        "int",
        0,
        meaning="Fate points handed out at a refresh, such as the start of a session.",
        help="Fate points handed out at a refresh (for example at the start of a session). 0 = none.",
        minimum=0,
        maximum=20,
        rule="rules README ruling 7; tempo-flashpoints.md §E12",
    ),
    SettingSpec(
        "fate_refresh_mode",
        "How a refresh works",
        "choice",
        "top_up",
        meaning="Whether a refresh tops fate points up or adds to them.",
        help="top_up: raise the agent's fate points to the refresh value if below it; "
        "add: add the refresh value to what the agent has.",
        choices=FATE_REFRESH_MODES,
        choice_labels=(("top_up", "Top up"), ("add", "Add")),
        choice_help="Top up: raise the agent's fate points to the refresh value if below it. Add: add the "
        "refresh value to what the agent has.",
        rule="rules README ruling 7",
    ),
    SettingSpec(
        "fumble_rule",
        "Fumbles",
        "bool",
        False,
        meaning="When on, a roll whose kept dice all show 1 always fails badly.",
        help="When every kept die shows 1, the roll is an Unmitigated Failure whatever the total.",
        rule="tempo-flashpoints.md §B2, §E3",
    ),
    SettingSpec(
        "crit_rule",
        "Triple sixes",
        "bool",
        False,
        meaning="When on, a roll whose kept dice all show 6 always succeeds dramatically.",
        help="When every kept die shows 6, the roll is a Dramatic Success whatever the total.",
        rule="tempo-flashpoints.md §B2, §E3",
    ),
    SettingSpec(
        "tempo_loss_rule",
        "When a side beats the tempo holder",
        "choice",
        "winner_takes",
        meaning="What the winner gains when a side beats the side holding the tempo.",
        help="winner_takes: the holder loses its tempo and the winner gains the level its margin "
        "reaches; reset_to_even: the holder loses its tempo and the winner gains nothing.",
        choices=TEMPO_LOSS_RULES,
        choice_labels=(("winner_takes", "The winner takes the tempo"), ("reset_to_even", "Back to even")),
        choice_help="The winner takes the tempo: the holder loses its tempo and the winner gains the level "
        "its margin reaches. Back to even: the holder loses its tempo and the winner gains "
        "nothing.",
        rule="tempo-flashpoints.md §B8, §E16",
    ),
    SettingSpec(
        "reveal_npc_rolls",
        "Show GM-side roll totals to players",
        "bool",
        False,
        meaning="Whether players see the totals the game master's sides roll.",
        help="Off: players see who won each round and the change of tempo, not the GM-run sides' "
        "totals nor the margin (their own total less the margin would give the other away).",
        rule="tempo-flashpoints.md hidden information",
    ),
)


def resolved(settings: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults with the given values on top; an invalid value is refused, unknown names are ignored
    (``GameSystem.validate_settings`` reports them)."""
    return resolve_settings(
        SETTINGS, settings, not_an_object="Settings must be an object of name: value pairs."
    )
