"""Writes to characters: drafts, finalizing, and the advancement ledger.

Generic for every game system: the rules live in the engines (``characters.systems``); this module
stores what they return. A character's build changes only here, always through an engine function,
and every change bumps its revision. Engine refusals (RuleError) become Django ValidationErrors
keyed by the field the engine names, so forms and the API can show each message next to its field.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, NoReturn

from django.core.exceptions import ValidationError
from django.db import transaction

from characters import signals
from characters.models import AdvancementEntry, Character
from characters.systems import Engine, RuleError, RuleViolation, UnknownSystem, get_system
from characters.systems.base import fold_ledger

#: Choices only the server sets: a rolled record comes from our dice, typed-in numbers from the
#: wizard's own checked form, settings from the campaign, a ninja player's ranking record from
#: their earlier ninja (it sets the creation budget, so a player must not send their own).
SERVER_KEYS = ("ability_roll", "manual_values", "settings", "record")
#: Choices only the game master sets (rulings that confirm or overrule a check).
GM_KEYS = ("cm_approvals",)
#: A draft's choices are small; anything bigger is a mistake or abuse.
MAX_CHOICES_CHARS = 50_000
DEFAULT_NAME = "New character"
NON_FIELD = "non_field_errors"


def violations_error(violations: list[RuleViolation], prefix: str = "") -> ValidationError:
    """The engine's violations as one ValidationError keyed by field (in the engine's words)."""
    errors: dict[str, list[str]] = {}
    for violation in violations:
        field = f"{prefix}{violation.field}" if violation.field else (prefix.rstrip(".") or NON_FIELD)
        errors.setdefault(field, []).append(violation.message)
    return ValidationError(errors or {NON_FIELD: ["The rules refused this."]})


def system_of(character_or_key) -> Engine:
    """The engine of a character (or of a system key); every call to an engine goes through the
    ``Engine`` contract it returns."""
    key = character_or_key if isinstance(character_or_key, str) else character_or_key.system
    try:
        return get_system(key)
    except UnknownSystem:
        raise ValidationError({"system": [f"There is no game system called {key!r}."]}) from None


def _draft_name(choices: dict, fallback: str = DEFAULT_NAME) -> str:
    name = choices.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()[:120]
    return fallback


def clean_choices(choices: Any, existing: dict | None = None, is_gm: bool = False) -> dict:
    """Incoming choices merged over the stored ones: server-owned keys are never taken from the
    client, and only the GM may change the GM's rulings."""
    if not isinstance(choices, dict):
        raise ValidationError({"choices": ["Choices must be an object."]})
    try:
        size = len(json.dumps(choices))
    except (TypeError, ValueError):
        raise ValidationError({"choices": ["Choices must be plain JSON."]}) from None
    if size > MAX_CHOICES_CHARS:
        raise ValidationError({"choices": [f"Choices are limited to {MAX_CHOICES_CHARS} characters."]})
    existing = existing or {}
    merged = {**existing, **choices}
    protected = SERVER_KEYS if is_gm else SERVER_KEYS + GM_KEYS
    for key in protected:
        if key in existing:
            merged[key] = copy.deepcopy(existing[key])
        else:
            merged.pop(key, None)
    return merged


def with_defaults(character: Character, initial: dict, campaign_field: str | None = None) -> dict:
    """A builder form's initial values with the Player field (and ``campaign_field``, where a system's
    sheet prints the campaign) filled in from the owner and the campaign while the draft has none,
    so a sheet never prints "Player —" because nobody typed a name (issue 30)."""
    initial = dict(initial)
    if not str(initial.get("player") or "").strip():
        owner = character.owner
        initial["player"] = owner.get_full_name().strip() or owner.get_username()
    if campaign_field and not str(initial.get(campaign_field) or "").strip():
        initial[campaign_field] = character.campaign.name
    return initial


