"""The TIMEMASTER agent wizard: roll (or type in) the eight numbers, assign them, background,
skills, talent, review, finalize.

Every step saves the draft (so it can be resumed) and then asks the engine to check that step;
the engine's violations are shown next to the field they name, in the engine's words.
"""

from __future__ import annotations

import random

from django.contrib import messages
from django.shortcuts import redirect

from characters import access, builder, services
from characters.forms import attach_violations
from characters.systems import RuleError, RuleViolation
from systems.timemaster.engine import SYSTEM as TIMEMASTER
from systems.timemaster.engine import Timemaster
from systems.timemaster.engine import abilities as tm_abilities
from systems.timemaster.engine import campaign_settings as tm_settings
from systems.timemaster.engine import tables as tm
from systems.timemaster.wizard_forms import (
    AssignForm,
    BackgroundForm,
    ManualAbilitiesForm,
    SkillsForm,
    TalentForm,
)

STEPS = (
    ("roll", "Roll"),
    ("assign", "Assign"),
    ("background", "Background"),
    ("skills", "Skills"),
    ("talent", "Talent"),
    ("review", "Review"),
)
TEMPLATES = "characters/timemaster"
WELCOME = "{name} joined the Time Corps."

# Which wizard page shows an engine field, by its first part.
FIELD_STEP = {
    "ability_method": "roll",
    "ability_roll": "roll",
    "abilities": "assign",
    "name": "background",
    "player": "background",
    "background": "background",
    "skills": "skills",
    "profession_skill": "skills",
    "historical_specialty": "skills",
    "talent": "talent",
    "talents": "talent",
}


def _system() -> Timemaster:
    """The TIMEMASTER engine itself: this wizard also uses its step checks (``validate_step``),
    which are TIMEMASTER's own and not part of the Engine contract."""
    return TIMEMASTER


def _settings(character) -> dict:
    return tm_settings.resolve(character.campaign.settings or None)


def numbers_of(choices: dict) -> list[int]:
    """The eight numbers to assign: the server's roll, or the ones typed in."""
    if choices.get("ability_method") == "manual":
        values = choices.get("manual_values")
        typed = choices.get("abilities")
        if not values and isinstance(typed, dict) and all(isinstance(v, int) for v in typed.values()):
            values = list(typed.values())  # typed straight into the Abilities (e.g. through the API)
    else:
        values = (choices.get("ability_roll") or {}).get("values")
    return list(values) if isinstance(values, list) else []


def step_of(field: str) -> str:
    return FIELD_STEP.get(field.split(".")[0], "review")


def first_open_step(character) -> str:
    """Where to resume a draft: the first step the engine still finds fault with."""
    choices = character.choices
    system = _system()
    if not numbers_of(choices):
        return "roll"
    for engine_step, page in (("abilities", "assign"), ("background", "background"), ("name", "background")):
        if not system.validate_step(engine_step, choices, _settings(character)).ok:
            return page
    if not choices.get("skills") or not system.validate_step("skills", choices, _settings(character)).ok:
        return "skills"
    if not system.validate_step("talents", choices, _settings(character)).ok:
        return "talent"
    return "review"


def context(character) -> dict:
    return {"automatic_skills": [tm.SKILLS[key]["name"] for key in tm.AUTOMATIC_SKILLS]}


# --- steps -----------------------------------------------------------------------------------------
def step_roll(request, character, membership):
    choices = character.choices
    record = choices.get("ability_roll")
    settings = _settings(character)
    manual = ManualAbilitiesForm(
        initial={f"number_{i}": v for i, v in enumerate(choices.get("manual_values") or [])}
    )
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        locked_by_roll = record is not None and action in ("roll", "manual")
        if locked_by_roll:
            errors.append(
                "The numbers are already rolled; they stay. The game master can clear them for a new roll."
            )
        elif action == "roll":
            record = tm_abilities.roll_abilities(random.SystemRandom())
            services.set_server_choices(
                character, ability_roll=record, ability_method="rolled", abilities=None, manual_values=None
            )
            # Back to this step: the player sees the dice, and the reroll where it is allowed (issue 30).
            return redirect("character-wizard-step", character.pk, "roll")
        elif action == "reroll":
            try:
                record = tm_abilities.reroll_hopeless(
                    record, random.SystemRandom(), settings["hopeless_reroll_rounds"]
                )
            except RuleError as error:
                errors += [v.message for v in error.violations]
            else:
                services.set_server_choices(character, ability_roll=record, abilities=None)
                messages.success(request, "The low numbers were rolled again.")
                return redirect("character-wizard-step", character.pk, "roll")
        elif action == "clear" and membership.role == access.GM:
            services.set_server_choices(character, ability_roll=None, abilities=None, manual_values=None)
            messages.success(request, "The roll was cleared; the player can roll again.")
            return redirect("character-wizard-step", character.pk, "roll")
        elif action == "manual":
            manual = ManualAbilitiesForm(request.POST)
            if manual.is_valid():
                values = manual.values()
                services.set_server_choices(
                    character,
                    ability_method="manual",
                    manual_values=values,
                    abilities=None,
                    ability_roll=None,
                )
                problems = [
                    violation
                    for index, value in enumerate(values)
                    for violation in tm_abilities.check_number(
                        f"number_{index}", value, f"Number {index + 1}"
                    )
                ]
                attach_violations(manual, problems, lambda field: field)
                if not problems:
                    return builder.next_step(character, "roll")
        else:
            errors.append("Choose an action.")
        status = 400
    character.refresh_from_db()
    record = character.choices.get("ability_roll")
    hopeless = bool(record) and tm_abilities.is_hopeless(record["values"])
    can_reroll = hopeless and record.get("rerolls_used", 0) < settings["hopeless_reroll_rounds"]
    return builder.render(
        request,
        character,
        membership,
        "roll",
        status=status,
        record=record,
        rolled=list(zip(record["values"], record["dice"], strict=False)) if record else [],
        hopeless=hopeless,
        can_reroll=can_reroll,
        manual=manual,
        errors=errors,
    )


