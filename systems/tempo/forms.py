"""Forms of the Tempo pages. They only collect input and shape it as the engine's requests; the
rules are checked by the engine (systems/tempo/engine), whose words are shown to the user."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from systems.tempo.engine.tables import FATE_GAIN_REASONS, HURRY_MODES, SPEND_BENEFITS, TEMPO_NAMES

ASPECT_CHOICES = (
    ("", "not used"),
    ("invoke", "invoke: bonus die, 1 fate point"),
    ("trouble", "compel: penalty die, +1 fate point"),
)
CAMPAIGN_ASPECT_CHOICES = (("", "not used"), ("invoke", "invoke: bonus die, 1 fate point"))
NUMBERS = re.compile(r"^[\s,+\-0-9]*$")


def _numbers(text: str, field: str, negative: bool) -> list[int]:
    if not NUMBERS.match(text or ""):
        raise forms.ValidationError(f"Write the {field} as whole numbers separated by commas, e.g. 2, 1.")
    values = [int(part) for part in re.split(r"[\s,]+", text.strip()) if part not in ("", "+", "-")]
    return [abs(v) for v in values] if negative else values


def _list(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[\n,]", text or "") if part.strip()]


class TempoRollForm(forms.Form):
    """The roll panel of an agent's page (tempo-flashpoints.md §B1-§B7)."""

    role = forms.ChoiceField(label="Role")
    instead_of = forms.ChoiceField(label="Rolled in place of", required=False)
    other_aspects = forms.CharField(
        label="Opponent or scene aspects to invoke (1 fate point each, comma-separated)",
        required=False,
        max_length=600,
    )
    bonuses = forms.CharField(label="Bonuses (e.g. 2, 1)", required=False, max_length=60)
    penalties = forms.CharField(label="Penalties (e.g. 2)", required=False, max_length=60)
    descriptive = forms.CharField(
        label="Descriptive bonuses: good plan, good tools … (comma-separated)", required=False, max_length=300
    )
    bonus_dice = forms.IntegerField(label="Bonus dice (GM ruling)", min_value=0, max_value=6, initial=0)
    penalty_dice = forms.IntegerField(label="Penalty dice (GM ruling)", min_value=0, max_value=6, initial=0)
    helper = forms.CharField(label="Helper's name", required=False, max_length=120)
    helper_dice = forms.CharField(label="Helper's kept dice (e.g. 2 4 6)", required=False, max_length=30)
    helper_total = forms.IntegerField(label="Helper's total", required=False, min_value=-30, max_value=60)
    hurry = forms.ChoiceField(
        label="Hurry",
        required=False,
        choices=(("", "no hurry"),)
        + tuple((mode, f"{mode}: {data['summary']}") for mode, data in HURRY_MODES.items()),
    )
    hurry_text = forms.CharField(label="What is guaranteed or given up", required=False, max_length=120)
    purpose = forms.CharField(label="What for", required=False, max_length=120)

    def __init__(self, *args, sheet: dict, substitutions: list[dict] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.aspect_rows = [a for a in sheet["aspects"] if a["text"]]
        self.campaign_aspects = list(sheet["campaign_aspects"])
        self.fields["role"].choices = [
            (r["key"], f"{r['name']} {r['modifier_text']} ({r['rank_name']})")
            for r in sheet["roles"]
            if r["rank"]
        ]
        self.fields["instead_of"].choices = [("", "—")] + [
            (s["instead_of"], f"{s['instead_of']} ({s['benefit']}: {s['role']})") for s in substitutions
        ]
        if not substitutions:
            del self.fields["instead_of"]
        for row in self.aspect_rows:
            self.fields[f"aspect_{row['slot']}"] = forms.ChoiceField(
                label=f"{row['text']} ({row['label']})", required=False, choices=ASPECT_CHOICES
            )
        for index, text in enumerate(self.campaign_aspects):
            self.fields[f"campaign_{index}"] = forms.ChoiceField(
                label=f"{text} (campaign aspect)", required=False, choices=CAMPAIGN_ASPECT_CHOICES
            )

    def aspect_fields(self):
        return [self[f"aspect_{row['slot']}"] for row in self.aspect_rows] + [
            self[f"campaign_{i}"] for i in range(len(self.campaign_aspects))
        ]

    def clean_bonuses(self):
        return _numbers(self.cleaned_data["bonuses"], "bonuses", negative=False)

    def clean_penalties(self):
        return _numbers(self.cleaned_data["penalties"], "penalties", negative=True)

    def clean_helper_dice(self):
        text = self.cleaned_data["helper_dice"]
        if not re.match(r"^[\s,1-6]*$", text or ""):
            raise forms.ValidationError("The helper's dice are three numbers from 1 to 6, e.g. 2 4 6.")
        return [int(d) for d in re.findall(r"[1-6]", text or "")]

    def clean(self):
        data = super().clean()
        if data.get("helper_dice") and data.get("helper_total") is None:
            self.add_error("helper_total", "Give the helper's total too.")
        if data.get("hurry") and not (data.get("hurry_text") or "").strip():
            self.add_error("hurry_text", "Say what is guaranteed or given up by hurrying.")
        return data

    def as_request(self) -> tuple[str, dict[str, Any], str | None, str]:
        """(role, engine request, instead_of, purpose)."""
        data = self.cleaned_data
        aspects = []
        for row in self.aspect_rows:
            use = data.get(f"aspect_{row['slot']}")
            if use:
                aspects.append({"aspect": row["slot"], "source": "own", "use": use})
        for index, text in enumerate(self.campaign_aspects):
            if data.get(f"campaign_{index}"):
                aspects.append({"aspect": text, "source": "campaign", "use": "invoke"})
        for text in _list(data.get("other_aspects", "")):
            aspects.append({"aspect": text, "source": "opponent", "use": "invoke"})
        request: dict[str, Any] = {
            "bonuses": data["bonuses"],
            "penalties": data["penalties"],
            "descriptive": _list(data.get("descriptive", "")),
            "bonus_dice": data.get("bonus_dice") or 0,
            "penalty_dice": data.get("penalty_dice") or 0,
            "aspects": aspects,
        }
        if data.get("helper_dice"):
            request["help"] = [
                {
                    "helper": data.get("helper") or "Helper",
                    "kept": data["helper_dice"],
                    "total": data["helper_total"],
                }
            ]
        if data.get("hurry"):
            request["hurry"] = {"mode": data["hurry"], "text": data["hurry_text"]}
        return data["role"], request, data.get("instead_of") or None, data.get("purpose", "")

    @staticmethod
    def field_for(engine_field: str) -> str | None:
        """The form field an engine violation belongs to."""
        head = engine_field.split(".")[0]
        return {
            "help": "helper_dice",
            "hurry": "hurry_text",
            "role": "role",
            "instead_of": "instead_of",
            "bonuses": "bonuses",
            "penalties": "penalties",
            "bonus_dice": "bonus_dice",
            "penalty_dice": "penalty_dice",
            "descriptive": "descriptive",
        }.get(head)


class FateGainForm(forms.Form):
    reason = forms.ChoiceField(
        label="Why the agent gains a fate point",
        choices=[
            (key, text) for key, text in FATE_GAIN_REASONS.items() if key != "penalty_die_from_own_aspect"
        ],
    )
    note = forms.CharField(label="Note", required=False, max_length=120)


# -- conflicts -----------------------------------------------------------------------------------
LEVEL_CHOICES = (("decisive", "no cap"), ("edge", "capped at Edge (lacks what it needs)"))


class ConflictForm(forms.Form):
    title = forms.CharField(label="Title", max_length=120)
    scene_aspects = forms.CharField(label="Scene aspects (comma-separated)", required=False, max_length=600)
    a_name = forms.CharField(label="Side A: name", max_length=120)
    a_characters = forms.MultipleChoiceField(
        label="Side A: agents", required=False, widget=forms.CheckboxSelectMultiple
    )
    a_npcs = forms.CharField(label="Side A: NPCs (comma-separated)", required=False, max_length=600)
    a_superiority = forms.IntegerField(label="Side A: superiority", min_value=0, max_value=3, initial=0)
    a_cap = forms.ChoiceField(label="Side A: cap", choices=LEVEL_CHOICES)
    b_name = forms.CharField(label="Side B: name", max_length=120)
    b_characters = forms.MultipleChoiceField(
        label="Side B: agents", required=False, widget=forms.CheckboxSelectMultiple
    )
    b_npcs = forms.CharField(label="Side B: NPCs (comma-separated)", required=False, max_length=600)
    b_controlled_by = forms.ChoiceField(
        label="Side B is run by", choices=(("gm", "the GM"), ("player", "the players"))
    )
    b_superiority = forms.IntegerField(label="Side B: superiority", min_value=0, max_value=3, initial=0)
    b_cap = forms.ChoiceField(label="Side B: cap", choices=LEVEL_CHOICES)

    def __init__(self, *args, agents=(), **kwargs):
        super().__init__(*args, **kwargs)
        options = [(str(a.pk), a.name) for a in agents]
        self.fields["a_characters"].choices = options
        self.fields["b_characters"].choices = options

    def as_data(self) -> dict[str, Any]:
        d = self.cleaned_data
        sides = []
        for key in ("a", "b"):
            sides.append(
                {
                    "name": d[f"{key}_name"],
                    "characters": [int(i) for i in d[f"{key}_characters"]],
                    "npcs": _list(d[f"{key}_npcs"]),
                    "controlled_by": "player" if key == "a" else d["b_controlled_by"],
                    "superiority": d[f"{key}_superiority"],
                    "max_level": d[f"{key}_cap"],
                }
            )
        return {"title": d["title"], "scene_aspects": _list(d["scene_aspects"]), "sides": sides}


SPEND_CHOICES = tuple(
    (f"{tier}:{benefit}", f"{TEMPO_NAMES[tier]}: {text}")
    for tier, benefits in SPEND_BENEFITS.items()
    for benefit, text in benefits.items()
)
