"""The form on the character page that records one condition change (condition_services.record)."""

from __future__ import annotations

from typing import Any

from django import forms

from systems.timemaster import condition_services as cond
from systems.timemaster.engine import recovery
from systems.timemaster.engine.play_tables import UNKNOWN_LIMIT
from systems.timemaster.engine.tables import ARMOR, TALENTS

HOW = {"medical": "Two rounds of Medical treatment", "ignore_pain": "Ignore Pain succeeded"}
CAUSES = {
    "killing_shot": "Killing called shot while helpless",
    "fall_100_ft": "Fall of 100 ft or more",
    "poison": "Poison",
    "spacecraft": "Spacecraft destroyed",
    "other": "Another fatal event",
}


def _count(label: str, minimum: int = 0) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=minimum, max_value=UNKNOWN_LIMIT)


class ConditionEntryForm(forms.Form):
    # One radio a kind, each followed by the few fields that kind takes (kind_groups): the page
    # shows a kind's fields once it is chosen, in CSS alone (characters/condition/_panel.html).
    kind = forms.ChoiceField(label="What happened", widget=forms.RadioSelect)
    # Each shown under its event's radio, which already says "Rounds of rest" etc.: the labels say
    # what the number counts without repeating the event's name.
    rounds = _count("Rounds rested", 1)
    hours = _count("Hours slept", 1)
    days = _count("Days in bed", 1)
    medical_days = _count("… of them with Medical care (check passed)")
    stamina = _count("Stamina lost")
    wounds = _count("Wounds to mark")
    willpower = _count("Willpower lost")
    source = forms.CharField(label="Source of the damage", max_length=200, required=False)
    armor = forms.MultipleChoiceField(
        label="Armor worn (a fresh suit: nothing crumpled)",
        required=False,
        choices=[(k, f"{v['name']} (AR {v['ar']})") for k, v in ARMOR.items()],
        widget=forms.CheckboxSelectMultiple,
    )
    points = forms.TypedChoiceField(
        label="Luck points", coerce=int, required=False, choices=[(1, "1"), (2, "2")]
    )
    how = forms.ChoiceField(label="Treatment", required=False, choices=list(HOW.items()))
    cause = forms.ChoiceField(label="Cause", required=False, choices=list(CAUSES.items()))
    talent = forms.ChoiceField(label="Talent used", required=False)
    extra_willpower = forms.IntegerField(
        label="Extra Willpower for the talent", required=False, min_value=0, max_value=20
    )
    reason = forms.CharField(label="Note (for the ledger)", max_length=500, required=False)
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args: Any, kinds: Any = (), talents: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind, cond.LABELS[kind]) for kind in kinds]
        # Only the fields of the kinds this member may record: a player's form shows no GM choice
        # (treatment, cause, damage and its source) it could not send (issue 49, point 6).
        used = {"kind", "reason", "revision"}
        for kind in kinds:
            used.update(recovery.FUNCTIONS[kind][1])
            if kind == "damage_taken":
                used.add("source")
        for name in [name for name in self.fields if name not in used]:
            del self.fields[name]
        self.fields["talent"].choices = [("", "—")] + [
            (key, TALENTS[key]["name"]) for key in talents if key in TALENTS
        ]

    def kind_groups(self) -> list[dict[str, Any]]:
        """Each kind's radio with the fields that kind takes, in the engine's order: the page lists
        the kinds and opens a kind's fields under it when it is chosen (finding 3 of issue 44: the
        few fields the chosen event needs, not all sixteen at once)."""
        radios = {str(radio.data["value"]): radio for radio in self["kind"]}
        groups = []
        for value, _label in self.fields["kind"].choices:
            names = recovery.FUNCTIONS[value][1] + (("source",) if value == "damage_taken" else ())
            groups.append(
                {
                    "kind": value,
                    "radio": radios[str(value)],
                    "fields": [self[name] for name in names if name in self.fields],
                }
            )
        return groups

    def entry_fields(self) -> dict[str, Any]:
        """Only the fields the chosen kind takes, as given (the engine says what is missing)."""
        kind = self.cleaned_data["kind"]
        names = recovery.FUNCTIONS[kind][1] + (("source",) if kind == "damage_taken" else ())
        out = {}
        for name in names:
            value = self.cleaned_data.get(name)  # None for a field this form does not have
            if value not in (None, ""):
                out[name] = value
        if kind == "armor_worn":
            out["armor"] = list(self.cleaned_data.get("armor") or [])
        if kind == "damage_taken":
            out.setdefault("stamina", 0)
            out.setdefault("wounds", 0)
        return out
