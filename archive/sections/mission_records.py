"""What a mission points at, loaded once characters, NPCs and rolls exist: the agents sent, the
roll of its success check, and its significance tally (GM-only until the result is published),
reversals by position in the same tally."""

from __future__ import annotations

from archive import rows, timestamps
from archive.problems import Checker, Problem, join, length_of
from campaigns.models import Mission, SignificanceEntry

KEY = "mission_records"
TALLY_FIELDS = (
    "kind",
    "description",
    "rating",
    "equipment_item",
    "reason",
    "after_close",
    "shown_to_players",
)


def export(campaign, refs) -> list[dict]:
    missions = list(
        Mission.objects.filter(campaign=campaign).prefetch_related("agents").order_by("created_at", "id")
    )
    tallies: dict[int, list[SignificanceEntry]] = {m.pk: [] for m in missions}
    entries = SignificanceEntry.objects.filter(mission__campaign=campaign).select_related("recorded_by")
    for entry in entries.order_by("id"):
        tallies[entry.mission_id].append(entry)
    out = []
    for mission in missions:
        tally = tallies[mission.pk]
        if not tally and not mission.check_roll_id and not mission.agents.all():
            continue
        positions = {entry.pk: index for index, entry in enumerate(tally)}
        out.append(
            {
                "mission": refs.position("missions", mission.pk),
                "agents": sorted(refs.position("characters", agent.pk) for agent in mission.agents.all()),
                "check_roll": refs.position("rolls", mission.check_roll_id),
                "tally": [
                    {
                        **{name: getattr(entry, name) for name in TALLY_FIELDS},
                        "npc": refs.position("npcs", entry.npc_id),
                        "reverses": positions.get(entry.reverses_id),
                        "recorded_by": entry.recorded_by.username if entry.recorded_by else None,
                        "created_at": timestamps.iso(entry.created_at),
                    }
                    for entry in tally
                ],
            }
        )
    return out


def _validate_tally(check: Checker, tally, path: str, npc_count: int) -> None:
    if not check.array(tally, path, 10_000):
        return
    for index, entry in enumerate(tally):
        where = join(path, index)
        if not check.obj(entry, where, ("kind",)):
            continue
        check.choice(entry, "kind", where, SignificanceEntry.Kind.values)
        check.text(entry, "description", where, SignificanceEntry._meta.get_field("description").max_length)
        check.text(
            entry, "equipment_item", where, SignificanceEntry._meta.get_field("equipment_item").max_length
        )
        check.text(entry, "reason", where, SignificanceEntry._meta.get_field("reason").max_length)
        check.integer(entry, "rating", where, minimum=0, maximum=32767, null=True)
        check.boolean(entry, "after_close", where)
        check.boolean(entry, "shown_to_players", where)
        check.reference(entry, "npc", where, npc_count, "NPCs of the archive")
        if entry.get("recorded_by") is not None:
            check.text(entry, "recorded_by", where, 150)
        timestamps.check(check, entry, "created_at", where)
        target = entry.get("reverses")
        is_reversal = entry.get("kind") == SignificanceEntry.Kind.REVERSAL
        if is_reversal != (target is not None):
            check.add(join(where, "reverses"), "a reversal, and only a reversal, names the entry it undoes.")
        elif is_reversal and (
            isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < index
        ):
            check.add(join(where, "reverses"), "must be the position of an earlier entry of this tally.")


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, 10_000):
        return check.problems
    counts = {key: length_of(document, key) for key in ("missions", "characters", "npcs", "rolls")}
    seen: set[int] = set()
    for index, record in enumerate(data):
        path = join(KEY, index)
        if not check.obj(record, path, ("mission",)):
            continue
        if record.get("mission") is None:
            check.add(join(path, "mission"), "must be the position of one of the archive's missions.")
        check.reference(record, "mission", path, counts["missions"], "missions of the archive")
        mission = record.get("mission")
        if isinstance(mission, int) and mission in seen:
            check.add(join(path, "mission"), "this mission has two records.")
        if isinstance(mission, int):
            seen.add(mission)
        check.reference(record, "check_roll", path, counts["rolls"], "rolls of the archive")
        agents = record.get("agents", [])
        if check.array(agents, join(path, "agents"), 1000):
            for number, agent in enumerate(agents):
                if (
                    isinstance(agent, bool)
                    or not isinstance(agent, int)
                    or not 0 <= agent < counts["characters"]
                ):
                    check.add(
                        join(join(path, "agents"), number),
                        "must be the position of a character of the archive.",
                    )
        _validate_tally(check, record.get("tally", []), join(path, "tally"), counts["npcs"])
    return check.problems


def load(campaign, data, refs) -> None:
    through = Mission.agents.through
    links, checks = [], []
    for record in data:
        mission = refs.row("missions", record["mission"])
        links += [
            through(mission_id=mission.pk, character_id=refs.row("characters", p).pk)
            for p in record.get("agents", [])
        ]
        if record.get("check_roll") is not None:
            mission.check_roll = refs.row("rolls", record["check_roll"])
            checks.append(mission)
        _load_tally(mission, record.get("tally", []), refs)
    through.objects.bulk_create(links)
    Mission.objects.bulk_update(checks, ["check_roll"])


def _load_tally(mission, tally: list[dict], refs) -> None:
    made = SignificanceEntry.objects.bulk_create(
        SignificanceEntry(
            mission=mission,
            **{name: entry[name] for name in TALLY_FIELDS if name in entry},
            npc=refs.row("npcs", entry.get("npc")),
            recorded_by=refs.user(entry.get("recorded_by")),
        )
        for entry in tally
    )
    rows.link_reversals(SignificanceEntry, made, tally)
    timestamps.restore_created_at(SignificanceEntry, made, [e.get("created_at") for e in tally])
