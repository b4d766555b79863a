"""Writes on D6 encounters: setup, start, and events folded through the engine.

Every rule is the engine's (``systems.d6.engine.encounter``); this module checks who may do
what, locks the encounter row so two requests cannot interleave their events, stores the event
with its dice, and copies every roll into the campaign's dice log.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership, Roll, RollProof
from campaigns.table import fairness, live, rolllog
from characters.models import Character
from characters.services import append_entry, violations_error
from characters.systems import RuleError, RuleViolation
from characters.systems.base import Replay
from characters.systems.dice import roll_kind
from systems.d6.engine import encounter as engine
from systems.d6.engine.campaign_settings import resolved
from systems.d6.engine.tables import INITIATIVE_METHODS
from systems.d6.models import Encounter, EncounterEvent, Participant

#: Events a player may send, for a character of their own, when it is that character's move.
PLAYER_EVENTS = ("declare", "act", "wait", "done", "interrupt")
#: Fields of an NPC or group's statistics (GM only), as the engine reads them.
NPC_STAT_FIELDS = ("attributes", "skills", "action_allotment", "character_points", "goes_first")
MAX_NAME = 120


def _engine_error(error: RuleError, prefix: str = "") -> ValidationError:
    return violations_error(error.violations, prefix)


def _lock(encounter: Encounter) -> Encounter:
    return Encounter.objects.select_for_update().select_related("campaign").get(pk=encounter.pk)


def _require_setup(encounter: Encounter) -> None:
    if encounter.status != Encounter.Status.SETUP:
        raise ValidationError(
            {"status": ["The encounter has started: its participants and method are fixed."]}
        )


def _check_method(method: Any) -> str:
    if method not in INITIATIVE_METHODS:
        raise ValidationError(
            {
                "method": [
                    f"The initiative method is one of: {', '.join(INITIATIVE_METHODS)} (Methods 1, 2, 3)."
                ]
            }
        )
    return method


def _check_name(name: Any, field: str = "name") -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise ValidationError({field: [f"Give a name of 1 to {MAX_NAME} characters."]})
    return name.strip()


def campaign_defaults(campaign: Campaign) -> dict[str, Any]:
    """The campaign's D6 settings with the engine's defaults filled in."""
    try:
        return resolved(campaign.settings or {})
    except RuleError:
        return resolved({})


# -- setup -----------------------------------------------------------------------------------------
def create_encounter(
    campaign: Campaign, user, *, name: str, method: str | None = None, optional_initiative_bonus=None
) -> Encounter:
    if campaign.system != "d6":
        raise ValidationError({"campaign": ["Encounters with rounds and initiative are for D6 campaigns."]})
    defaults = campaign_defaults(campaign)
    chosen = _check_method(method or defaults["initiative_method"])
    bonus = (
        defaults["optional_initiative_bonus"]
        if optional_initiative_bonus is None
        else optional_initiative_bonus
    )
    if not isinstance(bonus, bool):
        raise ValidationError({"optional_initiative_bonus": ["Say yes or no."]})
    return Encounter.objects.create(
        campaign=campaign,
        name=_check_name(name),
        method=chosen,
        optional_initiative_bonus=bonus,
        created_by=user,
    )


@transaction.atomic
def update_encounter(encounter: Encounter, values: dict[str, Any]) -> Encounter:
    locked = _lock(encounter)
    if "name" in values:
        locked.name = _check_name(values["name"])
    if "method" in values or "optional_initiative_bonus" in values:
        _require_setup(locked)
    if "method" in values:
        locked.method = _check_method(values["method"])
    if "optional_initiative_bonus" in values:
        if not isinstance(values["optional_initiative_bonus"], bool):
            raise ValidationError({"optional_initiative_bonus": ["Say yes or no."]})
        locked.optional_initiative_bonus = values["optional_initiative_bonus"]
    locked.save()
    return locked


def _check_participant(data: dict[str, Any]) -> None:
    """Let the engine check one participant's input; its field names lose the list prefix."""
    try:
        engine.new_encounter([data])
    except RuleError as error:
        cleaned = [
            RuleViolation(
                v.field.removeprefix("participants.0.").removeprefix("participants.0"), v.message, v.rule
            )
            for v in error.violations
        ]
        raise violations_error(cleaned) from None


def _next_position(encounter: Encounter) -> int:
    last = encounter.participants.order_by("-position").values_list("position", flat=True).first()
    return 0 if last is None else last + 1


