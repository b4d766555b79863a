"""Time to Kill mission runs (ttk_missions): the starting state, every event with the draws and
dice the engine made, and the state they fold to; the bag, the secret Fates and the GM's notes
included (a campaign archive is the GM's).

A run points at its ninja and its mission by position, and at the ledger entry its result wrote
by position in the ninja's ledger. The engine knows the ninja by an id made from the database id;
in the archive that id is ``"ninja"``. Importing folds the events again (no dice are rolled: each
event carries its results) and refuses a run whose stored state is not what they give; the log
lines of each event are taken from that replay, not from the file.
"""

from __future__ import annotations

from archive import engine_states, timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join, length_of
from archive.sections.characters import LEDGER
from systems.time_to_kill.archive_format import RUN, SECTION
from systems.time_to_kill.engine import apply_event, gm_view, player_view
from systems.time_to_kill.models import MissionEvent, MissionRun
from systems.time_to_kill.services import ABANDONED

KEY = SECTION
REFERENCE = RUN  # ledger entries point at runs by key
SYSTEM = "time_to_kill"
#: The ninja's engine id inside an archive (the engine's GM id is "gm").
ARCHIVE_NINJA = "ninja"
MAX_RUNS = 10_000
MAX_EVENTS = 10_000
ROLES = ("gm", "player")


def _ninja_ids(value, old: str, new: str):
    """The state or event with the ninja's engine id ``old`` replaced by ``new``: the ninja's own
    id and the ``by`` of every event (the engine keeps no other copy of it)."""
    if not isinstance(value, dict):
        return value
    value = dict(value)
    if value.get("by") == old:
        value["by"] = new
    ninja = value.get("ninja")
    if isinstance(ninja, dict) and ninja.get("id") == old:
        value["ninja"] = {**ninja, "id": new}
    if isinstance(value.get("events"), list):
        value["events"] = [_ninja_ids(event, old, new) for event in value["events"]]
    return value


# -- export -----------------------------------------------------------------------------------------
def ordered(campaign):
    return MissionRun.objects.filter(campaign=campaign).order_by("created_at", "id")


def export(campaign, refs) -> list[dict]:
    runs = list(ordered(campaign).select_related("created_by", "result_entry"))
    events: dict[int, list[MissionEvent]] = {run.pk: [] for run in runs}
    for event in MissionEvent.objects.filter(run__campaign=campaign).select_related("actor").order_by("seq"):
        events[event.run_id].append(event)
    out = []
    for position, run in enumerate(runs):
        refs.remember(KEY, run.pk, position)
        engine_id = str(run.ninja_id)
        entry = run.result_entry
        out.append(
            {
                "title": run.title,
                "mission": refs.position("missions", run.mission_id),
                "ninja": refs.position("characters", run.ninja_id),
                "status": run.status,
                "outcome": run.outcome,
                "result_entry": (
                    refs.position(LEDGER, entry.pk) if entry and entry.character_id == run.ninja_id else None
                ),
                "initial_state": _ninja_ids(run.initial_state, engine_id, ARCHIVE_NINJA),
                "state": _ninja_ids(run.state, engine_id, ARCHIVE_NINJA),
                "events": [
                    {
                        "event": _ninja_ids(event.event, engine_id, ARCHIVE_NINJA),
                        "by_role": event.by_role,
                        "actor": event.actor.username if event.actor else None,
                        "created_at": timestamps.iso(event.created_at),
                    }
                    for event in events[run.pk]
                ],
                "created_by": run.created_by.username if run.created_by else None,
                "created_at": timestamps.iso(run.created_at),
            }
        )
    return out


def usernames(data) -> set:
    return engine_states.record_usernames(data, "actor")


# -- structure and rules ----------------------------------------------------------------------------
def _ninja_of(check: Checker, run: dict, path: str, document: dict) -> dict | None:
    """The archive character the run is for, if it is a Time to Kill character of the archive."""
    position = run.get("ninja")
    characters = document.get("characters") if isinstance(document.get("characters"), list) else []
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(characters):
        check.add(join(path, "ninja"), f"must be the position of one of the {len(characters)} characters.")
        return None
    ninja = characters[position]
    if not isinstance(ninja, dict) or ninja.get("system") != SYSTEM:
        check.add(join(path, "ninja"), "must be a Time to Kill character of the archive.")
        return None
    return ninja


def _structure(check: Checker, run, path: str, document: dict) -> dict | None:
    if not check.obj(run, path, ("title", "ninja", "initial_state", "state", "events")):
        return None
    check.text(run, "title", path, MissionRun._meta.get_field("title").max_length, blank=False)
    check.reference(run, "mission", path, length_of(document, "missions"), "missions of the archive")
    ninja = _ninja_of(check, run, path, document)
    check.choice(run, "status", path, MissionRun.Status.values)
    check.text(run, "outcome", path, MissionRun._meta.get_field("outcome").max_length)
    check.kind_of(run, "initial_state", path, (dict,), "an object")
    check.kind_of(run, "state", path, (dict,), "an object")
    for name in ("created_by",):
        if run.get(name) is not None:
            check.text(run, name, path, 150)
    timestamps.check(check, run, "created_at", path)
    entry = run.get("result_entry")
    ledger = ninja.get("ledger") if isinstance(ninja, dict) else None
    if entry is not None and isinstance(ledger, list):
        if isinstance(entry, bool) or not isinstance(entry, int) or not 0 <= entry < len(ledger):
            check.add(
                join(path, "result_entry"), "must be the position of an entry in the ninja's ledger, or null."
            )
        elif not isinstance(ledger[entry], dict) or ledger[entry].get("kind") != "mission_result":
            check.add(join(path, "result_entry"), "must be a mission_result entry of the ninja's ledger.")
    events = run.get("events")
    if check.array(events, join(path, "events"), MAX_EVENTS):
        for index, event in enumerate(events):
            where = join(join(path, "events"), index)
            if not check.obj(event, where, ("event", "by_role")):
                continue
            check.kind_of(event, "event", where, (dict,), "an object")
            check.choice(event, "by_role", where, ROLES)
            if event.get("actor") is not None:
                check.text(event, "actor", where, 150)
            timestamps.check(check, event, "created_at", where)
    return ninja


