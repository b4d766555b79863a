"""D6 encounters (d6_encounters): the setup (method, settings, participants with their statistics,
NPC statistics included), every event with its dice, and the state they fold to.

Participants point at characters by position. The engine knows a character's place by a key made
from the database id (``character-12``); in the archive that key is ``character@<n>`` (n counts
the encounter's character places), and it is rewritten everywhere the engine uses it. Importing
makes the starting state again from the setup, folds the events (no dice rolled: each event
carries its dice) and refuses an encounter whose stored state is not what they give.
"""

from __future__ import annotations

from archive import engine_states, timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join
from characters.systems import RuleError
from systems.d6.engine import encounter as engine
from systems.d6.engine.tables import INITIATIVE_METHODS
from systems.d6.models import Encounter, EncounterEvent, Participant

KEY = "d6_encounters"
BEFORE = "rolls"  # the rolls made in an encounter name it by its position here
ROLL_DETAIL = "encounter"  # the key of a roll's detail that names its encounter
LABEL = "D6 encounters"
SYSTEM = "d6"
MAX_ENCOUNTERS = 10_000
MAX_EVENTS = 20_000
MAX_PARTICIPANTS = 200
PARTICIPANT_TEXTS = ("key", "name", "controlled_by")


def archive_key(number: int) -> str:
    return f"character@{number}"


# -- export -----------------------------------------------------------------------------------------
def export(campaign, refs) -> list[dict]:
    encounters = list(
        Encounter.objects.filter(campaign=campaign).select_related("created_by").order_by("created_at", "id")
    )
    places: dict[int, list[Participant]] = {e.pk: [] for e in encounters}
    for place in Participant.objects.filter(encounter__campaign=campaign).order_by("position", "id"):
        places[place.encounter_id].append(place)
    events: dict[int, list[EncounterEvent]] = {e.pk: [] for e in encounters}
    for event in (
        EncounterEvent.objects.filter(encounter__campaign=campaign)
        .select_related("recorded_by")
        .order_by("seq")
    ):
        events[event.encounter_id].append(event)
    out = []
    for position, encounter in enumerate(encounters):
        refs.remember(KEY, encounter.pk, position)
        characters = [p for p in places[encounter.pk] if p.kind == Participant.Kind.CHARACTER]
        names = {p.key: archive_key(number) for number, p in enumerate(characters)}
        out.append(
            {
                "name": encounter.name,
                "method": encounter.method,
                "optional_initiative_bonus": encounter.optional_initiative_bonus,
                "status": encounter.status,
                "settings": encounter.settings,
                "next_npc_number": encounter.next_npc_number,
                "participants": [
                    {
                        "key": names.get(p.key, p.key),
                        "kind": p.kind,
                        "character": refs.position("characters", p.character_id),
                        "character_revision": p.character_revision,
                        "name": p.name,
                        "controlled_by": p.controlled_by,
                        "stats": p.stats,
                        "members": p.members,
                        "position": p.position,
                        "created_at": timestamps.iso(p.created_at),
                    }
                    for p in places[encounter.pk]
                ],
                "state": engine_states.rename(encounter.state, names),
                "events": [
                    {
                        "payload": engine_states.rename(event.payload, names),
                        "recorded_by": event.recorded_by.username if event.recorded_by else None,
                        "created_at": timestamps.iso(event.created_at),
                    }
                    for event in events[encounter.pk]
                ],
                "created_by": encounter.created_by.username if encounter.created_by else None,
                "created_at": timestamps.iso(encounter.created_at),
            }
        )
    return out


def usernames(data) -> set:
    return engine_states.record_usernames(data, "recorded_by")