@transaction.atomic
def add_character(encounter: Encounter, character_id: Any) -> Participant:
    locked = _lock(encounter)
    _require_setup(locked)
    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise ValidationError({"character": ["Pick a character of this campaign."]}) from None
    character = Character.objects.filter(pk=character_id, campaign_id=locked.campaign_id).first()
    if character is None:
        raise ValidationError({"character": ["Pick a character of this campaign."]})
    if character.is_draft:
        raise ValidationError({"character": [f"{character.name} is still a draft; finalize it first."]})
    if character.status != Character.Status.ACTIVE:
        raise ValidationError(
            {"character": [f"{character.name} is {character.get_status_display().lower()}, not in play."]}
        )
    if character.system != "d6":
        raise ValidationError({"character": [f"{character.name} is not a D6 character."]})
    if locked.participants.filter(character=character).exists():
        raise ValidationError({"character": [f"{character.name} already takes part."]})
    participant = Participant(
        encounter=locked,
        key=f"character-{character.pk}",
        kind=Participant.Kind.CHARACTER,
        character=character,
        character_revision=character.revision,
        name=character.name,
        controlled_by="player",
        stats=copy.deepcopy(character.build),
        position=_next_position(locked),
    )
    _check_participant(participant.engine_input())
    participant.save()
    return participant


def npc_input(data: Any) -> dict[str, Any]:
    """The GM's NPC or group fields, shaped for the engine (which checks them)."""
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": ["Send the NPC as an object of fields."]})
    kind = data.get("kind", "npc")
    if kind not in (Participant.Kind.NPC, Participant.Kind.GROUP):
        raise ValidationError({"kind": ["An NPC participant is an npc or a group."]})
    unknown = set(data) - {"kind", "name", "members", *NPC_STAT_FIELDS}
    if unknown:
        raise ValidationError(
            {"non_field_errors": [f"Unknown fields: {', '.join(sorted(map(str, unknown)))}."]}
        )
    stats = {key: copy.deepcopy(data[key]) for key in NPC_STAT_FIELDS if key in data}
    members = data.get("members") or []
    if kind == Participant.Kind.GROUP and (not isinstance(members, list) or not members):
        raise ValidationError({"members": ["A group lists its members (one or more)."]})
    if kind == Participant.Kind.NPC and members:
        raise ValidationError({"members": ["Only a group has members."]})
    return {"kind": kind, "name": _check_name(data.get("name")), "stats": stats, "members": members}


@transaction.atomic
def add_npc(encounter: Encounter, data: Any) -> Participant:
    shaped = npc_input(data)
    locked = _lock(encounter)
    _require_setup(locked)
    number = locked.next_npc_number
    participant = Participant(
        encounter=locked,
        key=f"{shaped['kind']}-{number}",
        kind=shaped["kind"],
        name=shaped["name"],
        controlled_by="gm",
        stats=shaped["stats"],
        members=shaped["members"],
        position=_next_position(locked),
    )
    _check_participant(participant.engine_input())
    # Keep what the engine tidied (code spellings, untrained search and dodge).
    checked = engine.new_encounter([participant.engine_input()])["participants"][participant.key]
    participant.stats = {
        "attributes": checked["attributes"],
        "skills": checked["skills"],
        "action_allotment": checked["action_allotment"],
        "character_points": checked["character_points"],
        "goes_first": checked["goes_first"],
    }
    participant.save()
    locked.next_npc_number = number + 1
    locked.save(update_fields=["next_npc_number", "updated_at"])
    return participant


@transaction.atomic
def remove_participant(participant: Participant) -> None:
    locked = _lock(participant.encounter)
    _require_setup(locked)
    Participant.objects.filter(pk=participant.pk, encounter=locked).delete()


def initial_state(encounter: Encounter, participants: list[Participant] | None = None) -> dict[str, Any]:
    listed = participants if participants is not None else list(encounter.participants.all())
    settings = {**encounter.settings, "optional_initiative_bonus": encounter.optional_initiative_bonus}
    return engine.new_encounter(
        [p.engine_input() for p in listed], method=encounter.method, settings=settings, name=encounter.name
    )


@transaction.atomic
def start_encounter(encounter: Encounter) -> Encounter:
    """Freeze the setup: characters are read again at their current revision, the campaign's
    settings are copied, and the engine makes the starting state (§B13 SCENE_START)."""
    locked = _lock(encounter)
    _require_setup(locked)
    participants = list(locked.participants.select_related("character"))
    if not participants:
        raise ValidationError({"participants": ["Add at least one participant first."]})
    for p in participants:
        if p.kind == Participant.Kind.CHARACTER and p.character is not None:
            p.stats = copy.deepcopy(p.character.build)
            p.character_revision = p.character.revision
            p.name = p.character.name
            p.save(update_fields=["stats", "character_revision", "name"])
    locked.settings = campaign_defaults(locked.campaign)
    try:
        state = initial_state(locked, participants)
    except RuleError as error:
        raise _engine_error(error) from None
    locked.state = state
    locked.status = Encounter.Status.RUNNING
    locked.save()
    return locked


