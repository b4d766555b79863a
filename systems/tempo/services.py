"""Writes of Tempo play: a roll from the character page (the campaign's dice log plus the fate point
ledger), fate points given or refreshed by the GM, and conflicts (state + append-only events). The
rules are the engine's (systems/tempo/engine: roll.py, fate.py, conflict.py); this module stores
what it returns.

Engine refusals become ValidationErrors keyed by the field the engine names; every write runs in
one transaction, so a refused request changes nothing.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from campaigns.models import Membership, Role, Roll
from campaigns.table import fairness, live, rolllog, webhooks
from characters import services as character_services
from characters.models import Character
from characters.services import violations_error
from characters.systems import RuleError
from characters.systems.base import Replay
from characters.systems.dice import ROLLER_KINDS, roll_kind, system_rng
from systems.tempo.engine import conflict as engine_conflict
from systems.tempo.engine import fate as engine_fate
from systems.tempo.engine import roll as engine_roll
from systems.tempo.engine import tables as engine_tables
from systems.tempo.engine.campaign_settings import resolved
from systems.tempo.engine.modules import get_module
from systems.tempo.models import Conflict, ConflictEvent, Participant

CONFLICT_KEY = "conflict"  # the key of a conflict roll's detail that names its conflict
ROLL_KIND = "tempo"  # campaigns.Roll.kind of a Tempo roll (3d6 + rating with bonus/penalty dice)
MAX_PURPOSE = 120
SIDE_KEYS = ("a", "b")
# Event fields the engine reads as text (names of sides, tiers, benefits, free text).
TEXT_FIELDS = ("side", "tier", "benefit", "max_level", "aspect", "terms", "reason", "goal", "note")


def campaign_settings(campaign) -> dict[str, Any]:
    """The campaign's Tempo settings merged over the engine's defaults."""
    values = {k: v for k, v in (campaign.settings or {}).items()}
    try:
        return resolved(values)
    except RuleError:
        return resolved(None)


def may_roll_for(character: Character, membership: Membership) -> bool:
    """The agent's owner (a player) or the campaign's GM rolls for an agent."""
    if membership.role == Role.GM:
        return True
    return membership.role == Role.PLAYER and character.owner_id == membership.user_id


def _purpose(result, purpose: str, reads: int | None = None) -> str:
    """The log's line for a roll; ``reads``: the rules' total when the row's own total (the dice
    roller's reading of the draw) is another."""
    text = f"{result.role}: {result.band_name}" + (f" at {reads}" if reads is not None else "")
    if purpose:
        text += f" · {purpose.strip()[:MAX_PURPOSE]}"
    return text[:200]


def _dice(count: int, what: str) -> str:
    return f"{count} {what} {'die' if count == 1 else 'dice'}"


def roll_words(roll: Roll) -> str:
    """The dice log's words for a Tempo roll (SystemApp.roll_words): the dice thrown and the
    rating added, each named, where the platform's words read "3d6 with bonus dice +8" and the 8,
    the role's rating, looked like a count of dice (issue 44, finding 12). "" for a roll without
    the engine's reading (the platform's words then)."""
    detail = roll.detail or {}
    if "band_name" not in detail or not isinstance(detail.get("rating"), int):
        return ""
    extras = []
    if detail.get("bonus_dice"):
        extras.append(_dice(detail["bonus_dice"], "bonus"))
    if detail.get("penalty_dice"):
        extras.append(_dice(detail["penalty_dice"], "penalty"))
    if detail.get("help_dice"):
        extras.append(_dice(len(detail["help_dice"]), "helper's"))
    if detail.get("keep_count") == engine_roll.DICE_KEPT:
        words = "3d6" + (" with " + " and ".join(extras) if extras else "")
    else:  # §B4's extreme situations: another count kept
        kept = detail.get("keep_count")
        words = f"{len(detail.get('faces') or [])}d6" + (
            f", {detail.get('keep')} {kept} kept" if kept else ""
        )
    words += f", rating {detail['rating']:+d}"
    if detail.get("numeric_modifier"):
        words += f", modifier {detail['numeric_modifier']:+d}"
    return words