def step_assign(request, character, membership):
    numbers = numbers_of(character.choices)
    if not numbers:
        messages.error(request, "Roll or enter the eight numbers first.")
        return redirect("character-wizard-step", character.pk, "roll")
    current = character.choices.get("abilities")
    initial = (
        current if isinstance(current, dict) else tm_abilities.assign_in_order(sorted(numbers, reverse=True))
    )
    form = AssignForm(request.POST or None, numbers=numbers, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            assignment = form.assignment()
            character = services.update_draft(
                character, {"abilities": assignment}, is_gm=membership.role == access.GM
            )
            problems = _check_abilities(character)
            attach_violations(form, problems, lambda field: field.partition(".")[2].split(".")[0] or None)
            if not problems:
                return builder.next_step(character, "assign")
    return builder.render(request, character, membership, "assign", status=status, form=form, numbers=numbers)


def _check_abilities(character) -> list[RuleViolation]:
    choices = character.choices
    if choices.get("ability_method") == "manual":
        abilities = choices.get("abilities")
        return tm_abilities.check_manual(abilities) or tm_abilities.check_assignment(
            numbers_of(choices), abilities
        )
    return _system().validate_step("abilities", choices, _settings(character)).errors


def _step_form(request, character, membership, step, form, engine_steps, field_for):
    """Save the form's choices, then show what the engine says about them."""
    status = 200
    warnings: list[RuleViolation] = []
    if request.method == "POST":
        status = 400
        if form.is_valid():
            character = services.update_draft(
                character, form.as_choices(), is_gm=membership.role == access.GM
            )
            problems: list[RuleViolation] = []
            for engine_step in engine_steps:
                review = _system().validate_step(engine_step, character.choices, _settings(character))
                problems += review.errors
                warnings += review.warnings
            attach_violations(form, problems, field_for)
            if not problems:
                for warning in warnings:
                    messages.warning(request, warning.message)
                return builder.next_step(character, step)
        else:
            # Every error at once: what the engine says about the fields that were filled in
            # well, next to the form's own errors (nothing is saved while the form has errors).
            attach_violations(
                form, _engine_errors_of_invalid(form, character, engine_steps, field_for), field_for
            )
    return builder.render(request, character, membership, step, status=status, form=form, warnings=warnings)


def _engine_errors_of_invalid(form, character, engine_steps, field_for) -> list[RuleViolation]:
    """The engine's errors for an invalid form's choices (a field in error counts as empty),
    leaving out those about a field the form already found fault with."""
    cleaned = form.cleaned_data
    form.cleaned_data = {name: cleaned.get(name) for name in form.fields}
    try:
        choices = {**character.choices, **form.as_choices()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return []
    finally:
        form.cleaned_data = cleaned
    problems: list[RuleViolation] = []
    for engine_step in engine_steps:
        for violation in _system().validate_step(engine_step, choices, _settings(character)).errors:
            name = field_for(violation.field)
            if name not in form.errors and violation not in problems:
                problems.append(violation)
    return problems


def step_background(request, character, membership):
    form = BackgroundForm(
        request.POST or None,
        initial=services.with_defaults(character, BackgroundForm.initial_from(character.choices)),
    )
    return _step_form(
        request, character, membership, "background", form, ("name", "background"), BackgroundForm.field_for
    )


def step_skills(request, character, membership):
    form = SkillsForm(request.POST or None, initial=SkillsForm.initial_from(character.choices))
    return _step_form(request, character, membership, "skills", form, ("skills",), form.field_for)


def step_talent(request, character, membership):
    form = TalentForm(request.POST or None, initial={"talent": character.choices.get("talent")})
    form.as_choices = lambda: {"talent": form.cleaned_data["talent"]}
    return _step_form(request, character, membership, "talent", form, ("talents",), lambda field: "talent")


def review(character, build) -> dict:
    found = _system().review(build, _settings(character))
    return {"sheet": _system().sheet(build).fields, "pending": found.pending, "warnings": found.warnings}
