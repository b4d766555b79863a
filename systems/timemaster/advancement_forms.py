"""Forms of the TIMEMASTER advancement pages (shop, free pick, regulation violation, bonus points).

They only collect and type-check input; the rules are the engine's, and its refusals are put
next to the field they name by ``attach_errors``.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from systems.timemaster.engine import tables as tm
from systems.timemaster.engine.advancement_tables import (
    BONUS_SP_MAX_PER_SESSION,
    BONUS_SP_STEP,
    PUNISHMENTS,
    REGULATIONS,
    SP_COSTS,
)

YEAR_HELP = "Negative for B.C. (there is no year 0)."
MAX_REVISION = 2**31 - 1


def attach_errors(form: forms.Form, error: ValidationError, field_for: dict[str, str] | None = None) -> None:
    """A service's ValidationError next to the form fields it names (else at the top)."""
    field_for = field_for or {}
    for field, messages in error.message_dict.items():
        name = field_for.get(field, field)
        if name not in form.fields:
            tail = field.rsplit(".", 1)[-1]
            name = field_for.get(tail, tail)
        target = name if name in form.fields else None
        for message in messages:
            form.add_error(target, message)


class RevisionField(forms.IntegerField):
    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        super().__init__(required=False, min_value=1, max_value=MAX_REVISION, **kwargs)


class SpecialtyMixin(forms.Form):
    """Period and cultures of a further Historical Specialty."""

    start_year = forms.IntegerField(
        label="Specialty from year", required=False, min_value=-9999, max_value=9999, help_text=YEAR_HELP
    )
    end_year = forms.IntegerField(
        label="Specialty to year", required=False, min_value=-9999, max_value=9999, help_text=YEAR_HELP
    )
    cultures = forms.CharField(
        label="Cultures (at most two, comma-separated)", required=False, max_length=250
    )

    def specialty(self) -> dict:
        data = self.cleaned_data
        cultures = [c.strip() for c in (data.get("cultures") or "").split(",") if c.strip()]
        period = None
        if data.get("start_year") is not None and data.get("end_year") is not None:
            period = {"start_year": data["start_year"], "end_year": data["end_year"]}
        return {"period": period, "cultures": cultures}


class BuyForm(SpecialtyMixin):
    purchase = forms.ChoiceField(label="Purchase", choices=[(k, k) for k in SP_COSTS])
    skill = forms.CharField(label="Skill", required=False, max_length=80)
    talent = forms.CharField(label="Talent", required=False, max_length=80)
    ability = forms.CharField(label="Ability", required=False, max_length=10)
    revision = RevisionField()

    def target(self) -> dict:
        data = self.cleaned_data
        target = {k: data[k] or None for k in ("skill", "talent", "ability")}
        if data["purchase"] == "new_skill" and data.get("skill") == tm.HISTORICAL_SPECIALTY:
            target.update(self.specialty())
        return target


class FreePickForm(SpecialtyMixin):
    pick = forms.ChoiceField(label="Free skill or talent")
    revision = RevisionField()

    def __init__(self, *args, options: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        options = options or {"skills": [], "talents": []}
        skills = [(f"skill:{o['skill']}", o["name"]) for o in options["skills"] if o["allowed"]]
        talents = [(f"talent:{o['talent']}", o["name"]) for o in options["talents"] if o["allowed"]]
        self.fields["pick"].choices = [
            ("", "Choose ..."),
            ("Skills at Specialist", skills),
            ("Paranormal talents", talents),
        ]

    def choice(self) -> dict:
        kind, _, key = self.cleaned_data["pick"].partition(":")
        chosen = {"choice": kind, kind: key}
        if kind == "skill" and key == tm.HISTORICAL_SPECIALTY:
            chosen.update(self.specialty())
        return chosen


class ViolationForm(forms.Form):
    regulation = forms.TypedChoiceField(
        label="Regulation broken",
        coerce=int,
        choices=[("", "Choose ...")] + [(n, f"{n}. {name}") for n, name in REGULATIONS.items()],
    )
    punishment = forms.ChoiceField(
        label="Punishment",
        required=False,
        help_text="Leave on the ladder's step unless the ladder offers a choice or the judiciary changed it.",
    )
    mission = forms.ModelChoiceField(label="Mission", required=False, queryset=None, empty_label="(none)")
    note = forms.CharField(
        label="What happened", required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )
    judiciary_override = forms.BooleanField(
        label="The Corps judiciary set a different punishment", required=False
    )
    reason = forms.CharField(label="The judiciary's reason", required=False, max_length=500)
    revision = RevisionField()

    def __init__(self, *args, missions=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["mission"].queryset = missions
        self.fields["punishment"].choices = [("", "As the ladder says")] + [
            (key, spec["label"]) for key, spec in PUNISHMENTS.items()
        ]


class BonusForm(forms.Form):
    amount = forms.TypedChoiceField(
        label="Bonus Success Points",
        coerce=int,
        choices=[(n, str(n)) for n in range(BONUS_SP_STEP, BONUS_SP_MAX_PER_SESSION + 1, BONUS_SP_STEP)],
    )
    session = forms.CharField(
        label="Session",
        max_length=60,
        help_text="The play session, e.g. “Session 3” (or any date or number naming it).",
    )
    revision = RevisionField()