def _record(
    membership: Membership, result, *, character=None, purpose: str = "", secret=False, conflict=None
) -> Roll:
    """One Tempo roll as a row of the campaign's dice log: the fresh faces, the kept dice, the
    total and the whole engine result (band, narrator, explanation) in ``detail``. A conflict's roll
    names its conflict there (``detail.conflict``): only who may see the conflict sees it in the log
    (hidden_conflict_rolls)."""
    data = result.as_dict()
    if conflict is not None:
        data[CONFLICT_KEY] = conflict.pk
    row = Roll.objects.create(
        campaign=membership.campaign,
        character=character,
        roller=membership.user,
        kind=ROLL_KIND,
        count=len(data["faces"]),
        modifier=data["rating"] + data["numeric_modifier"],
        faces=data["faces"] + data["help_dice"],
        kept=data["kept"],
        total=data["total"],
        purpose=_purpose(result, purpose),
        detail=data,
        secret=secret,
    )
    rolllog.append(row)  # a leaf of the campaign's roll logs (issue 48)
    return live.roll_made(row)


def fair_kind(result) -> tuple[str, int] | None:
    """The dice roller's kind and count whose draw gives a Tempo roll's fresh dice in the order the
    engine rolls them: 3d6 with its bonus or penalty dice when three dice are kept; plain d6 when
    §B4's extreme situations keep another count. The helpers' dice are no part of the draw (they
    were rolled before, in the helpers' own rolls). None if the count is past the roller's bounds."""
    if result.keep_count == engine_roll.DICE_KEPT:
        kind, count = (
            ("3d6_penalty", result.penalty_dice) if result.penalty_dice else ("3d6_bonus", result.bonus_dice)
        )
    else:
        kind, count = "d6", len(result.faces)
    bounds = ROLLER_KINDS[kind]
    return (kind, count) if bounds["min_count"] <= count <= bounds["max_count"] else None


def _record_fair(
    membership: Membership, result, *, character, purpose: str = "", secret=False, conflict=None
) -> Roll | None:
    """A roll made on the campaign's fair dice, stored as the draw of the dice roller's kind that
    gave its fresh dice, so that anyone can recompute it once the seed is revealed
    (docs/fair-dice.md); the engine's reading (help dice, keep count, band) in ``detail``, and its
    total in the purpose when the rules read the dice otherwise than the roller does. None when
    the draw is not one of the roller's (the caller stores the roll as ``_record`` does)."""
    fair = fair_kind(result)
    if fair is None:
        return None
    kind, count = fair
    data = result.as_dict()
    if conflict is not None:
        data[CONFLICT_KEY] = conflict.pk
    dice = roll_kind(Replay(result.faces), kind, count, result.rating + result.numeric_modifier)
    text = _purpose(result, purpose, result.total if dice.total != result.total else None)
    return Roll.objects.create(
        campaign=membership.campaign,
        character=character,
        roller=membership.user,
        kind=kind,
        count=count,
        modifier=dice.modifier,
        faces=list(dice.faces),
        kept=list(dice.kept or dice.faces),
        total=dice.total,
        purpose=text[:200],
        detail=data,
        secret=secret,
    )


def tempo_rolls() -> Q:
    """The dice log's rows of Tempo's rolls: the engine's reading in ``detail``, whether the row
    is stored as Tempo's own kind or as the fair draw of the roller's kind that gave its dice."""
    return Q(kind=ROLL_KIND) | Q(detail__has_key="band_name")


def hidden_conflict_rolls(user, membership: Membership) -> Q | None:
    """The rolls of conflicts this member may not see (registered in campaigns.models.HIDDEN_ROLLS):
    a conflict is the GM's and its players' (access.get_conflict_for_user answers anyone else 403),
    so its rolls in the dice log are theirs too. An observer sees no conflict's rolls."""
    hidden = _hidden_conflicts(user, membership)
    if not hidden:
        return None
    return Q(detail__has_key=CONFLICT_KEY) & Q(**{f"detail__{CONFLICT_KEY}__in": hidden})


def conflict_roll(roll) -> bool:
    """Whether a roll row is a conflict's (registered in campaigns.models.PARTIAL_ROLLS)."""
    return isinstance(roll.detail, dict) and CONFLICT_KEY in roll.detail


