"""Time to Kill's part of the chronicle (campaigns.chronicle.recap.ChronicleProvider): a mission won is
"who advanced" in the recap (its die rolls added to the ranking, time-to-kill.md §B13); a mission
lost ends the ninja (§B12, §E18), which the platform tells as "who fell" from the character's
status, so nothing is added for it here. No notable rolls and no timeline track of its own."""

from __future__ import annotations

from typing import Any

HIGHLIGHT_ENTRY_KINDS = ("mission_result",)


def entry_highlight(entry: Any) -> tuple[str, str] | None:
    payload = entry.payload or {}
    if entry.kind != "mission_result" or payload.get("outcome") != "victory":
        return None
    rolls = payload.get("die_rolls", 0)
    points = f", {rolls} ranking point{'s' if rolls != 1 else ''}" if isinstance(rolls, int) else ""
    return "advanced", f"{entry.character.name} won a mission{points}."
