"""What lasts in the campaign's fights (timemaster_fight_states): every hold, strangle and
knockdown the GM's attacks kept (systems.timemaster.models.FightState), ended and reverted ones
included, oldest first. The held or knocked-down one is an agent (position in ``characters``) or
an NPC (position in ``npcs``), the holder an agent or a name, the attack that made it a position
in ``rolls``; no database id. GM only, like the NPCs' condition: only the GM exports the archive.
Importing checks each item and refuses a bad one at its path, with nothing imported.
"""

from __future__ import annotations

from archive import timestamps
from archive.problems import Checker, Problem, join, length_of
from systems.timemaster.engine import special
from systems.timemaster.models import FightState

KEY = "timemaster_fight_states"
LABEL = "TIMEMASTER holds, strangles and knockdowns"
SYSTEM = "timemaster"
MAX_ITEMS = 20_000
FIELDS = (
    "kind",
    "defender",
    "defender_npc",
    "holder",
    "holder_name",
    "since_round",
    "rounds_held",
    "roll",
    "created_by",
    "created_at",
    "ended_at",
    "ended_by",
    "end_reason",
    "reverted_at",
    "reverted_by",
)
TEXT_LENGTH = FightState._meta.get_field("holder_name").max_length
USERS = ("created_by", "ended_by", "reverted_by")


def export(campaign, refs) -> list[dict]:
    rows = (
        FightState.objects.filter(campaign=campaign)
        .select_related("created_by", "ended_by", "reverted_by")
        .order_by("created_at", "id")
    )
    return [
        {
            "kind": row.kind,
            "defender": refs.position("characters", row.defender_id),
            "defender_npc": refs.position("npcs", row.defender_npc_id),
            "holder": refs.position("characters", row.holder_id),
            "holder_name": row.holder_name,
            "since_round": row.since_round,
            "rounds_held": row.rounds_held,
            "roll": refs.position("rolls", row.roll_id),
            "created_by": row.created_by.username if row.created_by else None,
            "created_at": timestamps.iso(row.created_at),
            "ended_at": timestamps.iso(row.ended_at),
            "ended_by": row.ended_by.username if row.ended_by else None,
            "end_reason": row.end_reason,
            "reverted_at": timestamps.iso(row.reverted_at),
            "reverted_by": row.reverted_by.username if row.reverted_by else None,
        }
        for row in rows
    ]


def usernames(data) -> set:
    names: set = set()
    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict):
            names |= {item.get(name) for name in USERS}
    return names - {None}


def _structure(check: Checker, item, path: str, counts: dict[str, int]) -> None:
    if not check.obj(item, path, ("kind",)):
        return
    for name in sorted(set(item) - set(FIELDS)):
        check.add(join(path, name), "is not a field of a hold or knockdown.")
    check.choice(item, "kind", path, special.STATE_KINDS)
    check.reference(item, "defender", path, counts["characters"], "characters of the archive")
    check.reference(item, "defender_npc", path, counts["npcs"], "npcs of the archive")
    check.reference(item, "holder", path, counts["characters"], "characters of the archive")
    check.reference(item, "roll", path, counts["rolls"], "rolls of the archive")
    if (item.get("defender") is None) == (item.get("defender_npc") is None):
        check.add(
            join(path, "defender"), "names the held or knocked-down one: an agent or an NPC, one of them."
        )
    for name in ("since_round", "rounds_held"):
        check.integer(item, name, path, minimum=1, maximum=1_000_000)
    for name in ("holder_name", "end_reason"):
        check.text(item, name, path, TEXT_LENGTH)
    for name in USERS:
        if item.get(name) is not None:
            check.text(item, name, path, 150)
    for name in ("created_at", "ended_at", "reverted_at"):
        timestamps.check(check, item, name, path)


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_ITEMS):
        return check.problems
    if data:
        header = document.get("campaign")
        if not isinstance(header, dict) or header.get("system") != SYSTEM:
            check.add(KEY, "Holds and knockdowns belong to a TIMEMASTER campaign's archive.")
            return check.problems
    counts = {name: length_of(document, name) for name in ("characters", "npcs", "rolls")}
    for index, item in enumerate(data):
        _structure(check, item, join(KEY, index), counts)
    return check.problems


def load(campaign, data, refs) -> None:
    rows = FightState.objects.bulk_create(
        (
            FightState(
                campaign=campaign,
                kind=item["kind"],
                defender=refs.row("characters", item.get("defender")),
                defender_npc=refs.row("npcs", item.get("defender_npc")),
                holder=refs.row("characters", item.get("holder")),
                holder_name=item.get("holder_name", ""),
                since_round=item.get("since_round", 1),
                rounds_held=item.get("rounds_held", 1),
                roll=refs.row("rolls", item.get("roll")),
                created_by=refs.user(item.get("created_by")),
                ended_at=timestamps.parse(item.get("ended_at")),
                ended_by=refs.user(item.get("ended_by")),
                end_reason=item.get("end_reason", ""),
                reverted_at=timestamps.parse(item.get("reverted_at")),
                reverted_by=refs.user(item.get("reverted_by")),
            )
            for item in data
        ),
        batch_size=1000,
    )
    timestamps.restore_created_at(FightState, rows, [item.get("created_at") for item in data])