def hidden_conflict_topics(user, membership: Membership) -> list[str] | None:
    """The live topics of those conflicts (registered in campaigns.models.HIDDEN_TOPICS): their
    turns reach the live feed's readers as their rolls reach the log."""
    return [live.topic_of("tempo-conflict", pk) for pk in _hidden_conflicts(user, membership)] or None


def _hidden_conflicts(user, membership: Membership) -> list[int]:
    if membership.role == Role.GM:
        return []
    conflicts = Conflict.objects.filter(campaign_id=membership.campaign_id)
    if membership.role == Role.PLAYER:
        conflicts = conflicts.exclude(participants__character__owner=user)
    return list(conflicts.values_list("pk", flat=True))


MAX_MODIFIER = 20  # a sanity bound (the rules speak of +1 to +3), keeps totals in the log's columns
ASPECT_TEXT_KEYS = ("aspect", "source", "use", "reason", "benefit")


def _check_shapes(request: dict[str, Any]) -> None:
    """Names the engine looks up must be text: anything else is refused here with the field."""
    hurry = request.get("hurry")
    if hurry is not None and (
        not isinstance(hurry, dict) or not all(isinstance(v, str) for v in hurry.values())
    ):
        raise ValidationError({"hurry": ["Hurry is an object with a mode and a text."]})
    for key in ("bonuses", "penalties"):
        values = request.get(key)
        if isinstance(values, list):
            for index, value in enumerate(values):
                if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_MODIFIER:
                    raise ValidationError(
                        {f"{key}.{index}": [f"A modifier is at most {MAX_MODIFIER} in size."]}
                    )
    aspects = request.get("aspects")
    if isinstance(aspects, list):
        for index, item in enumerate(aspects):
            if isinstance(item, dict) and any(
                k in item and not isinstance(item[k], str) for k in ASPECT_TEXT_KEYS
            ):
                raise ValidationError(
                    {f"aspects.{index}": ["Name the aspect, its source and its use as text."]}
                )


def _fits_a_fair_draw(build, role: str, request: dict[str, Any], settings, instead_of) -> bool:
    """Whether the roll's fresh dice are one draw of the dice roller's kinds (fair_kind). Which
    dice a roll takes follows from the request and the agent, never from the dice, so a trial on
    throwaway dice tells before a counter is taken: a roll no fair draw gives takes none, and the
    open lane keeps no gap (issue 48, finding 1: such a roll took a counter and left it unused)."""
    try:
        trial, _ = engine_roll.roll_for_agent(
            build, role, request, system_rng(), settings=settings, instead_of=instead_of
        )
    except RuleError:
        return True  # the real roll raises the same error, inside the transaction
    return fair_kind(trial) is not None


def roll_for_character(
    membership: Membership,
    character: Character,
    role: str,
    request: dict[str, Any],
    *,
    instead_of: str | None = None,
    purpose: str = "",
    rng: random.Random | None = None,
) -> tuple[Roll, list]:
    """Roll ``role`` for an agent (tempo-flashpoints.md §B1-§B7): the roll goes into the dice log
    and its fate points (an aspect invoked, a penalty die taken from an own aspect) into the
    agent's advancement ledger, all or nothing. Returns (roll row, ledger rows)."""
    if not may_roll_for(character, membership):
        raise PermissionDenied("Only the agent's player or the game master rolls for this agent.")
    if character.system != "tempo" or character.is_draft:
        raise ValidationError({"character": ["Only a finished Tempo agent rolls here."]})
    if not isinstance(request, dict):
        raise ValidationError({"request": ["A roll request must be an object."]})
    _check_shapes(request)
    settings = campaign_settings(character.campaign)
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        draw = None
        if rng is None and _fits_a_fair_draw(locked.build, role, request, settings, instead_of):
            draw = fairness.draw(character.campaign, secret=False, announced=True, mission=None)
        try:
            result, entries = engine_roll.roll_for_agent(
                locked.build,
                role,
                request,
                draw.rng if draw else rng or system_rng(),
                settings=settings,
                instead_of=instead_of,
            )
        except RuleError as error:
            raise violations_error(error.violations) from None
        row = _record_fair(membership, result, character=locked, purpose=purpose) if draw else None
        if row is not None and draw is not None:
            rolllog.append(row, fairness.prove(row, draw))
            live.roll_made(row)  # after its proof, as every fair roll is published
        else:
            row = _record(membership, result, character=locked, purpose=purpose)
        webhooks.after_commit_roll(row)  # posted if an observer sees it (a chat hook's rules)
        ledger = [
            character_services.append_entry(
                locked, {**entry, "roll": row.pk}, membership.user, reason=f"Roll {row.pk}: {result.role}"
            )
            for entry in entries
        ]
    character.build, character.revision = locked.build, locked.revision
    return row, ledger