def create_draft(
    campaign, owner, system: str | None = None, module: str | None = None, choices: Any = None, is_gm=False
) -> Character:
    """A draft character holding the wizard's choices so far (validated only when finalized)."""
    system = system or campaign.system
    if system != campaign.system:
        raise ValidationError({"system": [f"This campaign plays {campaign.system}, not {system}."]})
    system_of(system)
    choices = clean_choices(choices if choices is not None else {}, is_gm=is_gm)
    return Character.objects.create(
        campaign=campaign,
        owner=owner,
        system=system,
        module=campaign.module if module is None else module,
        name=_draft_name(choices),
        status=Character.Status.DRAFT,
        choices=choices,
    )


def _require_draft(character: Character) -> None:
    if not character.is_draft:
        raise ValidationError(
            {"status": ["This character is finalized; it changes only through its advancement ledger."]}
        )


def update_draft(character: Character, choices: Any, is_gm: bool = False) -> Character:
    """Merge new choices (top-level keys) into a draft and save it."""
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        _require_draft(locked)
        locked.choices = clean_choices(choices, locked.choices, is_gm=is_gm)
        locked.name = _draft_name(locked.choices, locked.name)
        locked.save(update_fields=["choices", "name", "updated_at"])
    return locked


def set_server_choices(character: Character, **values: Any) -> Character:
    """Store choices only the server may make (e.g. the ability roll record); None removes one."""
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=character.pk)
        _require_draft(locked)
        for key, value in values.items():
            if value is None:
                locked.choices.pop(key, None)
            else:
                locked.choices[key] = value
        locked.save(update_fields=["choices", "updated_at"])
    return locked


def pending_confirmations(system: Engine, build: dict, settings: dict | None) -> list[RuleViolation]:
    """What still waits for the game master's confirmation (none in systems without a review step)."""
    return list(system.review(build, settings=settings).pending)


def preview_build(character: Character, rng: random.Random | None = None) -> dict:
    """The build the draft's choices would make, without saving; ValidationError naming fields."""
    system = system_of(character)
    settings = character.campaign.settings or None
    try:
        build = system.new_build(
            copy.deepcopy(character.choices), rng or random.SystemRandom(), settings=settings
        )
    except RuleError as error:
        raise violations_error(error.violations) from None
    problems = system.validate(build, settings=settings)
    if problems:
        raise violations_error(problems)
    return build


def finalize(character: Character, is_gm: bool = False, rng: random.Random | None = None) -> Character:
    """Lock the draft: the engine builds and validates it; revision 1 is the creation build.

    Confirmations the rules leave to the game master (e.g. "these skills suit the background")
    block a player; the GM finalizing a draft gives them, and they are recorded in the build.
    """
    with transaction.atomic():
        locked = (
            Character.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=character.pk)
        )
        _require_draft(locked)
        system = system_of(locked)
        settings = locked.campaign.settings or None
        build = preview_build(locked, rng)
        pending = pending_confirmations(system, build, settings)
        if pending and not is_gm:
            raise ValidationError(
                {v.field or NON_FIELD: [f"Waiting for the game master: {v.message}"] for v in pending}
            )
        if pending:
            approvals = list(build.get("cm_approvals") or [])
            approvals += [v.field for v in pending if v.field not in approvals]
            build["cm_approvals"] = approvals
            problems = system.validate(build, settings=settings)
            if problems:
                raise violations_error(problems)
        locked.creation_build = build
        locked.build = copy.deepcopy(build)
        locked.status = Character.Status.ACTIVE
        locked.revision = 1
        locked.name = _draft_name(build, locked.name)
        locked.save()
        signals.finalized.send(sender=Character, character=locked)
    return locked


# -- the ledger -------------------------------------------------------------------------------------


def _no_longer_fits(entry_id: str, entry: dict, error: RuleError) -> NoReturn:
    reasons = " ".join(v.message for v in error.violations)
    message = f"Entry {entry_id} ({entry.get('kind')}) no longer fits: {reasons}"
    raise RuleError(RuleViolation(f"ledger.{entry_id}", message)) from error


def _fold(system: Engine, creation_build: dict, entries: list[dict]) -> dict:
    """creation build + every entry in order, skipping reversals and the entries they undo (the
    database already refused malformed reversals, so they are not checked again here)."""
    undone = {str(e.get("reverses")) for e in entries if e.get("kind") == AdvancementEntry.REVERSAL}
    return fold_ledger(creation_build, entries, system.apply, undone, _no_longer_fits)