# -- events ------------------------------------------------------------------------------------------
def _check_player_event(encounter: Encounter, membership: Membership, event: dict[str, Any]) -> None:
    if membership.is_gm:
        return
    if membership.role != "player":
        raise PermissionDenied("Observers watch the encounter; they do not act in it.")
    if event.get("type") not in PLAYER_EVENTS:
        raise PermissionDenied(
            f"Players may send only these events for their own characters: {', '.join(PLAYER_EVENTS)}."
        )
    key = event.get("participant")
    own = encounter.participants.filter(
        key=key if isinstance(key, str) else "", character__owner=membership.user, controlled_by="player"
    ).exists()
    if not own:
        raise PermissionDenied("You can act only for your own characters.")


def _check_new_event(event: dict[str, Any]) -> None:
    """What a new event must give that the engine's replay accepts without: an announcement names
    the result. The engine keeps ``result`` optional so that encounters (and archives) recorded
    before this check still replay; every new announcement, from the panel or the API, comes here."""
    if event.get("type") == "announce":
        result = event.get("result")
        if not isinstance(result, str) or not result.strip():
            raise ValidationError(
                {"result": ['Give the result of the roll (what happens, e.g. "hits for 3"); it was empty.']}
            )


def _faces_of(roll: dict[str, Any]) -> list[int]:
    faces = list(roll.get("dice", [])) + list(roll.get("wild", []))
    for chain in roll.get("extra_wild", []):
        faces += list(chain)
    return faces


def _log_rolls(
    encounter: Encounter,
    membership: Membership,
    before: int,
    state: dict[str, Any],
    source: fairness.FairDraws | None = None,
) -> None:
    """Copy the rolls an event made into the campaign's dice log. Rolls of GM-run participants
    are secret (players see only the order, never NPC numbers). A roll made on the fair dice
    (``source``) is stored as its draws, each a row with its proof: the code's dice with the Wild
    Die, then each extra Wild Die; the first row carries the engine's reading of the whole roll."""
    by_key = {p.key: p for p in encounter.participants.select_related("character")}
    rows = []
    for record in state["log"][before:]:
        roll = record.get("roll")
        if not roll:
            continue
        participant = by_key.get(record.get("participant"))
        name = participant.name if participant else record.get("participant", "")
        if record["type"] == "initiative_roll":
            kind, purpose = "d6 initiative", f"Initiative for {name} ({encounter.name})"
        else:
            what = record.get("action_name") or record.get("roll_kind", "roll")
            trait = record.get("trait") or ""
            kind = "d6 " + ("action" if record["type"] == "act" else str(record.get("roll_kind", "roll")))
            purpose = f"{name}: {what}{' with ' + trait if trait else ''} ({encounter.name})"
        secret = bool(participant and participant.controlled_by == "gm")
        drawn = source.take(record.get("participant", "")) if source is not None else []
        if drawn:
            _store_drawn(encounter, membership, participant, record, roll, purpose, secret, drawn)
            continue
        rows.append(
            Roll(
                campaign_id=encounter.campaign_id,
                character=participant.character if participant else None,
                roller=membership.user,
                kind=kind[:30],
                count=max(1, len(_faces_of(roll))),
                modifier=roll.get("pips", 0) + roll.get("bonus", 0),
                faces=_faces_of(roll),
                kept=_faces_of(roll),
                total=roll["total"],
                purpose=purpose[:200],
                detail={"encounter": encounter.pk, "round": record.get("round"), **roll},
                secret=secret,
            )
        )
    for row in Roll.objects.bulk_create(rows):
        proof = None
        if source is not None:  # the event brought its own dice: rolled at the table, by hand
            proof = RollProof.objects.create(roll=row, by_hand=True)
        rolllog.append(row, proof)
        live.publish_roll(row)