# -- structure and rules ----------------------------------------------------------------------------
def _participant(check: Checker, place, at: str, characters: list, seen: dict) -> None:
    if not check.obj(place, at, ("key", "kind", "name")):
        return
    for name in PARTICIPANT_TEXTS:
        check.text(
            place, name, at, Participant._meta.get_field(name).max_length, blank=name != "controlled_by"
        )
    check.choice(place, "kind", at, Participant.Kind.values)
    check.integer(place, "character_revision", at, minimum=0, maximum=2**31 - 1, null=True)
    check.integer(place, "position", at, minimum=0, maximum=2**31 - 1)
    check.kind_of(place, "stats", at, (dict,), "an object")
    check.kind_of(place, "members", at, (list,), "a list")
    timestamps.check(check, place, "created_at", at)
    key = place.get("key")
    if isinstance(key, str):
        if key in seen["keys"]:
            check.add(join(at, "key"), f"{key!r} is the key of another participant of this encounter.")
        seen["keys"].add(key)
        if place.get("kind") == Participant.Kind.CHARACTER and not key.startswith("character@"):
            check.add(join(at, "key"), "a character's place has a key character@<n> in an archive.")
    character = place.get("character")
    check.reference(place, "character", at, len(characters), "characters of the archive")
    if isinstance(character, int) and not isinstance(character, bool) and 0 <= character < len(characters):
        if place.get("kind") != Participant.Kind.CHARACTER:
            check.add(join(at, "character"), "only a character's place points at a character.")
        elif not isinstance(characters[character], dict) or characters[character].get("system") != SYSTEM:
            check.add(join(at, "character"), "must be a D6 character of the archive.")
        if character in seen["characters"]:
            check.add(join(at, "character"), "a character takes part in an encounter once.")
        seen["characters"].add(character)


def _structure(check: Checker, encounter, path: str, document: dict) -> None:
    if not check.obj(encounter, path, ("name", "method", "participants", "events")):
        return
    check.text(encounter, "name", path, Encounter._meta.get_field("name").max_length, blank=False)
    check.choice(encounter, "method", path, tuple(INITIATIVE_METHODS))
    check.boolean(encounter, "optional_initiative_bonus", path)
    check.choice(encounter, "status", path, Encounter.Status.values)
    check.kind_of(encounter, "settings", path, (dict,), "an object")
    check.kind_of(encounter, "state", path, (dict,), "an object")
    check.integer(encounter, "next_npc_number", path, minimum=1, maximum=2**31 - 1)
    if encounter.get("created_by") is not None:
        check.text(encounter, "created_by", path, 150)
    timestamps.check(check, encounter, "created_at", path)
    characters = document.get("characters") if isinstance(document.get("characters"), list) else []
    places = encounter.get("participants")
    if check.array(places, join(path, "participants"), MAX_PARTICIPANTS):
        seen: dict = {"keys": set(), "characters": set()}
        for index, place in enumerate(places):
            _participant(check, place, join(join(path, "participants"), index), characters, seen)
    engine_states.check_events(check, encounter.get("events"), path, MAX_EVENTS)


def _places(encounter: dict) -> list[Participant]:
    """Unsaved participant rows in setup order (the order the app reads them in)."""
    rows = [
        Participant(
            key=place["key"],
            kind=place["kind"],
            character_revision=place.get("character_revision"),
            name=place["name"],
            controlled_by=place.get("controlled_by", "gm"),
            stats=place.get("stats") or {},
            members=place.get("members") or [],
            position=place.get("position", 0),
        )
        for place in encounter["participants"]
    ]
    return sorted(rows, key=lambda row: row.position)  # stable: equal positions keep the file's order


def initial_state(encounter: dict) -> dict:
    """The engine's starting state from the setup, as systems.d6.services.initial_state makes it."""
    settings = {
        **(encounter.get("settings") or {}),
        "optional_initiative_bonus": encounter.get("optional_initiative_bonus", False),
    }
    return engine.new_encounter(
        [place.engine_input() for place in _places(encounter)],
        method=encounter["method"],
        settings=settings,
        name=encounter["name"],
    )


