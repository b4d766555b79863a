from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from campaigns.models import PAPER_CHOICES, time_zone_label, time_zone_names
from characters import display_names
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


#: The settings form's field for the paper the group prints on (Campaign.paper, not a system setting).
PAPER_FIELD = "print_paper"
#: The settings form's fields for where the group plays and whether a roll starts a play session
#: (Campaign.time_zone and Campaign.sessions_start_on_roll: the platform's, not a system's).
TIME_ZONE_FIELD = "group_time_zone"
AUTOSTART_FIELD = "group_sessions_start_on_roll"
#: The form's fields that are the campaign's own columns, by the column each one writes.
PLATFORM_FIELDS = {
    PAPER_FIELD: "paper",
    TIME_ZONE_FIELD: "time_zone",
    AUTOSTART_FIELD: "sessions_start_on_roll",
}


def platform_initial(campaign) -> dict:
    return {field: getattr(campaign, column) for field, column in PLATFORM_FIELDS.items()}


def settings_form_class(
    specs: tuple[SettingSpec, ...], system: str = "", with_paper: bool = False
) -> type[forms.Form]:
    """A form for a system's campaign settings, one field per SettingSpec, choices and help in the
    system's display names (characters/display_names.py); ``with_paper`` adds the print paper."""
    fields: dict[str, forms.Field] = {}
    if with_paper:
        fields[PAPER_FIELD] = forms.ChoiceField(
            label="Paper the group prints on",
            choices=PAPER_CHOICES,
            help_text="The print buttons start on it; either size can still be chosen for each print.",
        )
        fields[TIME_ZONE_FIELD] = forms.ChoiceField(
            label="The group's time zone",
            choices=[(name, time_zone_label(name)) for name in time_zone_names()],
            help_text="A day of play starts at midnight here: play sessions are dated by it.",
        )
        fields[AUTOSTART_FIELD] = forms.BooleanField(
            label="The first roll of a day starts a play session",
            required=False,
            help_text=(
                "When no session is under way and none has started that day, the first roll the "
                "whole table knows of starts one: a secret roll the players are told of counts, one "
                "kept from them does not. The game master can still start and end them by hand."
            ),
        )
    for spec in specs:
        help_text = display_names.setting_help(system, spec)
        common = {"label": spec.label, "help_text": help_text, "required": spec.kind != "bool"}
        if spec.kind == "bool":
            fields[spec.name] = forms.BooleanField(**common)
        elif spec.kind == "int":
            fields[spec.name] = forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum, **common)
        elif spec.kind == "choice":
            fields[spec.name] = forms.ChoiceField(choices=display_names.choices(system, spec), **common)
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
    secret = forms.BooleanField(label="Secret (the table sees only that it was made)", required=False)

    def __init__(self, *args, missions=(), characters=(), can_roll_secret=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["mission"].choices = [("", "—")] + [(m.pk, m.title) for m in missions]
        self.fields["character"].choices = [("", "—")] + [(c.pk, c.name) for c in characters]
        if not can_roll_secret:
            del self.fields["secret"]


class NPCForm(forms.Form):
    """A GM's NPC form. With ``rules`` (the system's NPC adapter from npc_services) it also has the
    statistics; blank Abilities take the quick default of the kind, checked by the engine."""

    name = forms.CharField(max_length=120, label="Name")
    public_description = forms.CharField(
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Public description",
        help_text="Players see this (and the name) once you reveal the NPC.",
    )
    gm_notes = forms.CharField(
        max_length=20000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="GM notes",
        help_text="Only game masters ever see these.",
    )
    revealed = forms.BooleanField(required=False, label="Revealed to players")

    SKILL_ROWS_FREE = 3  # empty skill rows offered beyond the NPC's current skills
    SKILL_ROWS_MIN = 4
    SKILL_ROWS_MAX = 70  # more than the chart has skills: a hand-made POST cannot grow the form

    def __init__(self, *args, rules=None, creating: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.skill_row_count = 0
        if rules is None:
            return
        self.fields["quick"] = forms.BooleanField(
            required=False,
            label="Quick NPC",
            help_text="Blank Abilities and significance take the quick defaults of the kind "
            "(a human's significance is rolled on 1d10; a Demorean gets its talents).",
        )
        self.fields["kind"] = forms.ChoiceField(label="Kind", choices=[(k, k.title()) for k in rules.kinds])
        for code, name in rules.ability_names.items():
            self.fields[f"ability_{code}"] = forms.IntegerField(
                label=name, required=False, min_value=0, max_value=1000, help_text="Blank: quick default."
            )
        self.fields["significance_rating"] = forms.IntegerField(
            label="Significance rating",
            required=False,
            help_text="Human 1 to 500; a Demorean's is always 0."
            + ("" if creating else " Blank keeps the current rating."),
        )
        self.fields["status_rating"] = forms.IntegerField(
            label="Status rating", required=False, help_text="Optional: 1 to 5 for an NPC with power."
        )
        self._add_skill_rows(rules)
        self.fields["talents"] = forms.MultipleChoiceField(
            label="Paranormal talents",
            required=False,
            choices=rules.talent_choices(),
            widget=forms.CheckboxSelectMultiple,
            help_text="Humans take human talents, Demoreans Demorean ones. A quick Demorean with "
            "none ticked gets all of its kind.",
        )

    def _add_skill_rows(self, rules) -> None:
        """Pairs of selects (skill from the chart, level): the NPC's skills plus a few free rows."""
        source = self.data if self.is_bound else self.initial
        used = [
            int(name.removeprefix("skill_"))
            for name in source
            if name.startswith("skill_") and name.removeprefix("skill_").isdigit()
        ]
        wanted = max(
            [self.SKILL_ROWS_MIN, *((i + 1 + (0 if self.is_bound else self.SKILL_ROWS_FREE)) for i in used)]
        )
        self.skill_row_count = min(wanted, self.SKILL_ROWS_MAX)
        levels = [("", "—")] + list(rules.skill_levels.items())
        for index in range(self.skill_row_count):
            self.fields[f"skill_{index}"] = forms.ChoiceField(
                label=f"Skill {index + 1}", required=False, choices=[("", "—"), *rules.skill_choices()]
            )
            self.fields[f"level_{index}"] = forms.ChoiceField(
                label=f"Level of skill {index + 1}", required=False, choices=levels
            )

    TEXT_FIELDS = ("name", "public_description", "gm_notes", "revealed")

    def _is_catalogue_field(self, name: str) -> bool:
        return name == "talents" or name.startswith(("skill_", "level_"))

    def text_fields(self):
        return [self[name] for name in self.TEXT_FIELDS]

    def statistics_fields(self):
        """The GM-only scores, in the form's order (empty without NPC rules); skills and talents
        have their own parts of the form."""
        return [self[n] for n in self.fields if n not in self.TEXT_FIELDS and not self._is_catalogue_field(n)]

    def skill_rows(self):
        return [(self[f"skill_{i}"], self[f"level_{i}"]) for i in range(self.skill_row_count)]

    def clean(self):
        data = super().clean()
        if self.rules is None:
            return data
        seen: dict[str, int] = {}
        for index in range(self.skill_row_count):
            skill, level = data.get(f"skill_{index}"), data.get(f"level_{index}")
            if skill and not level:
                self.add_error(f"level_{index}", "Choose Specialist, Expert or Master for this skill.")
            elif level and not skill:
                self.add_error(f"skill_{index}", "Choose the skill this level is for.")
            elif skill in seen:
                self.add_error(f"skill_{index}", f"This skill is already in row {seen[skill] + 1}.")
            if skill:
                seen.setdefault(skill, index)
        return data

    def field_for_problem(self, field: str) -> str | None:
        """The form field an engine problem names (``abilities.STR``, ``skills.boxing.level``,
        ``talents.shock``), or None for the form as a whole."""
        head, _, rest = field.partition(".")
        if head == "abilities" and f"ability_{rest}" in self.fields:
            return f"ability_{rest}"
        if head == "skills" and self.is_bound and hasattr(self, "cleaned_data"):
            key = rest.partition(".")[0]
            for index in range(self.skill_row_count):
                if self.cleaned_data.get(f"skill_{index}") == key:
                    return f"skill_{index}"
        return head if head in self.fields else None

    @classmethod
    def initial_for(cls, npc) -> dict:
        initial = {
            "name": npc.name,
            "public_description": npc.public_description,
            "gm_notes": npc.gm_notes,
            "revealed": npc.revealed,
            "kind": npc.kind,
            "significance_rating": npc.significance_rating,
            "status_rating": npc.status_rating,
        }
        initial.update({f"ability_{code}": value for code, value in (npc.abilities or {}).items()})
        for index, (key, entry) in enumerate((npc.skills or {}).items()):
            initial[f"skill_{index}"] = key
            initial[f"level_{index}"] = entry.get("level", "") if isinstance(entry, dict) else ""
        initial["talents"] = list(npc.talents or [])
        return initial

    def service_data(self) -> dict:
        """The cleaned data in the shape npc_services takes."""
        data = self.cleaned_data
        out = {key: data[key] for key in ("name", "public_description", "gm_notes", "revealed")}
        if self.rules is None:
            return out
        out["quick"] = data["quick"]
        out["kind"] = data["kind"]
        abilities = {
            code: data[f"ability_{code}"]
            for code in self.rules.ability_names
            if data.get(f"ability_{code}") is not None
        }
        if abilities:
            out["abilities"] = abilities
        if data["significance_rating"] is not None:
            out["significance_rating"] = data["significance_rating"]
        out["status_rating"] = data["status_rating"]
        out["skills"] = {
            data[f"skill_{i}"]: {"level": data[f"level_{i}"]}
            for i in range(self.skill_row_count)
            if data.get(f"skill_{i}")
        }
        out["talents"] = list(data.get("talents") or [])
        return out


class PlaySessionForm(forms.Form):
    """A play session's title, date and who was there (the GM, starting or changing it)."""

    title = forms.CharField(label="Title", max_length=200, required=False)
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))
    attendees = forms.MultipleChoiceField(
        label="Who was there", required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attendees"].choices = [
            (str(m.user_id), f"{m.user.username} ({m.get_role_display().lower()})") for m in members
        ]


class NoteForm(forms.Form):
    """A note of a play session: Markdown, with [[mentions]] of characters, NPCs and missions."""

    title = forms.CharField(label="Title", max_length=200, required=False)
    body = forms.CharField(
        label="Note",
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Markdown. Name a character, NPC or mission in double brackets, [[like this]], to link it.",
    )
    visibility = forms.ChoiceField(label="Who may read it", widget=forms.RadioSelect)

    def __init__(self, *args, visibilities=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["visibility"].choices = list(visibilities)
        if visibilities and not self.initial.get("visibility"):
            self.initial["visibility"] = visibilities[0][0]
