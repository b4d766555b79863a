"""Facts of the Tempo core rules as data (tempo-flashpoints.md §B). Descriptions are our own words."""

from __future__ import annotations

from typing import Any

DICE_KEPT = 3  # §B4: a roll ends with three kept dice unless dice are lost or added
DIE_FACES = 6

# §B2 outcome bands, with §E1 (≤ 4 is Unmitigated) and §E2 (the player narrates Dramatic).
# low/high are inclusive; None means open-ended.
OUTCOME_BANDS: tuple[dict[str, Any], ...] = (
    {"key": "unmitigated_failure", "name": "Unmitigated Failure", "low": None, "high": 4, "narrator": "gm",
     "effect": "The GM describes it and makes matters worse in some new way."},
    {"key": "failure", "name": "Failure", "low": 5, "high": 9, "narrator": "player",
     "effect": "The player describes the failure and may soften it, but not undo it."},
    {"key": "qualified_success", "name": "Qualified Success", "low": 10, "high": 14, "narrator": "gm",
     "effect": "The GM describes it and may add a complication or a choice; "
               "if so, the player gains 1 fate point."},
    {"key": "unqualified_success", "name": "Unqualified Success", "low": 15, "high": 19, "narrator": "gm",
     "effect": "A clean success; the GM describes it and should let a willing player do so."},
    {"key": "dramatic_success", "name": "Dramatic Success", "low": 20, "high": None, "narrator": "player",
     "effect": "The player describes it with an extra flourish or benefit; the GM may suggest or rein in."},
)  # fmt: skip
BANDS_BY_KEY: dict[str, dict[str, Any]] = {band["key"]: band for band in OUTCOME_BANDS}
FUMBLE_BAND = "unmitigated_failure"  # §B2 optional fumble: all kept dice show 1
CRIT_BAND = "dramatic_success"  # §B2 optional mirror rule: all kept dice show 6
NARRATORS = {"gm": "the GM", "player": "the player"}

# §B5 helping: the band of the helper's total decides which of the helper's kept dice is handed over.
HELP_DIE_BANDS: tuple[dict[str, Any], ...] = (
    {"low": None, "high": 4, "die": None, "label": "no help"},
    {"low": 5, "high": 9, "die": "lowest", "label": "lowest die"},
    {"low": 10, "high": 14, "die": "middle", "label": "middle die"},
    {"low": 15, "high": None, "die": "highest", "label": "highest die"},
)

# §B6 hurry: the two ways to qualify an effort.
HURRY_MODES: dict[str, dict[str, Any]] = {
    "guarantee": {"bonus_dice": 0, "penalty_dice": 1,
                  "summary": "Take a penalty die; one stated property of the result is assured."},
    "qualifier": {"bonus_dice": 1, "penalty_dice": 0,
                  "summary": "Take a bonus die; the result carries a stated drawback whatever happens."},
}  # fmt: skip

# §B7 how an aspect is used on a roll.
ASPECT_SOURCES = ("own", "opponent", "scene", "campaign")
ASPECT_USES: dict[str, dict[str, Any]] = {
    "invoke": {"bonus_dice": 1, "penalty_dice": 0, "fate": -1, "summary": "pay 1 fate point for a bonus die"},
    "trouble": {"bonus_dice": 0, "penalty_dice": 1, "fate": 1, "summary": "penalty die, +1 fate point"},
    "free": {"bonus_dice": 1, "penalty_dice": 0, "fate": 0, "summary": "a bonus die that costs nothing"},
}  # fmt: skip
# Why a use may be free: a benefit such as Great Mind (§B7, §E9) or an Edge spent on a scene aspect (§B9 E4).
FREE_USE_REASONS = ("benefit", "tempo")

# §B8 tempo ladder.
TEMPO_LEVELS: tuple[str, ...] = ("even", "edge", "advantage", "decisive")
TEMPO_NAMES: dict[str, str] = {
    "even": "Even",
    "edge": "Edge",
    "advantage": "Advantage",
    "decisive": "Decisive Advantage",
}
# §B8: the level a winning margin reaches (from Even). (lowest margin, highest margin, level)
MARGIN_LEVELS: tuple[tuple[int, int | None, str], ...] = (
    (1, 5, "edge"),
    (6, 8, "advantage"),
    (9, None, "decisive"),
)

# §B8 holder-wins table: holder's level -> {level the margin reaches ("even" = tie) -> new level}.
HOLDER_RESULT: dict[str, dict[str, str]] = {
    "edge": {"even": "edge", "edge": "edge", "advantage": "advantage", "decisive": "decisive"},
    "advantage": {"even": "advantage", "edge": "advantage", "advantage": "decisive", "decisive": "decisive"},
    "decisive": {"even": "decisive", "edge": "decisive", "advantage": "decisive", "decisive": "decisive"},
}
# §B8 alternative readings of what the winner against a holder gets (campaign setting).
TEMPO_LOSS_RULES: tuple[str, ...] = ("winner_takes", "reset_to_even")

# §B9 tempo spends: the benefits each tier offers, and the superiority each tier's offset removes.
SPEND_BENEFITS: dict[str, dict[str, str]] = {
    "edge": {
        "add_scene_aspect": "Put a new aspect on the scene.",
        "offset_superiority": "Change the situation to cancel 1 point of the opponent's superiority.",
        "minor_benefit": "Take some other small benefit or an extra secondary action.",
        "use_scene_aspect": "Use a scene aspect on a roll without paying a fate point.",
    },
    "advantage": {
        "opponent_aspect": "Put an aspect (an injury or setback) on the opponent.",
        "offset_superiority": "Change the situation to cancel 2 points of the opponent's superiority.",
    },
    "decisive": {
        "offset_superiority": "Change the situation to cancel 4 points of the opponent's superiority.",
        "win_conflict": "Win the conflict on your own terms (one goal per decisive win).",
    },
}
SUPERIORITY_OFFSET: dict[str, int] = {"edge": 1, "advantage": 2, "decisive": 4}
# §B9 resulting state: holder's level -> {tier of the benefit taken -> level afterwards}.
SPEND_RESULT: dict[str, dict[str, str]] = {
    "edge": {"edge": "even"},
    "advantage": {"advantage": "even", "edge": "edge"},
    "decisive": {"decisive": "even", "advantage": "edge", "edge": "advantage"},
}
# §B11 superiority: usually +1, at most +3 on one axis.
SUPERIORITY_MAX = 3

# §B7 fate point economy (the reasons a ledger entry may give).
FATE_GAIN_REASONS: dict[str, str] = {
    "penalty_die_from_own_aspect": "Took a penalty die because one of the agent's aspects got in the way.",
    "qualified_success_complication": "The GM added a complication or choice to a Qualified Success.",
    "gm_complication": "The GM brought an aspect's drawback into play from outside.",
    "accepted_offer": "Accepted the GM's quiet offer to act out an aspect in a troublesome way.",
}
FATE_SPEND_REASONS: dict[str, str] = {
    "bonus_die_from_aspect": "A bonus die from an aspect that helps.",
    "make_aspect_apply": "Made a plausible but not obvious use of an aspect true.",
    "tools_at_hand": "Had reasonable tools or gadgets at hand.",  # §E10, waived by Gadgeteer
}
FATE_REFRESH_MODES: tuple[str, ...] = ("top_up", "add")  # ruling 7: refresh is a campaign choice

# Text length limits of the build (an app convenience, not a rule).
MAX_TEXT = 120
MAX_NOTES = 4000
