"""Rolls from the character page: every ability, skill, talent, aspect and die code a system
declares (Engine.rolls, characters/systems/base.py RollSpec) is a button there, and this module
makes the roll it names.

The system says which dice and what they mean (``plan_roll``, ``read_roll``); here the dice come
from the campaign's fair-dice stream through ``rolling.record_roll`` (or are entered by hand
through ``rolling.enter_roll_by_hand``), the roll is tied to the character and to the play under
way (SystemApp.roll_context) and any ledger entries the rules attach to the roll (a fate point
spent on an aspect) are written with it, all or nothing. A roll the rules make the game master's
(RollPlan.secret) is made as a secret roll: the player sees only that it was made.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from campaigns.models import Membership, Roll
from campaigns.table import rolling
from campaigns.table.api_rolls import RollSerializer
from characters import access, registry
from characters import services as character_services
from characters.models import Character
from characters.rolls import may_roll, roll_specs
from characters.systems import RuleError
from characters.systems.base import find_roll

#: The key of ``Roll.detail`` that holds a sheet roll's reading.
SHEET_KEY = "sheet_roll"
MAX_HAND_FACES = 60
#: A character's JSON that making a roll never reads (the draft's choices, the build it was created
#: with): left unread by click-to-roll's queries.
UNREAD = ("creation_build", "choices")


def _context(character: Character) -> registry.RollContext | None:
    app = registry.get(character.system)
    return app.roll_context_of(character) if app is not None else None


def _faces(value: Any) -> list[int] | None:
    """Faces typed by hand: a list of whole numbers, or text such as "3 5 6" / "3, 5, 6"."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        try:
            value = [int(part) for part in parts]
        except ValueError:
            raise ValidationError({"faces": "Give the faces as whole numbers, e.g. 3 5 6."}) from None
    if (
        not isinstance(value, list)
        or len(value) > MAX_HAND_FACES
        or not all(isinstance(f, int) and not isinstance(f, bool) for f in value)
    ):
        raise ValidationError({"faces": f"Give at most {MAX_HAND_FACES} faces, each a whole number."})
    return value


def roll_from_sheet(
    membership: Membership,
    character: Character,
    key: Any,
    modifiers: Any = None,
    *,
    faces: Any = None,
    rng: random.Random | None = None,
    locked: bool = False,
) -> Roll:
    """Make the roll ``key`` of ``character`` (on fair dice, or with ``faces`` rolled at the table)
    and log it. ValidationError naming the field, or PermissionDenied; nothing is logged then.
    ``locked``: ``character`` is the row as locked in the caller's transaction, its build read (not
    read again; the caller's transaction holds the roll whole)."""
    if not may_roll(character, membership):
        if character.is_draft:
            raise ValidationError({"character": f"{character.name} is a draft: finish the character first."})
        raise PermissionDenied("Only the character's player or the game master rolls for this character.")
    given = _faces(faces)
    if not isinstance(key, str) or not key:
        raise ValidationError(
            {"spec": "Name the roll to make (its key, e.g. one listed for this character)."}
        )
    system = character_services.system_of(character)
    settings = character.campaign.settings
    with transaction.atomic(savepoint=not locked):
        # The build alone of the JSON: the draft's choices and the creation build are not read
        # (three JSON documents decoded on every roll were a tenth of the request's time).
        if not locked:
            character = Character.objects.select_for_update().defer(*UNREAD).get(pk=character.pk)
        build = character.build
        try:
            specs = system.rolls(build, settings)  # once: the plan and the reading take them
            plan = system.plan_roll(build, key, modifiers, settings, specs=specs)
            spec = find_roll(specs, key)
        except RuleError as error:
            raise character_services.violations_error(error.violations) from None
        if given is not None and plan.secret and not membership.is_gm:
            raise ValidationError({"faces": rolling.SECRET_BY_HAND})
        context = _context(character)
        ledger: list[dict[str, Any]] = []

        def detail(dice) -> dict[str, Any]:
            try:
                reading = system.read_roll(build, key, modifiers, dice, settings, specs=specs)
            except RuleError as error:
                raise character_services.violations_error(error.violations) from None
            ledger.extend(reading.pop("ledger", []) or [])
            out: dict[str, Any] = {
                **reading,
                SHEET_KEY: {"key": key, "name": spec.name, "group": spec.group, "value": spec.value},
            }
            if context is not None:
                out["during"] = {"title": context.title, "url": context.url}
                out.update(context.detail or {})
            return out

        fields: dict[str, Any] = {
            "count": plan.count,
            "modifier": plan.modifier,
            "purpose": plan.purpose[:200],
            "secret_by_rule": plan.secret,
            "mission": context.mission if context is not None else None,
            "scope": context.dice_scope if context is not None else "",
            "character": character,
            "detail": detail,
        }
        if given is not None:
            roll = rolling.enter_roll_by_hand(membership, kind=plan.kind, faces=given, **fields)
        else:
            # this transaction holds the roll whole (nothing here goes on after a failed roll)
            roll = rolling.record_roll(membership, kind=plan.kind, rng=rng, savepoint=False, **fields)
        for entry in ledger:
            character_services.append_entry(
                character, {**entry, "roll": roll.pk}, membership.user, reason=f"Roll {roll.pk}: {spec.name}"
            )
    return roll


#: The htmx event a roll from the character page's popover fires (``hx-trigger="sheet-rolled from:body"``).
ROLLED_EVENT = "sheet-rolled"