def fold(run: dict, path: str) -> list[dict]:
    """The state after each event (the starting state first); ArchiveRefused naming the event the
    engine refuses."""
    states = [run["initial_state"]]
    ninja = run["initial_state"].get("ninja")
    if not isinstance(ninja, dict) or ninja.get("id") != ARCHIVE_NINJA:
        raise ArchiveRefused(
            Problem(
                join(join(path, "initial_state"), "ninja"),
                f"the ninja's id in an archive is {ARCHIVE_NINJA!r}.",
            )
        )
    for index, event in enumerate(run["events"]):
        where = join(join(join(path, "events"), index), "event")
        states.append(engine_states.replayed(apply_event, states[-1], event["event"], where))
        if engine_states.as_json(states[-1]["events"][-1]) != engine_states.as_json(event["event"]):
            raise ArchiveRefused(Problem(where, "is not the event as the rules engine records it."))
    return states


def _check_rules(run: dict, path: str) -> list[Problem]:
    try:
        states = fold(run, path)
    except ArchiveRefused as refused:
        return refused.problems
    final = engine_states.as_json(states[-1])
    mismatch = engine_states.replay_mismatch(path, final, engine_states.as_json(run["state"]))
    if mismatch:
        return mismatch
    problems = []
    try:  # what the pages show must be readable: the GM's view and the ninja's player's view
        for state in (states[0], states[-1]):
            gm_view(state)
            player_view(state, ARCHIVE_NINJA)
    except engine_states.UNREADABLE as error:
        return [Problem(join(path, "initial_state"), f"the rules engine cannot read this state ({error}).")]
    ended, ended_how = final.get("status"), final.get("outcome") or ""
    if ended not in MissionRun.Status.values:
        return [Problem(join(path, "state"), "is not a Time to Kill mission state (no valid status).")]
    status, outcome = run.get("status", ended), run.get("outcome", ended_how)
    abandoned = outcome == ABANDONED and status == MissionRun.Status.OVER and ended == "running"
    if not abandoned and (status != ended or outcome != ended_how):
        problems.append(
            Problem(
                join(path, "status"),
                f"the events end with status {ended!r} and outcome {ended_how!r}, "
                f"not {status!r} and {outcome!r}.",
            )
        )
    return problems


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_RUNS):
        return check.problems
    running: dict[int, int] = {}
    for index, run in enumerate(data):
        path = join(KEY, index)
        before = len(check.problems)
        _structure(check, run, path, document)
        if len(check.problems) > before:
            continue
        if run.get("status", MissionRun.Status.RUNNING) == MissionRun.Status.RUNNING:
            if run["ninja"] in running:
                check.add(
                    join(path, "status"),
                    f"the ninja is already on the running mission {KEY}[{running[run['ninja']]}].",
                )
            running.setdefault(run["ninja"], index)
        check.problems.extend(_check_rules(run, path))
    return check.problems


# -- import -----------------------------------------------------------------------------------------
def load(campaign, data, refs) -> None:
    runs, made_events, stamps = [], [], []
    for index, run in enumerate(data):
        ninja = refs.row("characters", run["ninja"])
        engine_id = str(ninja.pk)
        states = fold(run, join(KEY, index))
        final = states[-1]
        entry = run.get("result_entry")
        row = MissionRun(
            campaign=campaign,
            mission=refs.row("missions", run.get("mission")),
            ninja=ninja,
            title=run["title"],
            initial_state=_ninja_ids(run["initial_state"], ARCHIVE_NINJA, engine_id),
            state=_ninja_ids(final, ARCHIVE_NINJA, engine_id),
            status=run.get("status", final["status"]),
            outcome=run.get("outcome", final.get("outcome") or ""),
            event_count=len(run["events"]),
            result_entry=refs.row(LEDGER, run["ninja"])[entry] if entry is not None else None,
            created_by=refs.user(run.get("created_by")),
        )
        runs.append(row)
        for seq, event in enumerate(run["events"], start=1):
            added = states[seq]["log"][len(states[seq - 1]["log"]) :]
            made_events.append(
                (
                    row,
                    MissionEvent(
                        seq=seq,
                        event=_ninja_ids(event["event"], ARCHIVE_NINJA, engine_id),
                        by_role=event["by_role"],
                        actor=refs.user(event.get("actor")),
                        public_log=[line["public"] for line in added],
                        gm_log=[line["gm"] for line in added],
                    ),
                )
            )
            stamps.append(event.get("created_at"))
    MissionRun.objects.bulk_create(runs)
    for row, event in made_events:
        event.run = row
    events = MissionEvent.objects.bulk_create([event for _, event in made_events], batch_size=1000)
    for position, row in enumerate(runs):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(MissionRun, runs, [run.get("created_at") for run in data])
    timestamps.restore_created_at(MissionEvent, events, stamps)