def gain_fate_point(membership: Membership, character: Character, reason: str, note: str = ""):
    """The GM gives an agent a fate point for a complication or an accepted offer (§B7 gaining)."""
    if membership.role != Role.GM:
        raise PermissionDenied("Only the game master hands out fate points.")
    entry = {"kind": "fate_point_gained", "reason": reason}
    if note:
        entry["note"] = note.strip()[:MAX_PURPOSE]
    return character_services.append_entry(character, entry, membership.user, reason="Given by the GM")


@dataclass(frozen=True)
class FateRefreshed:
    """One agent's fate points around a refresh; ``entry`` is None when the refresh gave nothing."""

    character: Character
    before: int
    after: int
    entry: Any = None


@dataclass(frozen=True)
class FateRefresh:
    fate_refresh: int
    fate_refresh_mode: str
    changes: list[FateRefreshed]
    unchanged: list[FateRefreshed]

    @property
    def rule(self) -> str:
        return refresh_rule({"fate_refresh": self.fate_refresh, "fate_refresh_mode": self.fate_refresh_mode})


def refresh_rule(settings: dict[str, Any]) -> str:
    """The campaign's refresh in words: "top up to 3" or "add 2"."""
    verb = "add" if settings["fate_refresh_mode"] == "add" else "top up to"
    return f"{verb} {settings['fate_refresh']}"


def refresh_fate_points(membership: Membership) -> FateRefresh:
    """The GM refreshes the fate points of every active agent of a Tempo campaign, by the campaign's
    refresh settings (rules README ruling 7; tempo-flashpoints.md §B7 "Starting fate points and
    refresh", §E12: the texts give no refresh, so it is a campaign setting and may be 0).

    All agents' rows are locked first (in id order, so two refreshes cannot deadlock) and every
    fate_refresh entry goes through the ledger in the same transaction: all agents or none. An agent
    whose refresh gives nothing (at or above the level when topping up) gets no entry."""
    if membership.role != Role.GM:
        raise PermissionDenied("Only the game master refreshes fate points.")
    campaign = membership.campaign
    if campaign.system != "tempo":
        raise ValidationError({"campaign": ["Fate point refresh belongs to Tempo campaigns."]})
    settings = campaign_settings(campaign)
    changes, unchanged = [], []
    reason = f"Fate point refresh: {refresh_rule(settings)}"
    with transaction.atomic():
        agents = list(
            Character.objects.select_for_update()
            .filter(campaign=campaign, system="tempo", status=Character.Status.ACTIVE)
            .order_by("pk")
        )
        for agent in agents:
            before = engine_fate.balance(agent.build)
            entry = engine_fate.refresh_entry(agent.build, settings)
            if entry["amount"] <= 0:
                unchanged.append(FateRefreshed(agent, before, before))
                continue
            row = character_services.append_entry(agent, entry, membership.user, reason=reason)
            changes.append(FateRefreshed(agent, before, engine_fate.balance(agent.build), row))
    return FateRefresh(settings["fate_refresh"], settings["fate_refresh_mode"], changes, unchanged)


# -- conflicts -----------------------------------------------------------------------------------
def _text(value: Any, field: str, what: str, limit: int = 120) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ValidationError({field: [f"Give {what} (at most {limit} characters)."]})
    return value.strip()