def _store_drawn(
    encounter: Encounter,
    membership: Membership,
    participant: Participant | None,
    record: dict[str, Any],
    roll: dict[str, Any],
    purpose: str,
    secret: bool,
    drawn: list[fairness.Drawn],
) -> None:
    """One encounter roll made on the fair dice: a row per draw, each recomputable by the fair-dice
    verifiers (the dice roller's kind, count and modifier), each with its proof."""
    faces = [f for d in drawn for f in d.result.faces]
    if faces != _faces_of(roll):  # pragma: no cover - the engine reads the draws it was given
        raise AssertionError("the encounter roll and its fair draws disagree")
    where = {"encounter": encounter.pk, "round": record.get("round")}
    first = None
    for index, item in enumerate(drawn):
        modifier = roll.get("pips", 0) + roll.get("bonus", 0) if index == 0 else 0
        dice = roll_kind(Replay(item.result.faces), item.result.kind, item.count, modifier)
        if index == 0:
            text = purpose
            if dice.total != roll["total"]:
                text = f"{purpose} · reads {roll['total']}"
            detail = {**where, **roll}
        else:
            text = f"Extra Wild Die {index} of: {purpose}"
            detail = {**where, "extra_wild_of": first.pk if first else None}
        row = Roll.objects.create(
            campaign_id=encounter.campaign_id,
            character=participant.character if participant else None,
            roller=membership.user,
            kind=item.result.kind,
            count=item.count,
            modifier=modifier,
            faces=list(dice.faces),
            kept=list(dice.kept or dice.faces),
            total=dice.total,
            purpose=text[:200],
            detail=detail,
            secret=secret,
        )
        rolllog.append(row, fairness.prove(row, item.made))
        live.publish_roll(row)
        first = first or row


def _book_character_points(
    encounter: Encounter,
    membership: Membership,
    before: dict[str, Any],
    state: dict[str, Any],
    event_type: str,
) -> None:
    """Character Points a character spent in this event leave its ledger too (the engine counts
    them in the encounter; the ledger is where the character's bank lives)."""
    spent = {
        pid: p["character_points_spent"] - before[pid]["character_points_spent"]
        for pid, p in state["participants"].items()
        if pid in before and p["character_points_spent"] > before[pid]["character_points_spent"]
    }
    if not spent:
        return
    places = encounter.participants.filter(key__in=list(spent), kind=Participant.Kind.CHARACTER)
    for place in places.select_related("character"):
        if place.character is None:
            continue
        entry = {
            "kind": "character_points_spent",
            "count": spent[place.key],
            "on": "initiative" if event_type == "roll_initiative" else "roll",
            "reason": f"{encounter.name}, round {state['round']}"[:200],
        }
        try:
            append_entry(place.character, entry, by=membership.user, reason=entry["reason"])
        except ValidationError as error:
            messages = " ".join(m for ms in error.message_dict.values() for m in ms)
            raise ValidationError({f"character_points.{place.key}": [f"{place.name}: {messages}"]}) from None


def record_event(
    encounter: Encounter, membership: Membership, event: Any, rng: random.Random | None = None
) -> EncounterEvent:
    """Fold one event into the encounter through the engine. Refusals change nothing."""
    if not isinstance(event, dict):
        raise ValidationError({"type": ["An event is an object with a type."]})
    with transaction.atomic():
        locked = _lock(encounter)
        if locked.status == Encounter.Status.SETUP:
            raise ValidationError({"status": ["Start the encounter first."]})
        _check_player_event(locked, membership, event)
        _check_new_event(event)
        before = len(locked.state.get("log", []))
        source = None
        if rng is None:  # the dice come from the campaign's fair stream, each draw with its proof
            gm_run = {
                key for key, side in locked.participants.values_list("key", "controlled_by") if side == "gm"
            }
            source = fairness.FairDraws(locked.campaign, random.SystemRandom(), gm_run.__contains__)
        try:
            state = engine.apply_event(locked.state, event, rng or source)
        except RuleError as error:
            raise _engine_error(error) from None
        except (TypeError, ValueError, KeyError, AttributeError):
            # Values of the wrong shape (a list where an id belongs, ...) that the engine's own
            # checks did not name: still the client's mistake, never a server error.
            raise ValidationError(
                {
                    "non_field_errors": [
                        f"The {str(event.get('type'))[:40]} event could not be read: "
                        "check the shape of its fields."
                    ]
                }
            ) from None
        stored = state["events"][-1]
        _book_character_points(locked, membership, locked.state["participants"], state, stored["type"])
        row = EncounterEvent.objects.create(
            encounter=locked,
            seq=locked.event_count + 1,
            type=stored["type"],
            payload=stored,
            recorded_by=membership.user,
        )
        locked.state = state
        locked.event_count += 1
        if state["status"] == "over":
            locked.status = Encounter.Status.OVER
        locked.save(update_fields=["state", "event_count", "status", "updated_at"])
        _log_rolls(locked, membership, before, state, source)
        live.publish_change(locked.campaign_id, live.topic_of("d6-encounter", locked.pk))
    encounter.state, encounter.event_count, encounter.status = locked.state, locked.event_count, locked.status
    return row


def replayed_state(encounter: Encounter) -> dict[str, Any]:
    """The state rebuilt from the setup and the stored events (never rolls)."""
    events = [e.payload for e in encounter.events.order_by("seq")]
    return engine.replay(initial_state(encounter), events)
