"""The Time to Kill ninja builder: the nine abilities (and an optional name), then review and finalize.

The flow (steps, review, resume) is the platform's (characters/builder.py). Costs, the trade and the
budget are the engine's (systems/time_to_kill/engine/creation.py); this module only collects
the choices and shows the engine's verdict next to the field it names.
"""

from __future__ import annotations

from django import forms

from characters import access, builder, services
from characters.forms import attach_violations
from characters.models import Character
from characters.systems import RuleError
from systems.time_to_kill.engine import creation
from systems.time_to_kill.engine.derived import record_summary
from systems.time_to_kill.engine.tables import (
    ABILITIES,
    ABILITY_KEYS,
    BASE_POINTS,
    GROUP_LABEL,
    MAX_TEXT,
    RAISE_COST,
    RATING_NAME,
    RATINGS,
)

SYSTEM_KEY = "time_to_kill"
STEPS = (("abilities", "Abilities"), ("review", "Review"))
TEMPLATES = "characters/time_to_kill"
WELCOME = "{name} is ready for a mission."
PREVIEW_SEED = None  # the builder draws nothing


def step_of(field: str) -> str:
    return "abilities"


def _system():
    return services.system_of(SYSTEM_KEY)


def player_record(character: Character) -> dict[str, int]:
    """The ranking belongs to the player (time-to-kill.md §A4, §E5): the record of their latest
    finished ninja in this campaign, or an empty one."""
    latest = (
        Character.objects.filter(campaign=character.campaign, owner=character.owner, system=SYSTEM_KEY)
        .exclude(pk=character.pk)
        .exclude(status=Character.Status.DRAFT)
        .order_by("-created_at", "-id")
        .first()
    )
    record = (latest.build or {}).get("record") if latest else None
    return dict(record) if isinstance(record, dict) else creation.empty_record()


class NinjaForm(forms.Form):
    name = forms.CharField(
        label="Name (optional)", max_length=MAX_TEXT, required=False, help_text='Empty means "the ninja".'
    )
    player = forms.CharField(
        label="Player", max_length=MAX_TEXT, required=False, help_text="Printed on the sheet."
    )
    campaign = forms.CharField(
        label="Campaign", max_length=MAX_TEXT, required=False, help_text="Printed on the sheet."
    )

    def __init__(self, *args, bonus: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        for key in ABILITY_KEYS:
            group = ABILITIES[key]["group"]
            self.fields[key] = forms.ChoiceField(
                label=f"{ABILITIES[key]['name']} ({GROUP_LABEL[group]}, + costs {RAISE_COST[group]})",
                choices=[(r, f"{r} {RATING_NAME[r]}") for r in RATINGS],
                initial="0",
                help_text=ABILITIES[key]["scope"],
            )
        self.fields["use_ranking"] = forms.BooleanField(
            label=f"Add my ranking to the budget (+{bonus} points)", required=False
        )

    @classmethod
    def initial_from(cls, choices: dict) -> dict:
        abilities = choices.get("abilities") if isinstance(choices.get("abilities"), dict) else {}
        return {
            "name": choices.get("name", ""),
            "player": choices.get("player", ""),
            "campaign": choices.get("campaign", ""),
            "use_ranking": bool(choices.get("use_ranking")),
            **{key: abilities.get(key, "0") for key in ABILITY_KEYS},
        }

    def as_choices(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "player": data["player"].strip(),
            "campaign": data["campaign"].strip(),
            "use_ranking": data["use_ranking"],
            "abilities": {key: data[key] for key in ABILITY_KEYS},
        }


def _field_for(field: str) -> str | None:
    """Engine field -> form field: "abilities.stealth" -> "stealth"; "abilities" -> top of the form."""
    head, _, rest = field.partition(".")
    if head == "abilities":
        return rest or None
    if head in ("name", "player", "campaign", "use_ranking"):
        return head
    return None


def _problems(choices: dict) -> list:
    try:
        creation.new_build(_engine_choices(choices))
    except RuleError as error:
        return error.violations
    return []


def _engine_choices(choices: dict) -> dict:
    keys = ("name", "player", "campaign", "abilities", "use_ranking", "record")
    return {key: choices[key] for key in keys if key in choices}


def first_open_step(character: Character) -> str:
    choices = character.choices
    if not isinstance(choices.get("abilities"), dict) or _problems(choices):
        return "abilities"
    return "review"


def context(character) -> dict:
    record = character.choices.get("record") or player_record(character)
    return {"record": record_summary(record), "base_points": BASE_POINTS}


def step_abilities(request, character, membership):
    record = player_record(character)
    bonus = creation.ranking_bonus(record)
    form = NinjaForm(
        request.POST or None,
        bonus=bonus,
        initial=services.with_defaults(character, NinjaForm.initial_from(character.choices), "campaign"),
    )
    status = 200
    spent = None
    if request.method == "POST":
        status = 400
        if form.is_valid():
            is_gm = membership.role == access.GM
            character = services.update_draft(character, form.as_choices(), is_gm=is_gm)
            character = services.set_server_choices(character, record=record)
            problems = _problems(character.choices)
            attach_violations(form, problems, _field_for)
            if not problems:
                return builder.next_step(character, "abilities")
    abilities = character.choices.get("abilities")
    if isinstance(abilities, dict) and not creation.ability_shape_problems(abilities):
        spent = creation.creation_cost(abilities)
    groups = [
        {
            "label": GROUP_LABEL[group],
            "cost": RAISE_COST[group],
            "fields": [form[key] for key in ABILITY_KEYS if ABILITIES[key]["group"] == group],
        }
        for group in ("combat", "non_combat")
    ]
    return builder.render(
        request,
        character,
        membership,
        "abilities",
        status,
        form=form,
        groups=groups,
        bonus=bonus,
        spent=spent,
    )


def review(character, build) -> dict:
    return {"sheet": _system().sheet(build).fields, "derived": _system().derive(build)}
