"""TIMEMASTER NPCs' condition in a fight (timemaster_npc_condition): every entry the GM's attacks and
NPC page recorded on an NPC (systems.timemaster.models.NPCConditionEntry), reverted ones included,
in the order they were recorded.

An entry points at its NPC by position in the archive's ``npcs`` and at the dice-log roll that made
it (if any) by position in ``rolls``; it holds no database id. Like the NPC's statistics it is the
GM's alone, and only the GM exports the campaign archive; a character document never holds it.
Importing checks each entry's structure (its kind, the fields the kind takes and their values) and
refuses a bad one at its path, with nothing imported. It does not refuse entries that no longer
fold through the engine against the NPC's statistics: the GM can change an NPC's STA after its
entries were recorded, and the NPC page then shows no condition until an entry is reverted. Such
entries come back as they were (the page shows the same), and the import says so (``notes``).
"""

from __future__ import annotations

from typing import Any

from archive import timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import NPC
from characters.systems import RuleError
from systems.timemaster.engine import npc_condition, recovery
from systems.timemaster.engine.armor import LOCATIONS
from systems.timemaster.engine.play_tables import UNKNOWN_LIMIT
from systems.timemaster.engine.tables import ARMOR
from systems.timemaster.models import NPCConditionEntry

KEY = "timemaster_npc_condition"
LABEL = "TIMEMASTER NPC condition entries"
SYSTEM = "timemaster"
MAX_ENTRIES = 20_000
FIELDS = ("npc", "entry", "source", "roll", "recorded_by", "created_at", "reverted_at", "reverted_by")
SOURCE_LENGTH = NPCConditionEntry._meta.get_field("source").max_length
#: The lowest value of each whole-number field of an entry (the highest is UNKNOWN_LIMIT: recovery._count).
COUNTS = {"stamina": 0, "wounds": 0, "willpower": 0, "rounds": 1}
#: The fields that name one of a list of keys.
CHOICES = {"crumple": LOCATIONS, "cause": recovery.FATAL_CAUSES, "how": recovery.CRITICAL_TREATMENTS}


# -- export -----------------------------------------------------------------------------------------
def export(campaign, refs) -> list[dict]:
    rows = (
        NPCConditionEntry.objects.filter(npc__campaign=campaign)
        .select_related("recorded_by", "reverted_by")
        .order_by("id")
    )
    return [
        {
            "npc": refs.position("npcs", row.npc_id),
            "entry": row.entry,
            "source": row.source,
            "roll": refs.position("rolls", row.roll_id),
            "recorded_by": row.recorded_by.username if row.recorded_by else None,
            "created_at": timestamps.iso(row.created_at),
            "reverted_at": timestamps.iso(row.reverted_at),
            "reverted_by": row.reverted_by.username if row.reverted_by else None,
        }
        for row in rows
    ]


def usernames(data) -> set:
    names: set = set()
    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict):
            names |= {item.get("recorded_by"), item.get("reverted_by")}
    return names - {None}


# -- structure --------------------------------------------------------------------------------------
def _entry(check: Checker, entry: Any, at: str) -> None:
    """An entry's kind, its fields (the ones the kind takes, required ones present) and their values."""
    if not check.obj(entry, at, ("kind",)):
        return
    kind = entry.get("kind")
    if kind not in npc_condition.NPC_KINDS:
        if "kind" in entry:
            check.add(join(at, "kind"), f"must be one of: {', '.join(npc_condition.NPC_KINDS)}.")
        return
    _function, names = recovery.FUNCTIONS[kind]
    for name in sorted(set(entry) - {"kind", "source", *names}):
        takes = ", ".join(names) or "nothing"
        check.add(join(at, name), f"is not a field of a {kind} entry (it takes: {takes}).")
    for name in names:
        if name not in entry and name not in recovery.OPTIONAL_FIELDS:
            check.add(join(at, name), "is missing.")
    for name, low in COUNTS.items():
        if name in names:
            check.integer(entry, name, at, minimum=low, maximum=UNKNOWN_LIMIT)
    for name, choices in CHOICES.items():
        if name in names:
            check.choice(entry, name, at, choices)
    if "armor" in names and "armor" in entry:
        armor = entry["armor"]
        if not isinstance(armor, list) or not all(isinstance(a, str) and a in ARMOR for a in armor):
            check.add(join(at, "armor"), f"must be a list of armor keys: {', '.join(ARMOR)}.")
    check.text(entry, "source", at, SOURCE_LENGTH)


