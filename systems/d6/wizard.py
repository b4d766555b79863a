"""The D6 character builder: identity and resources, free-form attributes, skills, review.

Ruling 8: a D6 character has free-form attributes and skills written as die codes, and needs at
least Perception, Reflexes, search and dodge (initiative uses them). The chapter gives no creation
budget, so the builder checks only what the engine checks. Every step saves the draft and then
asks the engine about it; the engine's messages (for a bad code: "'3Q' is not a die code ...")
are shown next to the row they name.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect

from characters import access, builder, services
from characters.systems import RuleViolation
from systems.d6.engine import creation
from systems.d6.engine.tables import (
    MAX_ACTION_ALLOTMENT,
    MAX_LIST,
    MAX_MOVE,
    MAX_NOTES,
    MAX_POINTS,
    MAX_RANKS,
    MAX_TEXT,
    REQUIRED_ATTRIBUTES,
    REQUIRED_SKILLS,
)

STEPS = (
    ("identity", "Identity"),
    ("attributes", "Attributes"),
    ("skills", "Skills"),
    ("extras", "Abilities and gear"),
    ("review", "Review"),
)
TEMPLATES = "characters/d6"
WELCOME = "{name} is ready to play."
IDENTITY_FIELDS = (
    "name",
    "player",
    "notes",
    "move",
    "action_allotment",
    "character_points",
    "fate_points",
    "goes_first",
)
EXTRA_ROWS = 3
STARTING_ATTRIBUTES = list(REQUIRED_ATTRIBUTES)


def _system():
    return services.system_of("d6")


def step_of(field: str) -> str:
    head = field.split(".")[0]
    if head in IDENTITY_FIELDS:
        return "identity"
    if head == "attributes":
        return "attributes"
    if head == "skills":
        return "skills"
    if head in ("special_abilities", "equipment"):
        return "extras"
    return "review"


def _problems(choices: dict, step: str) -> list[RuleViolation]:
    """The engine's problems with the draft that belong to one step."""
    build = creation.normalised(choices)
    if step == "attributes":
        return creation.check_attributes(build)
    if step == "skills":
        if not isinstance(build.get("attributes"), dict):
            return []
        return creation.check_skills(build)
    return [v for v in creation.validate(build) if step_of(v.field) == step]


def first_open_step(character) -> str:
    choices = character.choices
    if not isinstance(choices.get("name"), str) or not choices["name"].strip():
        return "identity"
    for step in ("identity", "attributes", "skills", "extras"):
        if _problems(choices, step):
            return step
    return "review"