def fold(encounter: dict, path: str) -> dict:
    """The state the setup and the events give ({} for an encounter still being set up)."""
    status = encounter.get("status", Encounter.Status.RUNNING)
    if status == Encounter.Status.SETUP:
        if encounter["events"] or encounter.get("state"):
            raise ArchiveRefused(
                Problem(join(path, "status"), "an encounter being set up has no events or state yet.")
            )
        return {}
    try:
        state = initial_state(encounter)
    except RuleError as error:
        raise ArchiveRefused(
            Problem(
                join(path, "participants"),
                f"the rules refuse this setup: {engine_states.rule_message(error)}",
            )
        ) from None
    except engine_states.UNREADABLE as error:
        raise ArchiveRefused(
            Problem(join(path, "participants"), f"the rules engine cannot read this setup ({error}).")
        ) from None
    for index, event in enumerate(encounter["events"]):
        where = join(join(join(path, "events"), index), "payload")
        state = engine_states.replayed(engine.apply_event, state, event["payload"], where)
    return state


def _check_rules(encounter: dict, path: str) -> list[Problem]:
    try:
        final = engine_states.as_json(fold(encounter, path))
    except ArchiveRefused as refused:
        return refused.problems
    stored = engine_states.as_json(encounter.get("state") or {})
    if engine_states.without_wording(final) != engine_states.without_wording(stored):
        return engine_states.replay_mismatch(path, final, stored, start="the setup")
    status = encounter.get("status", Encounter.Status.RUNNING)
    ended = final.get("status") == "over"
    if status != Encounter.Status.SETUP and ended != (status == Encounter.Status.OVER):
        return [
            Problem(join(path, "status"), f"the events leave the encounter {'over' if ended else 'running'}.")
        ]
    return []


def validate(data, document) -> list[Problem]:
    return engine_states.validate_records(data, document, KEY, MAX_ENCOUNTERS, _structure, _check_rules)


# -- import -----------------------------------------------------------------------------------------
def load(campaign, data, refs) -> None:
    encounters, places, made_events, place_stamps, event_stamps = [], [], [], [], []
    for index, encounter in enumerate(data):
        state = fold(encounter, join(KEY, index))
        names = {}
        for place in encounter["participants"]:
            character = refs.row("characters", place.get("character"))
            if character is not None:
                names[place["key"]] = f"character-{character.pk}"
        row = Encounter(
            campaign=campaign,
            name=encounter["name"],
            method=encounter["method"],
            optional_initiative_bonus=encounter.get("optional_initiative_bonus", False),
            status=encounter.get("status", Encounter.Status.RUNNING),
            settings=encounter.get("settings") or {},
            state=engine_states.rename(state, names),
            event_count=len(encounter["events"]),
            next_npc_number=encounter.get("next_npc_number", 1),
            created_by=refs.user(encounter.get("created_by")),
        )
        encounters.append(row)
        for place in encounter["participants"]:
            unsaved = Participant(
                key=names.get(place["key"], place["key"]),
                kind=place["kind"],
                character=refs.row("characters", place.get("character")),
                character_revision=place.get("character_revision"),
                name=place["name"],
                controlled_by=place.get("controlled_by", "gm"),
                stats=place.get("stats") or {},
                members=place.get("members") or [],
                position=place.get("position", 0),
            )
            places.append((row, unsaved))
            place_stamps.append(place.get("created_at"))
        for seq, event in enumerate(encounter["events"], start=1):
            payload = engine_states.rename(event["payload"], names)
            made_events.append(
                (
                    row,
                    EncounterEvent(
                        seq=seq,
                        type=payload["type"],
                        payload=payload,
                        recorded_by=refs.user(event.get("recorded_by")),
                    ),
                )
            )
            event_stamps.append(event.get("created_at"))
    Encounter.objects.bulk_create(encounters)
    for row, item in (*places, *made_events):
        item.encounter = row
    made_places = Participant.objects.bulk_create([p for _, p in places], batch_size=1000)
    events = EncounterEvent.objects.bulk_create([e for _, e in made_events], batch_size=1000)
    for position, row in enumerate(encounters):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(Encounter, encounters, [e.get("created_at") for e in data])
    timestamps.restore_created_at(Participant, made_places, place_stamps)
    timestamps.restore_created_at(EncounterEvent, events, event_stamps)
