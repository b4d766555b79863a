"""What the pages call things.

The engines and the database speak in codes ("once_per_scene", "top_up", "gm"); a page shows
display names instead: a choice setting's come from its spec (``SettingSpec.choice_labels`` and
``choice_help``, in the system's engine). A code with no name is shown as words ("every_round" ->
"Every round"), so a new code never reaches a page raw. The ``system`` arguments below are kept
for the callers; the spec alone says what its codes are called.
"""

from __future__ import annotations

from typing import Any


def words(code: Any) -> str:
    """A code as words: "every_round" -> "Every round"."""
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def choice_label(spec, code: Any) -> str:
    """A choice setting's code as its display name (or as words when the spec names none)."""
    return dict(spec.choice_labels).get(code) or words(code)


def choices(system: str, spec) -> list[tuple[str, str]]:
    """(code, display name) for a choice setting's form field."""
    return [(code, choice_label(spec, code)) for code in spec.choices]


def setting_help(system: str, spec) -> str:
    """The setting's help, in display names for a choice setting."""
    return spec.choice_help or spec.help


def setting_value(system: str, spec, value: Any) -> str:
    """A setting's value as a page shows it: On/Off, a choice's name, or the number or text."""
    if spec.kind == "bool":
        return "On" if value else "Off"
    if spec.kind == "choice":
        return choice_label(spec, value)
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
