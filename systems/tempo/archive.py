"""Tempo conflicts (tempo_conflicts): the starting state, the participants of each side, every
event as the engine folded it (rolls with their dice, GM sides' rolls included) and the state.

Participants point at characters by position. A round's roll results name the row of the dice log
they were written to (``log_roll``); in the archive that is the roll's position in ``rolls``.
Importing folds the events again and refuses a conflict whose stored state is not what they give;
each event's one-line summary is written again from that replay.
"""

from __future__ import annotations

from collections import Counter

from archive import engine_states, timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join, length_of
from archive.sections import fair_dice_scopes
from campaigns.models import Roll
from campaigns.table import fairness
from characters.systems import RuleError
from systems.tempo.engine import conflict as engine
from systems.tempo.models import Conflict, ConflictEvent, Participant
from systems.tempo.services import CONFLICT_KEY, summary_of

KEY = "tempo_conflicts"
#: A conflict roll names its conflict by database id: never carried in or out (the conflict's
#: events name the roll, and its import names it again).
ROLL_DETAIL_DROPPED = CONFLICT_KEY
SYSTEM = "tempo"
LOG_ROLL = "log_roll"
#: What new_conflict reads of a side (the rest of a side's state starts empty).
SIDE_INPUT = ("key", "name", "controlled_by", "superiority", "max_level", "aspects")
MAX_CONFLICTS = 10_000
MAX_EVENTS = 10_000
MAX_PARTICIPANTS = 200


# -- export -----------------------------------------------------------------------------------------
def export(campaign, refs) -> list[dict]:
    conflicts = list(
        Conflict.objects.filter(campaign=campaign).select_related("created_by").order_by("created_at", "id")
    )
    people: dict[int, list[Participant]] = {c.pk: [] for c in conflicts}
    for participant in Participant.objects.filter(conflict__campaign=campaign).order_by("id"):
        people[participant.conflict_id].append(participant)
    events: dict[int, list[ConflictEvent]] = {c.pk: [] for c in conflicts}
    for event in (
        ConflictEvent.objects.filter(conflict__campaign=campaign)
        .select_related("recorded_by")
        .order_by("seq")
    ):
        events[event.conflict_id].append(event)

    def roll_position(pk):
        return refs.position("rolls", pk) if isinstance(pk, int) and not isinstance(pk, bool) else None

    def out_of_database(value):
        return engine_states.map_key(value, LOG_ROLL, roll_position)

    out = []
    for position, conflict in enumerate(conflicts):
        refs.remember(KEY, conflict.pk, position)
        out.append(
            {
                "title": conflict.title,
                "status": conflict.status,
                "initial_state": out_of_database(conflict.initial_state),
                "state": out_of_database(conflict.state),
                "participants": [
                    {
                        "side": p.side,
                        "character": refs.position("characters", p.character_id),
                        "npc_name": p.npc_name,
                    }
                    for p in people[conflict.pk]
                ],
                "events": [
                    {
                        "payload": out_of_database(event.payload),
                        "recorded_by": event.recorded_by.username if event.recorded_by else None,
                        "created_at": timestamps.iso(event.created_at),
                    }
                    for event in events[conflict.pk]
                ],
                "created_by": conflict.created_by.username if conflict.created_by else None,
                "created_at": timestamps.iso(conflict.created_at),
                "dice_scope": conflict.dice_scope,
            }
        )
    return out


def usernames(data) -> set:
    return engine_states.record_usernames(data, "recorded_by")


# -- structure and rules ----------------------------------------------------------------------------
def _participants(check: Checker, conflict: dict, path: str, document: dict) -> None:
    listed = conflict.get("participants", [])
    where = join(path, "participants")
    if not check.array(listed, where, MAX_PARTICIPANTS):
        return
    characters = document.get("characters") if isinstance(document.get("characters"), list) else []
    sides = (
        conflict["initial_state"].get("order") if isinstance(conflict.get("initial_state"), dict) else None
    )
    seen: set[int] = set()
    for index, participant in enumerate(listed):
        at = join(where, index)
        if not check.obj(participant, at, ("side",)):
            continue
        check.text(participant, "side", at, Participant._meta.get_field("side").max_length, blank=False)
        if isinstance(sides, list) and participant.get("side") not in sides:
            check.add(join(at, "side"), f"must be one of the conflict's sides: {', '.join(map(str, sides))}.")
        check.text(participant, "npc_name", at, Participant._meta.get_field("npc_name").max_length)
        character = participant.get("character")
        check.reference(participant, "character", at, len(characters), "characters of the archive")
        if (
            isinstance(character, int)
            and not isinstance(character, bool)
            and 0 <= character < len(characters)
        ):
            if not isinstance(characters[character], dict) or characters[character].get("system") != SYSTEM:
                check.add(join(at, "character"), "must be a Tempo character of the archive.")
            if character in seen:
                check.add(join(at, "character"), "a character stands in a conflict once.")
            seen.add(character)
        elif character is None and not str(participant.get("npc_name") or "").strip():
            check.add(at, "a participant is a character of the archive or a named NPC.")


