"""What the pages call things: one place of display names per system.

The engines and the database speak in codes ("once_per_scene", "top_up", "gm"); a page shows the
names below instead. A code with no entry is shown as words ("every_round" -> "Every round"), so a
new code never reaches a page raw.
"""

from __future__ import annotations

from typing import Any

#: system -> setting name -> (code -> display name, the help text written with those names)
SETTING_CHOICES: dict[str, dict[str, tuple[dict[str, str], str]]] = {
    "d6": {
        "initiative_method": (
            {
                "first_move": "Method 1: the first significant move",
                "once_per_scene": "Method 2: one roll per scene",
                "every_round": "Method 3: a roll every round",
            },
            "Method 1: whoever makes the first significant move goes first, the rest by the tie-break "
            "chain. Method 2: one Perception roll each for the scene. Method 3: a new Perception roll "
            "each round. An encounter may pick another.",
        ),
        "wild_die": (
            {"exploding": "Exploding", "plain": "Plain"},
            "The chapter does not define the Wild Die. Exploding: a 6 is rolled again and added. "
            "Plain: Wild Dice are ordinary dice.",
        ),
        "wild_die_one": (
            {"flag": "Marked for the GM", "remove_highest": "Remove the highest die"},
            "Marked for the GM: the roll is marked, the total is unchanged. Remove the highest die: "
            "the 1 and the highest other die are taken off the total.",
        ),
        "final_tie": (
            {"random": "A random draw", "gm": "The GM decides"},
            "A random draw: a recorded draw settles it and the GM may reorder. The GM decides: the "
            "tied characters stay unresolved until the GM sets the order.",
        ),
    },
    "time_to_kill": {
        "fate_assignment": (
            {"gm_arranges": "The GM arranges them", "roll_order": "In the order rolled"},
            "The GM arranges them: the GM puts each of the four dice on the Fate of their choice. In "
            "the order rolled: the dice go on Opposition, Concealment, Terrain, Circumstance as rolled.",
        ),
    },
    "tempo": {
        "fate_refresh_mode": (
            {"top_up": "Top up", "add": "Add"},
            "Top up: raise the agent's fate points to the refresh value if below it. Add: add the "
            "refresh value to what the agent has.",
        ),
        "tempo_loss_rule": (
            {"winner_takes": "The winner takes the tempo", "reset_to_even": "Back to even"},
            "The winner takes the tempo: the holder loses its tempo and the winner gains the level its "
            "margin reaches. Back to even: the holder loses its tempo and the winner gains nothing.",
        ),
    },
}


def words(code: Any) -> str:
    """A code as words: "every_round" -> "Every round"."""
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def choice_label(system: str, setting: str, code: Any) -> str:
    labels, _help = SETTING_CHOICES.get(system, {}).get(setting, ({}, ""))
    return labels.get(code) or words(code)


def choices(system: str, spec) -> list[tuple[str, str]]:
    """(code, display name) for a choice setting's form field."""
    return [(code, choice_label(system, spec.name, code)) for code in spec.choices]


def setting_help(system: str, spec) -> str:
    """The setting's help, in display names for a choice setting."""
    _labels, help_text = SETTING_CHOICES.get(system, {}).get(spec.name, ({}, ""))
    return help_text or spec.help


def setting_value(system: str, spec, value: Any) -> str:
    """A setting's value as a page shows it: On/Off, a choice's name, or the number or text."""
    if spec.kind == "bool":
        return "On" if value else "Off"
    if spec.kind == "choice":
        return choice_label(system, spec.name, value)
    return "" if value is None else str(value)


NON_FIELD = ("__all__", "non_field_errors")


def field_name(field: str) -> str:
    """A build or form field path as words: "aspects.flashpoint_1.text" -> "Aspects flashpoint 1 text"."""
    return words(" ".join(str(field).replace(".", " ").split()))


def error_messages(error) -> list[str]:
    """A ValidationError's messages for a page: each prefixed with its field in words ("Role: ..."),
    never with the field's code ("role: ...")."""
    if not hasattr(error, "message_dict"):
        return list(error.messages)
    return [
        message if field in NON_FIELD else f"{field_name(field)}: {message}"
        for field, messages in error.message_dict.items()
        for message in messages
    ]