def _sheet_membership(
    request, pk, defer: tuple[str, ...] = (), lock: bool = False
) -> tuple[Character, Membership]:
    character, membership = access.get_character_for_user(request.user, pk, defer=defer, lock=lock)
    if membership is None:  # pragma: no cover - get_character_for_user answers 404 first
        raise PermissionDenied("Only members of the campaign roll here.")
    return character, membership


def _modifiers(post) -> dict[str, str]:
    return {name[4:]: value for name, value in post.items() if name.startswith("mod-") and value != ""}


def _outcome(roll: Roll, membership: Membership) -> str:
    """The roll as one line for the one who made it (a secret roll's result only for the GM)."""
    if roll.sealed_for(membership):
        return "Rolled in secret: the game master has the result."
    reading = (roll.detail or {}).get("summary") or f"{roll.total}"
    by_hand = (
        " (entered by hand, not verifiable)" if getattr(roll, "proof", None) and roll.proof.by_hand else ""
    )
    return f"{roll.purpose}: {' '.join(str(f) for f in roll.faces)} → {reading}{by_hand}"


def anchor_of(key) -> str:
    """The id of a roll's popover on the character page (its options and its result inside it)."""
    return "roll-" + hashlib.sha256(str(key).encode()).hexdigest()[:10]


def _fresh_options(character: Character, membership: Membership, request) -> str:
    """Every roll popover's title and options drawn again from the sheet as the roll left it, each
    swapped into its popover out of band: a fate point spent no longer reads "1 fate point to
    spend" and its Invoke is offered no more until the page is reloaded."""
    return "".join(
        render_to_string(
            template,
            {"spec": spec, "anchor": anchor_of(key), "character": character, "oob": True},
            request=request,
        )
        for key, spec in roll_specs(character, membership).items()
        for template in ("campaigns/_sheet_roll_title.html", "campaigns/_sheet_roll_options.html")
    )


@login_required
@require_POST
def roll_page(request, pk):
    """The popover's form: make the roll, then the character page again (htmx: the result line)."""
    character = None
    try:
        with transaction.atomic():
            # The access check reads the character once, locked for the roll, with its build and
            # none of its other JSON (the draft's choices, the creation build).
            character, membership = _sheet_membership(request, pk, defer=UNREAD, lock=True)
            revision = character.revision  # the roll's ledger entries, if any, move it on
            roll = roll_from_sheet(
                membership,
                character,
                request.POST.get("spec"),
                _modifiers(request.POST),
                faces=request.POST.get("faces"),
                locked=True,
            )
    except (ValidationError, PermissionDenied) as error:
        if character is None:  # pragma: no cover - the access check answers 404 first
            raise
        if isinstance(error, PermissionDenied):
            problems = [str(error)]
            code = 403
        else:
            problems = [f"{message}" for messages_ in error.message_dict.values() for message in messages_]
            code = 400
        if request.htmx:
            return render(request, "campaigns/_sheet_roll_result.html", {"problems": problems}, status=code)
        for problem in problems:
            messages.error(request, problem)
        return redirect("character-detail", character.pk)
    line = _outcome(roll, membership)
    if request.htmx:
        # a roll that wrote the ledger (a fate point spent or earned) changed what the page shows,
        # its popovers' choices included: say so, with the way to the page as it is now. The roll's
        # character is the row the roll locked, its ledger entries folded in (not read again).
        changed = roll.character.revision if roll.character is not None else revision
        response = render(
            request,
            "campaigns/_sheet_roll_result.html",
            {
                "line": line,
                "roll": roll,
                "campaign": character.campaign,
                "character": character,
                "sheet_changed": changed != revision,
            },
        )
        if changed != revision:
            response.write(_fresh_options(roll.character or character, membership, request))
        # The parts of the page a roll changes (a system's roll panel with its recent rolls and fate
        # points, say) listen for this event and fetch themselves again: no reload of the page.
        response["HX-Trigger"] = ROLLED_EVENT
        return response
    messages.success(request, line)
    return redirect("character-detail", character.pk)


class SheetRollRequest(serializers.Serializer):
    spec = serializers.CharField(max_length=120, help_text="The roll's key, as GET lists them.")
    modifiers = serializers.DictField(required=False, default=dict, help_text="The roll's options by name.")
    faces = serializers.ListField(
        child=serializers.IntegerField(min_value=-1, max_value=10),
        required=False,
        max_length=MAX_HAND_FACES,
        help_text="Dice rolled at the table, entered by hand (marked so; not verifiable).",
    )


@extend_schema(
    request=SheetRollRequest,
    responses={
        200: inline_serializer(
            "SheetRollSpec",
            {
                "key": serializers.CharField(),
                "group": serializers.CharField(),
                "name": serializers.CharField(),
                "value": serializers.CharField(),
                "dice": serializers.CharField(),
                "options": serializers.ListField(child=serializers.DictField()),
                "secret": serializers.BooleanField(),
                "rule": serializers.CharField(),
            },
            many=True,
        ),
        201: RollSerializer,
    },
)
@api_view(["GET", "POST"])
def character_rolls(request, pk):
    """GET: the rolls the character page offers this user (empty for who may not roll). POST: make
    one, on the campaign's fair dice (or with ``faces`` rolled at the table)."""
    character, membership = _sheet_membership(request, pk)
    if request.method == "GET":
        return Response([spec.as_dict() for spec in roll_specs(character, membership).values()])
    body = SheetRollRequest(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    roll = roll_from_sheet(
        membership, character, data["spec"], data.get("modifiers") or {}, faces=data.get("faces")
    )
    return Response(
        RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
    )
