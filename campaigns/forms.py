from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from characters.systems import SettingSpec, all_systems
from characters.systems.dice import ROLLER_KINDS


def system_choices() -> list[tuple[str, str]]:
    choices = []
    for system in all_systems():
        if system.modules:
            choices += [(f"{system.key}:{m}", f"{system.label} ({m.title()})") for m in system.modules]
        else:
            choices.append((system.key, system.label))
    return choices


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120, label="Campaign name")
    system = forms.ChoiceField(label="Game system", choices=())
    description = forms.CharField(
        max_length=5000, required=False, widget=forms.Textarea(attrs={"rows": 3}), label="Description"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = system_choices()

    def system_and_module(self) -> tuple[str, str]:
        key, _, module = self.cleaned_data["system"].partition(":")
        return key, module


def settings_form_class(specs: tuple[SettingSpec, ...]) -> type[forms.Form]:
    """A form for a system's campaign settings, one field per SettingSpec."""
    fields: dict[str, forms.Field] = {}
    for spec in specs:
        common = {"label": spec.label, "help_text": spec.help, "required": spec.kind != "bool"}
        if spec.kind == "bool":
            fields[spec.name] = forms.BooleanField(**common)
        elif spec.kind == "int":
            fields[spec.name] = forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum, **common)
        elif spec.kind == "choice":
            fields[spec.name] = forms.ChoiceField(choices=[(c, c) for c in spec.choices], **common)
        else:
            fields[spec.name] = forms.CharField(max_length=200, **common)
    return type("CampaignSettingsForm", (forms.Form,), fields)


class InvitationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=90, initial=7, label="Valid for (days)")
    max_uses = forms.IntegerField(
        min_value=1, max_value=100, required=False, label="Maximum uses (blank: any)"
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=[("gm", "Game master"), ("player", "Player"), ("observer", "Observer")])


class RollForm(forms.Form):
    kind = forms.ChoiceField(label="Dice", choices=[(k, v["label"]) for k, v in ROLLER_KINDS.items()])
    count = forms.IntegerField(label="How many (extra dice for 3d6)", min_value=0, max_value=30, initial=1)
    modifier = forms.IntegerField(label="Modifier", min_value=-1000, max_value=1000, initial=0)
    purpose = forms.CharField(label="What for", max_length=200, required=False)
    mission = forms.TypedChoiceField(label="Mission", coerce=int, required=False, empty_value=None)
    character = forms.TypedChoiceField(label="Character", coerce=int, required=False, empty_value=None)
    secret = forms.BooleanField(label="Secret (only GMs see it)", required=False)

    def __init__(self, *args, missions=(), characters=(), can_roll_secret=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["mission"].choices = [("", "—")] + [(m.pk, m.title) for m in missions]
        self.fields["character"].choices = [("", "—")] + [(c.pk, c.name) for c in characters]
        if not can_roll_secret:
            del self.fields["secret"]