def _structure(check: Checker, item: Any, path: str, npcs: list, rolls: int) -> None:
    if not check.obj(item, path, ("npc", "entry")):
        return
    for name in sorted(set(item) - set(FIELDS)):
        check.add(join(path, name), "is not a field of an NPC condition entry.")
    npc = item.get("npc")
    if "npc" in item and (isinstance(npc, bool) or not isinstance(npc, int) or not 0 <= npc < len(npcs)):
        check.add(join(path, "npc"), f"must be the position of one of the {len(npcs)} npcs of the archive.")
    check.reference(item, "roll", path, rolls, "rolls of the archive")
    check.text(item, "source", path, SOURCE_LENGTH)
    for name in ("recorded_by", "reverted_by"):
        if item.get(name) is not None:
            check.text(item, name, path, 150)
    for name in ("created_at", "reverted_at"):
        timestamps.check(check, item, name, path)
    if item.get("reverted_by") is not None and item.get("reverted_at") is None:
        check.add(join(path, "reverted_by"), "names who reverted an entry that has no reverted_at.")
    _entry(check, item.get("entry"), join(path, "entry"))


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_ENTRIES):
        return check.problems
    if data:
        header = document.get("campaign")
        if not isinstance(header, dict) or header.get("system") != SYSTEM:
            check.add(KEY, "NPC condition entries belong to a TIMEMASTER campaign's archive.")
            return check.problems
    npcs = document.get("npcs") if isinstance(document.get("npcs"), list) else []
    rolls = length_of(document, "rolls")
    for index, item in enumerate(data):
        _structure(check, item, join(KEY, index), npcs, rolls)
    return check.problems


# -- import -----------------------------------------------------------------------------------------
def load(campaign, data, refs) -> None:
    rows = NPCConditionEntry.objects.bulk_create(
        (
            NPCConditionEntry(
                npc=refs.row("npcs", item["npc"]),
                entry=item["entry"],
                source=item.get("source", ""),
                roll=refs.row("rolls", item.get("roll")),
                recorded_by=refs.user(item.get("recorded_by")),
                reverted_at=timestamps.parse(item.get("reverted_at")),
                reverted_by=refs.user(item.get("reverted_by")),
            )
            for item in data
        ),
        batch_size=1000,
    )
    timestamps.restore_created_at(NPCConditionEntry, rows, [item.get("created_at") for item in data])


def notes(campaign) -> list[str]:
    """A line for each NPC whose entries that hold no longer fold with its statistics (its STA was
    changed after they were recorded): imported as they were, its page shows no condition, as on
    the server that wrote the archive, until the GM reverts the entry the rules refuse."""
    lines = []
    npcs = NPC.objects.filter(campaign=campaign, timemaster_condition__isnull=False).distinct()
    for npc in npcs.order_by("name", "pk"):
        entries = [row.entry for row in npc.timemaster_condition.filter(reverted_at__isnull=True)]
        try:
            npc_condition.fold(npc.abilities, entries)
        except RuleError as error:
            words = " ".join(v.message for v in error.violations)
            lines.append(
                f"NPC {npc.name!r}: its condition entries do not hold with its statistics ({words}), "
                "as in the archive: its page shows no condition until you revert the entry the rules "
                "refuse."
            )
    return lines
