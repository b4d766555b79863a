"""The toy system's builder: a name and a knack, then the platform's review (characters/builder.py
runs the flow: this module declares the steps, their forms and what the review shows)."""

from __future__ import annotations

from django import forms

from characters import access, builder, services
from characters.forms import attach_violations
from characters.systems import get_system

STEPS = (("hero", "Hero"), ("review", "Review"))
TEMPLATES = "characters/toy"
WELCOME = "{name} is ready to play."
PREVIEW_SEED = None  # the toy engine draws nothing


class HeroForm(forms.Form):
    name = forms.CharField(label="Hero's name", max_length=120)
    player = forms.CharField(label="Player", max_length=120, required=False)
    knack = forms.TypedChoiceField(label="Knack", choices=[(n, str(n)) for n in (1, 2, 3)], coerce=int)


def step_of(field: str) -> str:
    return "hero"


def first_open_step(character) -> str:
    return "review" if not _problems(character.choices) else "hero"


def _problems(choices: dict) -> list:
    system = get_system("toy")
    return system.validate(system.new_build(choices, None))  # type: ignore[arg-type]


def step_hero(request, character, membership):
    initial = services.with_defaults(character, {k: character.choices.get(k) for k in ("name", "knack")})
    form = HeroForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            character = services.update_draft(
                character, dict(form.cleaned_data), is_gm=membership.role == access.GM
            )
            problems = _problems(character.choices)
            attach_violations(form, problems, lambda field: field)
            if not problems:
                return builder.next_step(character, "hero")
    return builder.render(request, character, membership, "hero", status=status, form=form)
