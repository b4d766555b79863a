"""Engine states and event logs of the play apps, as archive data.

A play record of a system (a mission run, a conflict, an encounter: each system's archive section)
is stored as a starting state, an append-only list of events and the state they fold to. Some
engine ids are built from database ids (a character's engine id, a participant ``character-12``,
an event's ``log_roll``); the archive
holds positions instead, so these helpers rewrite such values on the way out and back in. On
import the events are folded again through the engine, and the result must equal the state in
the file: a hand-edited state or event is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from archive import timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join
from characters.systems import RuleError

#: What an engine raises on data of the wrong shape (it refuses bad values with RuleError).
UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def as_json(value: Any) -> Any:
    """The value as it reads back from JSON (tuples become lists), for comparisons."""
    return json.loads(json.dumps(value))


def rename(value: Any, names: dict[str, str]) -> Any:
    """A copy of ``value`` with every string and dict key found in ``names`` replaced (once, so
    swapping two names is safe)."""
    if isinstance(value, dict):
        return {(names.get(k, k) if isinstance(k, str) else k): rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [rename(item, names) for item in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def map_key(value: Any, key: str, change: Callable[[Any], Any]) -> Any:
    """A copy of ``value`` with ``change`` applied to the value of every dict entry named ``key``."""
    if isinstance(value, dict):
        return {k: change(v) if k == key else map_key(v, key, change) for k, v in value.items()}
    if isinstance(value, list):
        return [map_key(item, key, change) for item in value]
    return value


def without_wording(state: Any) -> Any:
    """The state with its log lines' ``summary`` text left out, for the check that a file's state is
    what its events fold to: the summaries are words the engine writes (and rewords: issue 44), not
    facts, and the import keeps the replayed state, so an archive written before a rewording still
    imports and its log reads in today's words."""
    return map_key(state, "summary", lambda _: None)


def values_of(value: Any, key: str) -> list[Any]:
    """Every value of a dict entry named ``key``, anywhere in ``value``."""
    found: list[Any] = []
    if isinstance(value, dict):
        for k, v in value.items():
            found.extend([v] if k == key else values_of(v, key))
    elif isinstance(value, list):
        for item in value:
            found.extend(values_of(item, key))
    return found


def differences(expected: Any, found: Any) -> str:
    """The top-level keys where two states differ, for a message."""
    if not isinstance(expected, dict) or not isinstance(found, dict):
        return "the whole state"
    keys = sorted(str(k) for k in set(expected) | set(found) if expected.get(k) != found.get(k))
    return ", ".join(keys[:8]) + (" ..." if len(keys) > 8 else "")


def rule_message(error) -> str:
    """A RuleError's violations as one sentence list, with the engine's field names."""
    return " ".join(f"{v.field}: {v.message}" if v.field else v.message for v in error.violations)


def replayed(apply_event: Callable[[Any, Any], Any], state: Any, event: Any, where: str) -> Any:
    """``apply_event(state, event)`` on import: the engine's refusal, or its failure on data it
    cannot read, is an ArchiveRefused at ``where`` (the event's place in the archive)."""
    try:
        return apply_event(state, event)
    except RuleError as error:
        raise ArchiveRefused(Problem(where, f"the rules refuse this event: {rule_message(error)}")) from None
    except UNREADABLE as error:
        raise ArchiveRefused(Problem(where, f"the rules engine cannot read this event ({error}).")) from None


def record_usernames(data: Any, event_user_key: str) -> set:
    """Usernames a section of play records names: each record's creator and each event's user."""
    names: set = set()
    for record in data if isinstance(data, list) else []:
        if isinstance(record, dict):
            names.add(record.get("created_by"))
            events = record.get("events") if isinstance(record.get("events"), list) else []
            names |= {event.get(event_user_key) for event in events if isinstance(event, dict)}
    return names


def replay_mismatch(
    path: str, replayed: Any, stored: Any, start: str = "the starting state"
) -> list[Problem]:
    """The problem when the state a record stores is not what its events fold to (already as JSON)."""
    if replayed == stored:
        return []
    return [
        Problem(
            join(path, "state"),
            f"does not equal {start} with the events replayed (differs in: "
            f"{differences(replayed, stored)}); the file was changed by hand.",
        )
    ]


def validate_records(
    data: Any,
    document: dict,
    key: str,
    limit: int,
    structure: Callable[[Checker, Any, str, dict], None],
    rules: Callable[[dict, str], list[Problem]],
) -> list[Problem]:
    """A section of play records: each record's structure, then (only if that holds) its rules."""
    check = Checker()
    if not check.array(data, key, limit):
        return check.problems
    for index, record in enumerate(data):
        path = join(key, index)
        before = len(check.problems)
        structure(check, record, path, document)
        if len(check.problems) == before:
            check.problems.extend(rules(record, path))
    return check.problems


def check_events(
    check: Checker, events: Any, path: str, limit: int, each: Callable[[str, dict], None] | None = None
) -> None:
    """The rows of a play record's event log (``path``.events, at most ``limit``): each an object with
    an object payload, who recorded it and when; ``each(where, event)`` checks what a system adds."""
    if not check.array(events, join(path, "events"), limit):
        return
    for index, event in enumerate(events):
        where = join(join(path, "events"), index)
        if not check.obj(event, where, ("payload",)):
            continue
        check.kind_of(event, "payload", where, (dict,), "an object")
        if event.get("recorded_by") is not None:
            check.text(event, "recorded_by", where, 150)
        timestamps.check(check, event, "created_at", where)
        if each is not None:
            each(where, event)