def _structure(check: Checker, conflict, path: str, document: dict) -> None:
    if not check.obj(conflict, path, ("title", "initial_state", "state", "events")):
        return
    check.text(conflict, "title", path, Conflict._meta.get_field("title").max_length, blank=False)
    check.choice(conflict, "status", path, Conflict.Status.values)
    check.kind_of(conflict, "initial_state", path, (dict,), "an object")
    check.kind_of(conflict, "state", path, (dict,), "an object")
    if conflict.get("created_by") is not None:
        check.text(conflict, "created_by", path, 150)
    if "dice_scope" in conflict and not (
        isinstance(conflict["dice_scope"], str) and fair_dice_scopes.LABEL.fullmatch(conflict["dice_scope"])
    ):
        check.add(
            join(path, "dice_scope"), "must be the conflict's label on the fair dice: 1-40 of a-z, 0-9 and -"
        )
    timestamps.check(check, conflict, "created_at", path)
    _participants(check, conflict, path, document)
    rolls = length_of(document, "rolls")
    for name in ("initial_state", "state"):
        if any(
            not (
                value is None
                or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < rolls)
            )
            for value in engine_states.values_of(conflict.get(name), LOG_ROLL)
        ):
            check.add(
                join(path, name),
                f"each {LOG_ROLL} must be the position of one of the {rolls} rolls, or null.",
            )

    def rolls_named(where: str, event: dict) -> None:
        for value in engine_states.values_of(event.get("payload"), LOG_ROLL):
            if not (
                value is None
                or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < rolls)
            ):
                check.add(
                    join(where, "payload"), f"{LOG_ROLL} must be the position of one of the {rolls} rolls."
                )
                break

    engine_states.check_events(check, conflict.get("events"), path, MAX_EVENTS, rolls_named)


def fold(conflict: dict, path: str) -> list[dict]:
    """The state after each event (the starting state first); ArchiveRefused naming the event."""
    states = [conflict["initial_state"]]
    for index, event in enumerate(conflict["events"]):
        where = join(join(join(path, "events"), index), "payload")
        states.append(engine_states.replayed(engine.apply_event, states[-1], event["payload"], where))
    return states


def starting_state(initial: dict) -> dict:
    """The starting state the engine makes from what ``initial`` says of its sides, module, loss
    rule and scene aspects: a conflict starts at Even with an empty log (§B8)."""
    sides = [
        {name: initial["sides"][key][name] for name in SIDE_INPUT if name in initial["sides"][key]}
        for key in initial["order"]
    ]
    return engine.new_conflict(
        sides,
        {"tempo_loss_rule": initial["loss_rule"]},
        module=initial.get("module"),
        scene_aspects=initial.get("scene_aspects", []),
    )


def _check_start(conflict: dict, path: str) -> list[Problem]:
    where = join(path, "initial_state")
    try:
        expected = engine_states.as_json(starting_state(conflict["initial_state"]))
    except RuleError as error:
        return [Problem(where, f"the rules refuse this starting state: {engine_states.rule_message(error)}")]
    except engine_states.UNREADABLE as error:
        return [Problem(where, f"the rules engine cannot read this starting state ({error}).")]
    found = engine_states.as_json(conflict["initial_state"])
    if expected != found:
        return [
            Problem(
                where,
                "is not a conflict's starting state (differs in: "
                f"{engine_states.differences(expected, found)}); the file was changed by hand.",
            )
        ]
    return []


