"""Forms of the TIMEMASTER agent builder's steps (wizard.py). They only collect input: the engine
checks the rules, and its violations are attached to the field they name
(characters.forms.attach_violations)."""

from __future__ import annotations

from django import forms

from systems.timemaster.engine import tables as tm

NUMBER_COUNT = tm.ABILITY_COUNT


class ManualAbilitiesForm(forms.Form):
    """Eight numbers rolled with real dice at the table."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for index in range(NUMBER_COUNT):
            self.fields[f"number_{index}"] = forms.IntegerField(
                label=f"Number {index + 1}", min_value=-9999, max_value=9999
            )

    def values(self) -> list[int]:
        return [self.cleaned_data[f"number_{i}"] for i in range(NUMBER_COUNT)]


class AssignForm(forms.Form):
    """Which of the eight numbers goes to which Basic Ability."""

    def __init__(self, *args, numbers: list[int] = (), **kwargs):
        super().__init__(*args, **kwargs)
        options = [(str(n), str(n)) for n in sorted(set(numbers), reverse=True)]
        for code in tm.ABILITY_CODES:
            self.fields[code] = forms.TypedChoiceField(
                label=f"{tm.ABILITY_NAMES[code]} ({code})", choices=options, coerce=int
            )

    def assignment(self) -> dict[str, int]:
        return {code: self.cleaned_data[code] for code in tm.ABILITY_CODES}


class BackgroundForm(forms.Form):
    name = forms.CharField(label="Agent's name", max_length=200)
    player = forms.CharField(label="Player", max_length=120, required=False)
    birth_year = forms.IntegerField(
        label="Year of birth",
        help_text="Negative for B.C. (e.g. -44); there is no year 0.",
        min_value=-99999,
        max_value=99999,
    )
    birth_place = forms.CharField(label="Place of birth", max_length=200, required=False)
    age_at_recruitment = forms.IntegerField(label="Age at recruitment", min_value=-999, max_value=9999)
    sex = forms.ChoiceField(
        label="Sex", choices=[("", "—")] + [(s, s.title()) for s in tm.SEXES], required=False
    )
    nationality = forms.CharField(label="Nationality", max_length=200, required=False)
    profession = forms.CharField(label="Profession", max_length=200, required=False)
    education = forms.CharField(label="Education", max_length=200, required=False)
    reputation = forms.CharField(label="Reputation", max_length=200, required=False)
    height = forms.CharField(label="Height", max_length=40, required=False, help_text="e.g. 5'10\" or 178 cm")
    weight = forms.CharField(label="Weight", max_length=40, required=False, help_text="e.g. 160 lb or 72 kg")
    eyes = forms.CharField(label="Eyes", max_length=60, required=False)
    hair = forms.CharField(label="Hair", max_length=60, required=False)
    native_parallel = forms.CharField(label="Native Parallel", max_length=40, required=False, initial="T-0")
    era_americas = forms.BooleanField(label="Born in the Americas", required=False)
    era_oriental = forms.BooleanField(label="East Asian culture", required=False)
    era_city = forms.BooleanField(label="Grew up in a town or city", required=False)
    era_writing = forms.BooleanField(label="Literate culture", required=False)

    TEXT = ("birth_place", "nationality", "profession", "education", "reputation", "eyes", "hair")
    ERA = ("americas", "oriental", "city", "writing")

    @classmethod
    def initial_from(cls, choices: dict) -> dict:
        background = choices.get("background") if isinstance(choices.get("background"), dict) else {}
        initial = {"name": choices.get("name", ""), "player": choices.get("player", "")}
        for key in (
            *cls.TEXT,
            "birth_year",
            "age_at_recruitment",
            "sex",
            "height",
            "weight",
            "native_parallel",
        ):
            if key in background:
                initial[key] = background[key]
        era = background.get("native_era") if isinstance(background.get("native_era"), dict) else {}
        for flag in cls.ERA:
            initial[f"era_{flag}"] = bool(era.get(flag))
        return initial

    def as_choices(self) -> dict:
        data = self.cleaned_data
        background = {
            "birth_year": data["birth_year"],
            "age_at_recruitment": data["age_at_recruitment"],
            "birth_place": data["birth_place"],
            "native_era": {flag: data[f"era_{flag}"] for flag in self.ERA},
        }
        for key in (*self.TEXT[1:], "sex", "height", "weight", "native_parallel"):
            if data.get(key):
                background[key] = data[key]
        return {"name": data["name"], "player": data["player"], "background": background}

    @staticmethod
    def field_for(engine_field: str) -> str | None:
        head, _, rest = engine_field.partition(".")
        if head == "background" and rest:
            key = rest.split(".")[0]
            return f"era_{rest.split('.')[1]}" if key == "native_era" and "." in rest else key
        return head or None


def _skill_label(key: str) -> str:
    skill = tm.SKILLS[key]
    return f"{skill['name']} — {skill['base_formula']} ({skill['era']})"


def creation_skill_choices() -> list[tuple[str, str]]:
    """Skills a new agent may choose: not the automatic two, none that needs another skill first."""
    return [("", "—")] + [
        (key, _skill_label(key))
        for key, skill in tm.SKILLS.items()
        if key not in tm.AUTOMATIC_SKILLS and not skill["prerequisite"]
    ]


class SkillsForm(forms.Form):
    skill_1 = forms.ChoiceField(label="First skill", required=False)
    skill_2 = forms.ChoiceField(label="Second skill", required=False)
    profession_skill = forms.ChoiceField(
        label="Which one goes with the profession?",
        required=False,
        choices=[("", "Neither (no profession)"), ("1", "The first skill"), ("2", "The second skill")],
    )
    culture_1 = forms.CharField(label="Historical Specialty: first culture", max_length=100, required=False)
    culture_2 = forms.CharField(label="Historical Specialty: second culture", max_length=100, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        options = creation_skill_choices()
        self.fields["skill_1"].choices = options
        self.fields["skill_2"].choices = options

    @staticmethod
    def initial_from(choices: dict) -> dict:
        chosen = choices.get("skills") if isinstance(choices.get("skills"), list) else []
        cultures = (choices.get("historical_specialty") or {}).get("cultures") or []
        initial = {f"skill_{i + 1}": key for i, key in enumerate(chosen[:2])}
        initial.update({f"culture_{i + 1}": c for i, c in enumerate(cultures[:2])})
        if choices.get("profession_skill") in chosen[:2]:
            initial["profession_skill"] = str(chosen.index(choices["profession_skill"]) + 1)
        return initial

    def as_choices(self) -> dict:
        data = self.cleaned_data
        chosen = [data[f"skill_{i}"] for i in (1, 2) if data[f"skill_{i}"]]
        which = data["profession_skill"]
        profession_skill = data.get(f"skill_{which}") or None if which else None
        cultures = [data[f"culture_{i}"].strip() for i in (1, 2) if data[f"culture_{i}"].strip()]
        return {
            "skills": chosen,
            "profession_skill": profession_skill,
            "historical_specialty": {"cultures": cultures},
        }

    def field_for(self, engine_field: str) -> str | None:
        head, _, rest = engine_field.partition(".")
        if head == "skills" and rest == "profession":
            return "profession_skill"
        if head == "skills" and rest:
            for name in ("skill_1", "skill_2"):
                if self.cleaned_data.get(name) == rest.split(".")[0]:
                    return name
            return None
        if head == "historical_specialty":
            return "culture_1"
        if head == "profession_skill":
            return "profession_skill"
        return "skill_1" if head == "skills" else None


class TalentForm(forms.Form):
    talent = forms.ChoiceField(label="Paranormal talent", widget=forms.RadioSelect)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["talent"].choices = [
            (
                key,
                f"{tm.TALENTS[key]['name']} — score {tm.TALENTS[key]['formula']}, "
                f"costs {tm.TALENTS[key]['willpower_cost']} Willpower",
            )
            for key in tm.HUMAN_TALENTS
            if key != tm.PARANORMAL_MEMORY
        ]