def replay(character: Character) -> dict:
    """The build the ledger gives: the creation build with every entry folded in order."""
    entries = [e.as_engine_entry() for e in character.entries.order_by("id")]
    return _fold(system_of(character), character.creation_build, entries)


def _lock_active(character: Character) -> Character:
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if locked.is_draft:
        raise ValidationError({"status": ["A draft has no ledger yet; finalize it first."]})
    return locked


def _refresh(character: Character, locked: Character) -> None:
    character.build, character.revision, character.status = locked.build, locked.revision, locked.status


def status_from_build(system: Engine, build: dict, current: str) -> str:
    """The character's status once the ledger has given ``build``: dead when the engine says the
    build is dead (e.g. a ninja after a failed mission), back to active when a revert brings a dead
    character back to life; otherwise unchanged. Systems whose builds record no death (``is_dead``
    answers None) never change it."""
    dead = system.is_dead(build)
    if dead is None:
        return current
    if dead:
        return Character.Status.DEAD
    if current == Character.Status.DEAD:
        return Character.Status.ACTIVE
    return current


def _store_build(locked: Character, system: Engine, build: dict) -> None:
    """Save the ledger's new build with its revision and the status it implies (one transaction)."""
    locked.build = build
    locked.status = status_from_build(system, build, locked.status)
    locked.save(update_fields=["build", "revision", "status", "updated_at"])


def append_entry(character: Character, entry: dict, by, mission=None, reason: str = "") -> AdvancementEntry:
    """Fold one ledger entry ({"kind": ..., payload...}) into the build through the engine."""
    if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
        raise ValidationError({"kind": ["A ledger entry needs a kind."]})
    kind = entry["kind"]
    payload = {k: v for k, v in entry.items() if k not in ("kind", "id")}
    system = system_of(character)
    if kind == AdvancementEntry.REVERSAL:
        raise ValidationError({"kind": ["Use revert to reverse an entry."]})
    kinds = tuple(system.entry_kinds)
    if kinds and kind not in kinds:
        raise ValidationError({"kind": [f"{system.label} has no ledger entry of kind {kind!r}."]})
    if mission is not None and mission.campaign_id != character.campaign_id:
        raise ValidationError({"mission": ["That mission belongs to another campaign."]})
    with transaction.atomic():
        locked = _lock_active(character)
        try:
            new_build = system.apply(locked.build, {**payload, "kind": kind})
        except RuleError as error:
            raise violations_error(error.violations) from None
        locked.revision += 1
        row = AdvancementEntry.objects.create(
            character=locked,
            kind=kind,
            payload=payload,
            reason=(reason or "")[:500],
            mission=mission,
            recorded_by=by,
            revision_after=locked.revision,
        )
        _store_build(locked, system, new_build)
    _refresh(character, locked)
    return row


def revert_entry(entry: AdvancementEntry, by, reason: str) -> AdvancementEntry:
    """Undo an entry with a new reversing entry; the build is the ledger replayed without it."""
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError({"reason": ["Say why this entry is reverted."]})
    if entry.kind == AdvancementEntry.REVERSAL:
        raise ValidationError({"entry": ["A reversal cannot be reversed; record the entry again instead."]})
    character = entry.character
    system = system_of(character)
    with transaction.atomic():
        locked = _lock_active(character)
        if AdvancementEntry.objects.filter(reverses=entry).exists():
            raise ValidationError({"entry": ["This entry was already reverted."]})
        entries = [e.as_engine_entry() for e in locked.entries.order_by("id")]
        entries.append({"kind": AdvancementEntry.REVERSAL, "id": "new", "reverses": entry.pk})
        try:
            new_build = _fold(system, locked.creation_build, entries)
        except RuleError as error:
            raise violations_error(error.violations) from None
        locked.revision += 1
        row = AdvancementEntry.objects.create(
            character=locked,
            kind=AdvancementEntry.REVERSAL,
            reverses=entry,
            reason=reason.strip()[:500],
            mission=entry.mission,
            recorded_by=by,
            revision_after=locked.revision,
        )
        _store_build(locked, system, new_build)
    _refresh(character, locked)
    return row
