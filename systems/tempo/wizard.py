"""The Flashpoints agent builder (Tempo): aspects with anchors, role ratings, benefits, review.

Every step saves the draft and asks the engine (systems/tempo/engine/creation.py) what is wrong;
the engine's words are shown next to the field they name. The role and benefit steps also check
live, as the player changes a choice (htmx posts the form with ``check=1``; nothing is saved).
All slots, roles, ratings and benefits come from the module's data, nothing is named here.
"""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.shortcuts import render

from characters import access, builder, services
from characters.forms import attach_violations
from characters.systems import RuleViolation
from systems.tempo.engine import creation
from systems.tempo.engine.modules import get_module
from systems.tempo.engine.tables import MAX_TEXT

STEPS = (
    ("aspects", "Aspects"),
    ("roles", "Roles"),
    ("benefits", "Benefits"),
    ("review", "Review"),
)
STEP_KEYS = tuple(key for key, _ in STEPS)
TEMPLATES = "characters/tempo"
WELCOME = "{name} joins the cell."
FIELD_STEP = {
    "name": "aspects",
    "codename": "aspects",
    "player": "aspects",
    "aspects": "aspects",
    "roles": "roles",
    "benefits": "benefits",
}


def module_of(character):
    return get_module(character.choices.get("module") or character.module or creation.DEFAULT_MODULE)


def step_of(field: str) -> str:
    return FIELD_STEP.get(field.split(".")[0], "review")


def first_open_step(character) -> str:
    """Where to resume a draft: the first step the engine still finds fault with."""
    choices = {**character.choices, "system": "tempo"}
    problems = creation.validate(choices, "final")
    for key in STEP_KEYS[:-1]:
        if any(step_of(p.field) == key for p in problems):
            return key
    return "review"


# -- forms -------------------------------------------------------------------------------------
class AspectsForm(forms.Form):
    name = forms.CharField(label="Agent's name", max_length=MAX_TEXT)
    codename = forms.CharField(label="Codename", max_length=MAX_TEXT, required=False)
    player = forms.CharField(label="Player", max_length=MAX_TEXT, required=False)

    def __init__(self, *args, module, **kwargs):
        super().__init__(*args, **kwargs)
        self.module = module
        for slot in module.aspect_slots:
            self.fields[f"{slot.key}_text"] = forms.CharField(
                label=f"{slot.label} aspect", max_length=MAX_TEXT, required=False, help_text=slot.summary
            )
            self.fields[f"{slot.key}_anchor"] = forms.CharField(
                label=f"{slot.label} anchor",
                max_length=MAX_TEXT,
                required=False,
                help_text=module.anchor_kinds if slot.anchor_required else "",
            )

    @staticmethod
    def initial_from(choices: dict) -> dict:
        initial = {k: choices.get(k, "") for k in ("name", "codename", "player")}
        for slot, entry in (choices.get("aspects") or {}).items():
            if isinstance(entry, dict):
                initial[f"{slot}_text"] = entry.get("text", "")
                initial[f"{slot}_anchor"] = entry.get("anchor", "")
        return initial

    def as_choices(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"].strip(),
            "codename": d["codename"].strip(),
            "player": d["player"].strip(),
            "aspects": {
                slot.key: {
                    "text": d[f"{slot.key}_text"].strip().upper(),
                    "anchor": d[f"{slot.key}_anchor"].strip(),
                }
                for slot in self.module.aspect_slots
            },
        }

    @staticmethod
    def field_for(field: str) -> str | None:
        parts = field.split(".")
        if parts[0] == "aspects" and len(parts) == 3:
            return f"{parts[1]}_{parts[2]}"
        return parts[0]


class RolesForm(forms.Form):
    def __init__(self, *args, module, **kwargs):
        super().__init__(*args, **kwargs)
        self.module = module
        options = [("", "— choose a rating —")] + [
            (r.key, f"{r.name} ({r.modifier:+d})") for r in module.ranks
        ]
        for role in module.roles:
            self.fields[f"role_{role.key}"] = forms.ChoiceField(
                label=role.name, choices=options, required=False, help_text=role.summary
            )

    @staticmethod
    def initial_from(choices: dict) -> dict:
        roles = choices.get("roles") if isinstance(choices.get("roles"), dict) else {}
        return {f"role_{k}": v for k, v in roles.items()}

    def as_choices(self) -> dict:
        return {
            "roles": {
                r.key: self.cleaned_data[f"role_{r.key}"]
                for r in self.module.roles
                if self.cleaned_data.get(f"role_{r.key}")
            }
        }

    @staticmethod
    def field_for(field: str) -> str | None:
        parts = field.split(".")
        return f"role_{parts[1]}" if len(parts) == 2 else None