def _names(value: Any, field: str) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = [part for part in value.replace("\n", ",").split(",")]
    if not isinstance(value, list) or len(value) > 20:
        raise ValidationError({field: ["Give at most 20 names or aspects."]})
    out = []
    for item in value:
        if not isinstance(item, str) or len(item) > 120:
            raise ValidationError({field: ["Each entry is text of at most 120 characters."]})
        if item.strip():
            out.append(item.strip())
    return out


def create_conflict(membership: Membership, data: dict[str, Any]) -> Conflict:
    """A new conflict at Even (§B8). ``data``: {"title", "scene_aspects": [str], "sides": [
    {"name", "controlled_by": "player"|"gm", "characters": [ids], "npcs": [names],
    "superiority": int, "max_level": "edge"|"advantage"|"decisive", "aspects": [str]}, x2]}."""
    if membership.role != Role.GM:
        raise PermissionDenied("Only the game master starts a conflict.")
    campaign = membership.campaign
    if campaign.system != "tempo":
        raise ValidationError({"campaign": ["Conflicts belong to Tempo campaigns."]})
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": ["A conflict must be an object."]})
    title = _text(data.get("title"), "title", "a title")
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise ValidationError({"sides": ["A conflict has exactly two sides."]})
    engine_sides, people = [], []
    for index, (key, side) in enumerate(zip(SIDE_KEYS, sides, strict=True)):
        where = f"sides.{index}"
        ids = side.get("characters") or []
        if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise ValidationError({f"{where}.characters": ["Characters are given by their ids."]})
        found = {
            c.pk: c
            for c in Character.objects.filter(
                campaign=campaign, pk__in=[i for i in ids if 0 < i < 2**63], system="tempo"
            ).exclude(status=Character.Status.DRAFT)
        }
        missing = [i for i in ids if i not in found]
        if missing:
            raise ValidationError(
                {f"{where}.characters": [f"No finished agent of this campaign has the id {missing[0]}."]}
            )
        npcs = _names(side.get("npcs"), f"{where}.npcs")
        if not found and not npcs:
            raise ValidationError({f"{where}": ["Each side needs at least one character or NPC."]})
        people.append((key, [found[i] for i in dict.fromkeys(ids)], npcs))
        engine_sides.append(
            {
                "key": key,
                "name": side.get("name") or ", ".join([found[i].name for i in ids] + npcs)[:120],
                "controlled_by": side.get("controlled_by", "player" if found else "gm"),
                "superiority": side.get("superiority", 0),
                "max_level": side.get("max_level", "decisive"),
                "aspects": _names(side.get("aspects"), f"{where}.aspects"),
            }
        )
    taken = [c.pk for _, chars, _ in people for c in chars]
    if len(taken) != len(set(taken)):
        raise ValidationError({"sides": ["A character stands on one side only."]})
    try:
        state = engine_conflict.new_conflict(
            engine_sides,
            campaign_settings(campaign),
            module=campaign.module or "flashpoints",
            scene_aspects=_names(data.get("scene_aspects"), "scene_aspects"),
        )
    except RuleError as error:
        raise violations_error(error.violations) from None
    with transaction.atomic():
        conflict = Conflict.objects.create(
            campaign=campaign,
            title=title,
            initial_state=state,
            state=copy.deepcopy(state),
            created_by=membership.user,
        )
        Participant.objects.bulk_create(
            [Participant(conflict=conflict, side=key, character=c) for key, chars, _ in people for c in chars]
            + [Participant(conflict=conflict, side=key, npc_name=n) for key, _, npcs in people for n in npcs]
        )
        # The conflict's own dice scope: its secret key's commitment exists (and is shown on the
        # conflict's page) before any of its rolls.
        fairness.open_scope(campaign, conflict.dice_scope)
    return conflict


def sides_of(conflict: Conflict, user) -> set[str]:
    """The sides on which the user has a character."""
    return {
        p.side
        for p in conflict.participants.all()
        if p.character_id is not None and p.character.owner_id == user.id
    }


# Who may send which event: the GM any; a player only these, for a side of theirs (``field``).
PLAYER_EVENTS = {"spend": "side", "concede": "side", "refuse_concession": "side", "accept_concession": None}


