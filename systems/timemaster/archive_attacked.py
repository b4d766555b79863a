"""Which NPC of the campaign each logged attack fell on (timemaster_attacked_npcs): one item per
systems.timemaster.models.AttackedNPC, the roll by its position in ``rolls`` and the NPC by its
position in ``npcs``, no database id. Without it a restored campaign's GM log said "NPC" where the
GM's own log named the guard (the table's line still says "NPC" until the NPC is revealed).

Like the NPC's statistics it is the GM's alone, and only the GM exports the campaign archive.
Importing checks each item's positions and refuses a bad one at its path, with nothing imported.
"""

from __future__ import annotations

from typing import Any

from archive.problems import Checker, Problem, join, length_of
from systems.timemaster.models import AttackedNPC

KEY = "timemaster_attacked_npcs"
LABEL = "TIMEMASTER attacks on the campaign's NPCs"
SYSTEM = "timemaster"
MAX_ITEMS = 200_000
FIELDS = ("roll", "npc")


def export(campaign, refs) -> list[dict]:
    rows = (
        AttackedNPC.objects.filter(roll__campaign=campaign)
        .order_by("roll_id")
        .values_list("roll_id", "npc_id")
    )
    out = [{"roll": refs.position("rolls", roll), "npc": refs.position("npcs", npc)} for roll, npc in rows]
    return sorted((item for item in out if None not in item.values()), key=lambda item: item["roll"])


def usernames(data) -> set:
    return set()


def _position(check: Checker, item: dict, name: str, path: str, count: int, what: str) -> None:
    value = item.get(name)
    if name in item and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count):
        check.add(join(path, name), f"must be the position of one of the {count} {what}.")


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_ITEMS):
        return check.problems
    if data:
        header = document.get("campaign")
        if not isinstance(header, dict) or header.get("system") != SYSTEM:
            check.add(KEY, "Attacks on NPCs belong to a TIMEMASTER campaign's archive.")
            return check.problems
    npcs = length_of(document, "npcs")
    rolls = length_of(document, "rolls")
    seen: set[Any] = set()
    for index, item in enumerate(data):
        path = join(KEY, index)
        if not check.obj(item, path, FIELDS):
            continue
        for name in sorted(set(item) - set(FIELDS)):
            check.add(join(path, name), "is not a field of an attack on an NPC.")
        _position(check, item, "roll", path, rolls, "rolls of the archive")
        _position(check, item, "npc", path, npcs, "npcs of the archive")
        roll = item.get("roll")
        if isinstance(roll, int) and not isinstance(roll, bool):
            if roll in seen:
                check.add(join(path, "roll"), "names a roll another item already names (one NPC a roll).")
            seen.add(roll)
    return check.problems


def load(campaign, data, refs) -> None:
    AttackedNPC.objects.bulk_create(
        (
            AttackedNPC(roll=refs.row("rolls", item["roll"]), npc=refs.row("npcs", item["npc"]))
            for item in data
        ),
        batch_size=1000,
    )