class BenefitsForm(forms.Form):
    """One group of checkboxes per role whose rating gives benefits; a field for Great Mind; the
    table's approval (GM only) where a benefit needs it."""

    def __init__(self, *args, module, roles: dict, is_gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.module, self.is_gm = module, is_gm
        self.rows = []
        for role in module.roles:
            rank = module.rank(roles.get(role.key) or "")
            if rank is None or not rank.benefit_picks:
                continue
            offered = list(role.benefits) + (list(role.variants) if rank.variants_allowed else [])
            forced = module.forced_benefits(role.key, rank.key)
            options = [
                (b.key, f"{b.name}{' (on its own)' if b.variant else ''}: {b.summary}") for b in offered
            ]
            self.fields[f"benefits_{role.key}"] = forms.MultipleChoiceField(
                label=f"{role.name} ({rank.name}): {_picks(rank, role)}",
                choices=options,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            if forced:
                self.fields[f"benefits_{role.key}"].disabled = True
                self.fields[f"benefits_{role.key}"].initial = list(forced)
            row = {"role": role, "rank": rank, "field": f"benefits_{role.key}", "extra": []}
            if any(b.needs_field for b in offered):
                names = ", ".join(b.name for b in offered if b.needs_field)
                self.fields[f"field_{role.key}"] = forms.CharField(
                    label=f"{role.name}: academic field (for {names})", max_length=MAX_TEXT, required=False
                )
                row["extra"].append(f"field_{role.key}")
            if any(b.needs_approval for b in offered):
                names = ", ".join(b.name for b in offered if b.needs_approval)
                self.fields[f"approved_{role.key}"] = forms.BooleanField(
                    label=f"{role.name}: the table approves {names}", required=False, disabled=not is_gm
                )
                row["extra"].append(f"approved_{role.key}")
            self.rows.append(row)

    @staticmethod
    def initial_from(choices: dict) -> dict:
        initial: dict[str, Any] = {}
        for role_key, items in (choices.get("benefits") or {}).items():
            chosen = creation.normalised_benefits(items) or []
            initial[f"benefits_{role_key}"] = [b.get("key") for b in chosen]
            for b in chosen:
                if b.get("field"):
                    initial[f"field_{role_key}"] = b["field"]
                if b.get("table_approved"):
                    initial[f"approved_{role_key}"] = True
        return initial

    def as_choices(self, stored: dict) -> dict:
        """The benefits chosen; a player's form never sets the table's approval (the GM's)."""
        stored_benefits = stored.get("benefits") if isinstance(stored.get("benefits"), dict) else {}
        benefits: dict[str, list] = {}
        for row in self.rows:
            role = row["role"]
            approved_before = any(
                isinstance(b, dict) and b.get("table_approved") for b in stored_benefits.get(role.key) or []
            )
            items = []
            for key in self.cleaned_data.get(row["field"]) or []:
                benefit = role.benefit(key)
                item: dict[str, Any] = {"key": key}
                if benefit and benefit.needs_field:
                    item["field"] = (self.cleaned_data.get(f"field_{role.key}") or "").strip()
                if benefit and benefit.needs_approval:
                    item["table_approved"] = (
                        bool(self.cleaned_data.get(f"approved_{role.key}")) if self.is_gm else approved_before
                    )
                items.append(item)
            benefits[role.key] = items
        return {"benefits": benefits}

    def field_for(self, field: str) -> str | None:
        parts = field.split(".")
        if parts[0] != "benefits" or len(parts) < 2:
            return None
        if parts[-1] == "field":
            return f"field_{parts[1]}"
        if parts[-1] == "table_approved":
            return f"approved_{parts[1]}"
        return f"benefits_{parts[1]}"


def _picks(rank, role) -> str:
    if rank.variants_allowed and role.variants:
        return f"choose {rank.benefit_picks}, or one marked 'on its own'"
    return f"choose {rank.benefit_picks}"


# -- steps -------------------------------------------------------------------------------------
def context(character) -> dict:
    return {"module": module_of(character)}


def _problems(choices: dict, step: str, final: bool) -> list[RuleViolation]:
    """The engine's violations of one step (draft: only what is filled in)."""
    document = {**choices, "system": "tempo"}
    document.setdefault("module", creation.DEFAULT_MODULE)
    found = creation.validate(document, "final" if final else "draft")
    return [p for p in found if step_of(p.field) == step]


def _live(module, choices: dict, step: str) -> dict:
    """What the live check shows: the distribution line and the draft problems of the step."""
    roles = choices.get("roles") if isinstance(choices.get("roles"), dict) else {}
    return {
        "distribution": creation.distribution(module, roles),
        "live_problems": _problems(choices, step, final=False),
        "rated": sum(1 for r in module.roles if roles.get(r.key)),
        "role_count": len(module.roles),
    }


def _step(request, character, membership, step, form, to_choices):
    """GET shows the step; POST with check=1 (htmx) only checks; POST saves, then checks."""
    is_gm = membership.role == access.GM
    module = module_of(character)
    if request.method == "POST" and request.POST.get("check"):
        choices = copy.deepcopy(character.choices)
        if form.is_valid():
            choices.update(to_choices(form))
        return render(
            request,
            "characters/tempo/_live_check.html",
            {"step": step, "module": module, **_live(module, choices, step)},
        )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            character = services.update_draft(character, to_choices(form), is_gm=is_gm)
            problems = _problems(character.choices, step, final=True)
            attach_violations(form, problems, form.field_for)
            if not problems:
                return builder.next_step(character, step)
    return builder.render(
        request,
        character,
        membership,
        step,
        status=status,
        form=form,
        **_live(module, character.choices, step),
    )


def step_aspects(request, character, membership):
    module = module_of(character)
    form = AspectsForm(
        request.POST or None,
        module=module,
        initial=services.with_defaults(character, AspectsForm.initial_from(character.choices)),
    )

    def to_choices(f):
        values = f.as_choices()
        values["module"] = module.key
        return values

    return _step(request, character, membership, "aspects", form, to_choices)


def step_roles(request, character, membership):
    module = module_of(character)
    form = RolesForm(request.POST or None, module=module, initial=RolesForm.initial_from(character.choices))
    return _step(request, character, membership, "roles", form, lambda f: f.as_choices())


def step_benefits(request, character, membership):
    module = module_of(character)
    roles = character.choices.get("roles") if isinstance(character.choices.get("roles"), dict) else {}
    form = BenefitsForm(
        request.POST or None,
        module=module,
        roles=roles,
        is_gm=membership.role == access.GM,
        initial=BenefitsForm.initial_from(character.choices),
    )
    return _step(request, character, membership, "benefits", form, lambda f: f.as_choices(character.choices))