def _check_may(conflict: Conflict, membership: Membership, event: dict) -> None:
    if membership.role == Role.GM:
        return
    kind = event.get("type")
    mine = sides_of(conflict, membership.user) if membership.role == Role.PLAYER else set()
    if not mine:
        raise PermissionDenied("Only the game master and the players in this conflict act on it.")
    if kind not in PLAYER_EVENTS:
        raise PermissionDenied("Only the game master can do this in a conflict.")
    field = PLAYER_EVENTS[kind]
    if field is not None:
        side = event.get(field)
        if side in conflict.state.get("sides", {}) and side not in mine:
            raise PermissionDenied("You act only for your own side.")
    elif kind == "accept_concession":
        offer = conflict.state.get("concession") or {}
        if offer.get("side") in mine and len(mine) == 1:
            raise PermissionDenied("The other side accepts a concession, not the side that offered it.")


def _roll_side(membership: Membership, conflict: Conflict, key: str, spec: Any, rng, settings) -> dict:
    """Roll one side's roll of a round: a participant character's role, or a GM rating. Without a
    scripted ``rng`` the dice come from the campaign's fair stream, one draw of the roller's kinds
    per side (3d6 with its bonus or penalty dice: a conflict roll has no help or lost dice), so the
    row carries a proof; a GM side's secret roll takes the secret lane."""
    where = f"sides.{key}"
    if not isinstance(spec, dict):
        raise ValidationError({where: ["Say how this side rolls."]})
    request = {k: spec[k] for k in ("bonus_dice", "penalty_dice", "bonuses", "penalties") if k in spec}
    side = conflict.state["sides"][key]
    secret = side["controlled_by"] == "gm" and not settings["reveal_npc_rolls"]
    draw = None
    if rng is None:
        draw = fairness.draw(
            conflict.campaign, secret=secret, announced=True, mission=None, scope=conflict.dice_scope
        )
        rng = draw.rng
    character_id = spec.get("character")
    try:
        if character_id not in (None, ""):
            participant = next(
                (
                    p
                    for p in conflict.participants.all()
                    if p.side == key
                    and p.character_id is not None
                    and str(p.character_id) == str(character_id)
                ),
                None,
            )
            if participant is None:
                raise ValidationError({f"{where}.character": ["That character is not on this side."]})
            agent = participant.character
            result, _ = engine_roll.roll_for_agent(agent.build, spec.get("role", ""), request, rng, settings)
            character = agent
        else:
            # no silent 0: a side rolled at a rating names it (the GM's form asks for it)
            rating = spec.get("rating")
            if isinstance(rating, bool) or not isinstance(rating, int):
                raise ValidationError(
                    {
                        f"{where}.rating": [
                            f"Give the rating {side['name']} rolls with, "
                            "or a character of the side who rolls."
                        ]
                    }
                )
            result = engine_roll.roll(
                rng,
                {**request, "rating": rating, "role": side["name"]},
                settings,
                conflict.state.get("module"),
            )
            character = None
    except RuleError as error:
        raise violations_error(error.violations, prefix=f"{where}.") from None
    fields = {"character": character, "purpose": conflict.title, "secret": secret, "conflict": conflict}
    row = _record_fair(membership, result, **fields) if draw is not None else None
    if row is not None and draw is not None:
        rolllog.append(row, fairness.prove(row, draw))
        live.roll_made(row)
    else:
        row = _record(membership, result, **fields)
    return {**result.as_dict(), "log_roll": row.pk}