def _check_rules(conflict: dict, path: str) -> list[Problem]:
    problems = _check_start(conflict, path)
    if problems:
        return problems
    try:
        final = engine_states.as_json(fold(conflict, path)[-1])
        engine.tracker(final)  # what the GM's tracker shows must be readable
    except ArchiveRefused as refused:
        return refused.problems
    except engine_states.UNREADABLE as error:
        return [Problem(join(path, "state"), f"the rules engine cannot read this state ({error}).")]
    stored = engine_states.as_json(conflict["state"])
    if final != stored:
        return engine_states.replay_mismatch(path, final, stored)
    if conflict.get("status", final.get("status")) != final.get("status"):
        return [Problem(join(path, "status"), f"the events end with status {final.get('status')!r}.")]
    return []


def validate(data, document) -> list[Problem]:
    problems = engine_states.validate_records(data, document, KEY, MAX_CONFLICTS, _structure, _check_rules)
    if isinstance(data, list):  # a dice scope is one conflict's
        labels = Counter(c.get("dice_scope") for c in data if isinstance(c, dict) and c.get("dice_scope"))
        for index, conflict in enumerate(data):
            if isinstance(conflict, dict) and labels.get(conflict.get("dice_scope"), 0) > 1:
                problems.append(Problem(join(join(KEY, index), "dice_scope"), "is given to two conflicts."))
    return problems


# -- import -----------------------------------------------------------------------------------------
def load(campaign, data, refs) -> None:
    def into_database(value):
        def roll_pk(position):
            row = refs.row("rolls", position) if isinstance(position, int) else None
            return row.pk if row is not None else None

        return engine_states.map_key(value, LOG_ROLL, roll_pk)

    conflicts, people, made_events, stamps = [], [], [], []
    for index, conflict in enumerate(data):
        states = fold(conflict, join(KEY, index))
        row = Conflict(
            campaign=campaign,
            title=conflict["title"],
            status=states[-1]["status"],
            initial_state=into_database(conflict["initial_state"]),
            state=into_database(states[-1]),
            created_by=refs.user(conflict.get("created_by")),
        )
        if conflict.get("dice_scope"):  # an archive from before the label: a new one (the default)
            row.dice_scope = conflict["dice_scope"]
        conflicts.append(row)
        people += [
            (
                row,
                Participant(
                    side=p["side"],
                    character=refs.row("characters", p.get("character")),
                    npc_name=p.get("npc_name", ""),
                ),
            )
            for p in conflict.get("participants", [])
        ]
        for seq, event in enumerate(conflict["events"], start=1):
            payload = event["payload"]
            made_events.append(
                (
                    row,
                    ConflictEvent(
                        seq=seq,
                        kind=payload["type"],
                        payload=into_database(payload),
                        summary=summary_of(states[seq], states[seq]["log"][-1])[:300],
                        recorded_by=refs.user(event.get("recorded_by")),
                    ),
                )
            )
            stamps.append(event.get("created_at"))
    Conflict.objects.bulk_create(conflicts)
    # Each conflict's dice scope (the file's, with its key, replaces these in fair_dice_scopes).
    fairness.open_scopes(
        campaign, [(row.dice_scope, row.status == Conflict.Status.OVER) for row in conflicts]
    )
    for row, item in (*people, *made_events):
        item.conflict = row
    Participant.objects.bulk_create([p for _, p in people], batch_size=1000)
    events = ConflictEvent.objects.bulk_create([e for _, e in made_events], batch_size=1000)
    for position, row in enumerate(conflicts):
        refs.made(KEY, position, row)
    _name_conflicts_in_rolls(conflicts, data, refs)
    timestamps.restore_created_at(Conflict, conflicts, [c.get("created_at") for c in data])
    timestamps.restore_created_at(ConflictEvent, events, stamps)


def _name_conflicts_in_rolls(conflicts: list[Conflict], data, refs) -> None:
    """Each dice-log roll a conflict's events point at (``log_roll``) names that conflict again
    (``detail.conflict``): the dice log shows a conflict's rolls only to who may see the conflict."""
    named = []
    for row, conflict in zip(conflicts, data, strict=True):
        for position in engine_states.values_of(conflict["events"], LOG_ROLL):
            roll = refs.row("rolls", position) if isinstance(position, int) else None
            if roll is not None:
                roll.detail = {**roll.detail, CONFLICT_KEY: row.pk}
                named.append(roll)
    Roll.objects.bulk_update(named, ["detail"], batch_size=1000)