# -- forms ----------------------------------------------------------------------------------------
class IdentityForm(forms.Form):
    name = forms.CharField(label="Character name", max_length=MAX_TEXT)
    player = forms.CharField(label="Player", max_length=MAX_TEXT, required=False)
    action_allotment = forms.IntegerField(
        label="Action allotment",
        min_value=1,
        max_value=MAX_ACTION_ALLOTMENT,
        initial=1,
        help_text="Actions a round before the multi-action penalty starts "
        "(1 unless a special ability raises it).",
    )
    character_points = forms.IntegerField(
        label="Character Points", min_value=0, max_value=MAX_POINTS, initial=0
    )
    fate_points = forms.IntegerField(label="Fate Points", min_value=0, max_value=MAX_POINTS, initial=0)
    move = forms.IntegerField(label="Move", min_value=0, max_value=MAX_MOVE, required=False)
    goes_first = forms.BooleanField(label="Has an ability or talent to go first", required=False)
    notes = forms.CharField(
        label="Notes", max_length=MAX_NOTES, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def as_choices(self) -> dict:
        data = dict(self.cleaned_data)
        return {key: data[key] for key in IDENTITY_FIELDS}


class _RowsForm(forms.Form):
    """Numbered rows of a free-form list; the labels name the trait once it has a name, so an
    error reads "Strength code: '3Q' is not a die code ..."."""

    kind = "attribute"

    def __init__(self, *args, rows: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.row_count = len(rows)
        for index, row in enumerate(rows):
            self.add_row(index, row)

    def row_label(self, index: int, row: dict) -> str:
        return row.get("name") or f"{self.kind.capitalize()} {index + 1}"

    def bound_name(self, index: int, row: dict) -> str:
        if self.is_bound:
            return (self.data.get(f"name_{index}") or "").strip()
        return row.get("name", "")

    def rows(self):
        for index in range(self.row_count):
            yield [self[name] for name in self.fields if name.rsplit("_", 1)[1] == str(index)]

    def field_for_trait(self, trait: str, part: str) -> str | None:
        wanted = trait.casefold()
        for index in range(self.row_count):
            name = (self.cleaned_data.get(f"name_{index}") or "").casefold()
            if name == wanted:
                return f"{part}_{index}"
        return None


class AttributesForm(_RowsForm):
    kind = "attribute"

    def add_row(self, index: int, row: dict) -> None:
        label = self.bound_name(index, row) or f"Attribute {index + 1}"
        self.fields[f"name_{index}"] = forms.CharField(
            label=f"Attribute {index + 1} name",
            max_length=MAX_TEXT,
            required=False,
            initial=row.get("name", ""),
        )
        self.fields[f"code_{index}"] = forms.CharField(
            label=f"{label} code", max_length=20, required=False, initial=row.get("code", "")
        )

    def attributes(self) -> dict[str, str]:
        result: dict[str, str] = {}
        for index in range(self.row_count):
            name = (self.cleaned_data.get(f"name_{index}") or "").strip()
            code = (self.cleaned_data.get(f"code_{index}") or "").strip()
            if code and not name:
                self.add_error(f"name_{index}", "Give this attribute a name.")
            if name and name in result:
                self.add_error(f"name_{index}", f"{name} is listed twice.")
            if name:
                result[name] = code
        return result

    def attach(self, problems: list[RuleViolation]) -> None:
        for violation in problems:
            parts = violation.field.split(".")
            target = self.field_for_trait(parts[1], "code") if len(parts) > 1 else None
            self.add_error(target, violation.message)


class SkillsForm(_RowsForm):
    kind = "skill"

    def __init__(self, *args, attributes: list[str], **kwargs):
        self.attribute_names = attributes
        super().__init__(*args, **kwargs)

    def add_row(self, index: int, row: dict) -> None:
        label = self.bound_name(index, row) or f"Skill {index + 1}"
        options = [("", "—")] + [(name, name) for name in self.attribute_names]
        current = row.get("attribute", "")
        if current and current not in self.attribute_names:
            options.append((current, f"{current} (no such attribute)"))
        self.fields[f"name_{index}"] = forms.CharField(
            label=f"Skill {index + 1} name", max_length=MAX_TEXT, required=False, initial=row.get("name", "")
        )
        self.fields[f"attribute_{index}"] = forms.ChoiceField(
            label=f"{label} attribute", choices=options, required=False, initial=current
        )
        self.fields[f"code_{index}"] = forms.CharField(
            label=f"{label} code", max_length=20, required=False, initial=row.get("code", "")
        )

    def skills(self) -> dict[str, dict]:
        result: dict[str, dict] = {}
        for index in range(self.row_count):
            name = (self.cleaned_data.get(f"name_{index}") or "").strip()
            attribute = self.cleaned_data.get(f"attribute_{index}") or ""
            code = (self.cleaned_data.get(f"code_{index}") or "").strip()
            if (code or attribute) and not name:
                self.add_error(f"name_{index}", "Give this skill a name.")
            if name and name in result:
                self.add_error(f"name_{index}", f"{name} is listed twice.")
            if name:
                result[name] = {"attribute": attribute, "code": code}
        return result

    def attach(self, problems: list[RuleViolation]) -> None:
        for violation in problems:
            parts = violation.field.split(".")
            part = "attribute" if parts[-1] == "attribute" else "code"
            target = self.field_for_trait(parts[1], part) if len(parts) > 1 else None
            self.add_error(target, violation.message)


class ExtrasForm(forms.Form):
    """Special abilities (ranks, the traits they affect, going first) and equipment (quick
    multiple use and uses per round), in numbered rows."""

    def __init__(self, *args, abilities: list[dict], items: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.ability_count, self.item_count = len(abilities), len(items)
        for i, a in enumerate(abilities):
            label = self._posted(f"ability_name_{i}") or a.get("name") or f"Ability {i + 1}"
            self.fields[f"ability_name_{i}"] = forms.CharField(
                label=f"Ability {i + 1} name", max_length=MAX_TEXT, required=False, initial=a.get("name", "")
            )
            self.fields[f"ability_ranks_{i}"] = forms.IntegerField(
                label=f"{label} ranks",
                min_value=1,
                max_value=MAX_RANKS,
                required=False,
                initial=a.get("ranks", 1),
            )
            self.fields[f"ability_affects_{i}"] = forms.CharField(
                label=f"{label} affects (traits, comma-separated)",
                max_length=2000,
                required=False,
                initial=", ".join(a.get("affects") or []),
            )
            self.fields[f"ability_goes_first_{i}"] = forms.BooleanField(
                label=f"{label} lets the character go first",
                required=False,
                initial=a.get("goes_first", False),
            )
        for i, item in enumerate(items):
            label = self._posted(f"item_name_{i}") or item.get("name") or f"Item {i + 1}"
            self.fields[f"item_name_{i}"] = forms.CharField(
                label=f"Item {i + 1} name", max_length=MAX_TEXT, required=False, initial=item.get("name", "")
            )
            self.fields[f"item_quick_{i}"] = forms.BooleanField(
                label=f"{label} is built for quick repeated use",
                required=False,
                initial=item.get("quick_multi_use", False),
            )
            self.fields[f"item_uses_{i}"] = forms.IntegerField(
                label=f"{label} uses per round",
                min_value=1,
                max_value=MAX_LIST,
                required=False,
                initial=item.get("uses_per_round", 1),
            )

    def _posted(self, key: str) -> str:
        return (self.data.get(key) or "").strip()[:MAX_TEXT] if self.is_bound else ""

    def ability_rows(self):
        for i in range(self.ability_count):
            yield [self[f"ability_{part}_{i}"] for part in ("name", "ranks", "affects", "goes_first")]

    def item_rows(self):
        for i in range(self.item_count):
            yield [self[f"item_{part}_{i}"] for part in ("name", "quick", "uses")]

    def as_choices(self) -> dict:
        data = self.cleaned_data
        abilities, items = [], []
        for i in range(self.ability_count):
            name = (data.get(f"ability_name_{i}") or "").strip()
            if not name:
                continue
            affects = [t.strip() for t in (data.get(f"ability_affects_{i}") or "").split(",") if t.strip()]
            abilities.append(
                {
                    "name": name,
                    "ranks": data.get(f"ability_ranks_{i}") or 1,
                    "affects": affects,
                    "goes_first": bool(data.get(f"ability_goes_first_{i}")),
                }
            )
        for i in range(self.item_count):
            name = (data.get(f"item_name_{i}") or "").strip()
            if name:
                items.append(
                    {
                        "name": name,
                        "quick_multi_use": bool(data.get(f"item_quick_{i}")),
                        "uses_per_round": data.get(f"item_uses_{i}") or 1,
                    }
                )
        return {"special_abilities": abilities, "equipment": items}

    def attach(self, problems: list[RuleViolation]) -> None:
        """Engine fields look like special_abilities.2.affects or equipment.0.uses_per_round; the
        rows are numbered by what was kept, so map kept rows back to the form's rows."""
        kept = {
            "special_abilities": [
                i for i in range(self.ability_count) if self.cleaned_data.get(f"ability_name_{i}")
            ],
            "equipment": [i for i in range(self.item_count) if self.cleaned_data.get(f"item_name_{i}")],
        }
        parts = {"name": "name", "ranks": "ranks", "affects": "affects", "goes_first": "goes_first"}
        item_parts = {"name": "name", "quick_multi_use": "quick", "uses_per_round": "uses"}
        for violation in problems:
            bits = violation.field.split(".")
            target = None
            if len(bits) >= 2 and bits[1].isdigit() and int(bits[1]) < len(kept.get(bits[0], [])):
                row = kept[bits[0]][int(bits[1])]
                if bits[0] == "special_abilities":
                    target = f"ability_{parts.get(bits[2] if len(bits) > 2 else 'name', 'name')}_{row}"
                else:
                    target = f"item_{item_parts.get(bits[2] if len(bits) > 2 else 'name', 'name')}_{row}"
            self.add_error(target if target in self.fields else None, violation.message)


# -- pages ----------------------------------------------------------------------------------------
def _save(character, membership, values: dict):
    return services.update_draft(character, values, is_gm=membership.role == access.GM)


def step_identity(request, character, membership):
    choices = character.choices
    initial = services.with_defaults(
        character, {key: choices[key] for key in IDENTITY_FIELDS if key in choices}
    )
    form = IdentityForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            character = _save(character, membership, form.as_choices())
            problems = _problems(character.choices, "identity")
            for violation in problems:
                field = violation.field.split(".")[0]
                form.add_error(field if field in form.fields else None, violation.message)
            if not problems:
                return builder.next_step(character, "identity")
    return builder.render(request, character, membership, "identity", status=status, form=form)


def _attribute_rows(choices: dict, extra: int) -> list[dict]:
    current = choices.get("attributes") if isinstance(choices.get("attributes"), dict) else {}
    rows = [{"name": name, "code": code if isinstance(code, str) else ""} for name, code in current.items()]
    named = {row["name"].casefold() for row in rows}
    rows += [{"name": name, "code": ""} for name in STARTING_ATTRIBUTES if name.casefold() not in named]
    return rows + [{} for _ in range(extra)]


def step_attributes(request, character, membership):
    rows = _attribute_rows(character.choices, EXTRA_ROWS)
    if request.method == "POST":
        rows = [{} for _ in range(_posted_rows(request.POST))]
    form = AttributesForm(request.POST or None, rows=rows)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            attributes = form.attributes()
            if form.is_valid():
                character = _save(character, membership, {"attributes": attributes})
                if request.POST.get("action") == "more":
                    more = AttributesForm(rows=_attribute_rows(character.choices, EXTRA_ROWS * 2))
                    return builder.render(request, character, membership, "attributes", form=more)
                problems = _problems(character.choices, "attributes")
                form.attach(problems)
                if not problems:
                    return builder.next_step(character, "attributes")
    return builder.render(request, character, membership, "attributes", status=status, form=form)


def _posted_rows(data, prefix: str = "name_") -> int:
    """How many numbered rows a form posted (at most 400)."""
    indexes = [
        int(key[len(prefix) :]) for key in data if key.startswith(prefix) and key[len(prefix) :].isdigit()
    ]
    return min(max(indexes, default=-1) + 1, 400)


def _skill_rows(choices: dict, extra: int) -> list[dict]:
    current = choices.get("skills") if isinstance(choices.get("skills"), dict) else {}
    rows = [
        {"name": name, "attribute": entry.get("attribute", ""), "code": entry.get("code", "")}
        for name, entry in current.items()
        if isinstance(entry, dict)
    ]
    named = {row["name"].casefold() for row in rows}
    attributes = choices.get("attributes") if isinstance(choices.get("attributes"), dict) else {}
    rows += [
        {"name": skill, "attribute": attribute, "code": attributes.get(attribute, "")}
        for skill, attribute in REQUIRED_SKILLS.items()
        if skill.casefold() not in named
    ]
    return rows + [{} for _ in range(extra)]


def _attribute_names(choices: dict) -> list[str]:
    attributes = choices.get("attributes") if isinstance(choices.get("attributes"), dict) else {}
    return [name for name in creation.normalised({"attributes": attributes})["attributes"]]


def step_skills(request, character, membership):
    names = _attribute_names(character.choices)
    if not names:
        messages.error(request, "List the attributes first: every skill is based on one.")
        return redirect("character-wizard-step", character.pk, "attributes")
    rows = _skill_rows(character.choices, EXTRA_ROWS)
    if request.method == "POST":
        rows = [{} for _ in range(_posted_rows(request.POST))]
    form = SkillsForm(request.POST or None, rows=rows, attributes=names)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            skills = form.skills()
            if form.is_valid():
                character = _save(character, membership, {"skills": skills})
                if request.POST.get("action") == "more":
                    more = SkillsForm(rows=_skill_rows(character.choices, EXTRA_ROWS * 2), attributes=names)
                    return builder.render(request, character, membership, "skills", form=more)
                problems = _problems(character.choices, "skills")
                form.attach(problems)
                if not problems:
                    return builder.next_step(character, "skills")
    return builder.render(request, character, membership, "skills", status=status, form=form)


def step_extras(request, character, membership):
    choices = character.choices
    abilities = [a for a in choices.get("special_abilities") or [] if isinstance(a, dict)]
    items = [i for i in choices.get("equipment") or [] if isinstance(i, dict)]
    if request.method == "POST":
        ability_rows = _posted_rows(request.POST, "ability_name_")
        item_rows = _posted_rows(request.POST, "item_name_")
        form = ExtrasForm(request.POST, abilities=[{}] * ability_rows, items=[{}] * item_rows)
    else:
        form = ExtrasForm(abilities=abilities + [{}] * 2, items=items + [{}] * 2)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            character = _save(character, membership, form.as_choices())
            if request.POST.get("action") == "more":
                more = ExtrasForm(
                    abilities=character.choices["special_abilities"] + [{}] * EXTRA_ROWS,
                    items=character.choices["equipment"] + [{}] * EXTRA_ROWS,
                )
                return builder.render(request, character, membership, "extras", form=more)
            problems = _problems(character.choices, "extras")
            form.attach(problems)
            if not problems:
                return builder.next_step(character, "extras")
    return builder.render(request, character, membership, "extras", status=status, form=form)


def review(character, build) -> dict:
    return {"sheet": _system().sheet(build, character.campaign.settings or None).fields}