def add_event(
    membership: Membership, conflict: Conflict, event: Any, rng: random.Random | None = None
) -> ConflictEvent:
    """Fold one event into a conflict (§B8-§B10) and log it. A "roll" event names how each side
    rolls ({"type": "roll", "sides": {"a": {...}, "b": {...}}}); the server rolls the dice, writes
    them to the dice log (GM sides secret unless the campaign reveals NPC rolls) and hands the
    results to the engine."""
    if not isinstance(event, dict) or event.get("type") not in engine_conflict.EVENT_TYPES:
        raise ValidationError(
            {"type": [f"An event's type is one of: {', '.join(engine_conflict.EVENT_TYPES)}."]}
        )
    for key in TEXT_FIELDS:
        if key in event and not isinstance(event[key], str):
            raise ValidationError({key: [f"{key.replace('_', ' ').capitalize()} must be text."]})
    if "ends_conflict" in event and not isinstance(event["ends_conflict"], bool):
        raise ValidationError({"ends_conflict": ["Ends conflict is true or false."]})
    with transaction.atomic():
        locked = Conflict.objects.select_for_update().get(pk=conflict.pk)
        _check_may(locked, membership, event)
        settings = campaign_settings(locked.campaign)
        folded = {k: v for k, v in event.items() if k not in ("sides", "results")}
        if event["type"] == "roll":
            specs = event.get("sides")
            if locked.state.get("status") != "running":
                raise ValidationError({"status": ["This conflict is over."]})
            if not isinstance(specs, dict) or set(specs) != set(locked.state["order"]):
                raise ValidationError({"sides": ["Say how each of the two sides rolls."]})
            folded["results"] = {
                key: _roll_side(membership, locked, key, specs[key], rng, settings)
                for key in locked.state["order"]
            }
        try:
            state = engine_conflict.apply_event(locked.state, folded)
        except RuleError as error:
            raise violations_error(error.violations) from None
        record = state["log"][-1]
        seq = len(locked.state["log"]) + 1
        row = ConflictEvent.objects.create(
            conflict=locked,
            seq=seq,
            kind=event["type"],
            payload=folded,
            summary=summary_of(state, record)[:300],
            recorded_by=membership.user,
        )
        locked.state = state
        locked.status = state["status"]
        locked.save(update_fields=["state", "status", "updated_at"])
        if locked.status == Conflict.Status.OVER:  # no roll is made in it again
            fairness.close_scope(locked.campaign, locked.dice_scope)
        live.publish_change(locked.campaign_id, live.topic_of("tempo-conflict", locked.pk))
    conflict.state, conflict.status = locked.state, locked.status
    return row


def reader_summary(event, state: dict) -> str:
    """The event's one line as the reader's view of the state tells it (access.view_of): the
    stored summary is the GM's, and a round's margin is not the players' while a side is hidden
    from them (docs/rulings-tempo.md)."""
    log = state.get("log", [])
    record = log[event.seq - 1] if 0 < event.seq <= len(log) else None
    return summary_of(state, record)[:300] if record else event.summary


def _spend_words(name: str, record: dict) -> str:
    """ "The team spends Edge to put a new aspect on the scene: “Forged pass”." The benefit in the
    words of its table (it read "spends edge for add scene aspect", and named no aspect)."""
    tier, benefit = record["tier"], record["benefit"]
    what = engine_tables.SPEND_BENEFITS.get(tier, {}).get(benefit, benefit.replace("_", " "))
    what = what.rstrip(".")
    what = what[:1].lower() + what[1:]
    aspect = record.get("aspect")
    tail = f": “{aspect}”" if aspect else ""
    return f"{name} spends {engine_tables.TEMPO_NAMES.get(tier, tier)} to {what}{tail}."


def summary_of(state: dict, record: dict) -> str:
    """A one-line account of a log record, naming sides but never a GM side's raw roll."""
    names = {key: side["name"] for key, side in state["sides"].items()}
    kind = record.get("type")
    if kind == "roll":
        return f"Round {record['round']}: {record['summary']}"
    if kind == "spend":
        return _spend_words(names[record["side"]], record)
    if kind == "concede":
        return f"An offer to concede from {names[record['side']]}: {record['terms']}"
    if kind == "accept_concession":
        return f"The concession is accepted; {names[record['winner']]} wins."
    if kind == "refuse_concession":
        return f"{names[record['side']]} refuses the concession and gives up its tempo."
    if kind == "veto_concession":
        return f"The GM vetoes the concession: {record['reason']}"
    if kind == "set_superiority":
        return f"{names[record['side']]} superiority set to {record['values']}."
    if kind == "set_cap":
        return f"{names[record['side']]} can rise at most to {record['max_level']}."
    if kind == "end":
        return f"The GM ends the conflict: {record['reason']}"
    return kind or ""


def module_of(campaign):
    return get_module(campaign.module or "flashpoints")
