"""The character builder's flow, the same for every system: steps in order, each step's page, the
review that finalizes the draft, and where a draft resumes. A system's builder module (its
``wizard.py``, SystemApp.wizard) declares only what is its own:

- ``STEPS``: ((key, label), ...) in order, the last one ``("review", ...)``;
- ``TEMPLATES``: the template folder of its steps (``<TEMPLATES>/<step>.html``);
- ``step_<key>(request, character, membership)`` for every step but the review: the step's page,
  drawn with ``render`` and moving on with ``next_step``;
- ``first_open_step(character)``: the step a draft resumes at;
- ``step_of(field)``: the step that fixes a build field the engine names (the review links it);
- ``WELCOME``: the message when the review finalizes (``{name}`` is the character's name);
- optional ``context(character) -> dict``: what every step's page shows besides the platform's;
- optional ``review(character, build) -> dict``: what the review shows of the build the draft
  makes (default: the engine's sheet fields as ``sheet``);
- optional ``PREVIEW_SEED``: the seed of the random numbers the review's preview uses (0; None
  for an engine that draws none).
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.shortcuts import render as render_page
from django.urls import reverse

from characters import access, registry, services, wizard_review

REVIEW = "review"


def builder_of(system: str) -> ModuleType:
    """The builder module of an installed system (Http404 when it has none)."""
    try:
        return registry.Wizards()[system]
    except KeyError:
        raise Http404("This system has no web builder.") from None


def step_keys(wizard: ModuleType) -> tuple[str, ...]:
    return tuple(key for key, _ in wizard.STEPS)


def context(character, membership, step: str, **extra: Any) -> dict[str, Any]:
    """What every step's page gets: the character, its campaign, the steps and where we are, and
    the system's own ``context(character)``."""
    wizard = builder_of(character.system)
    own = wizard.context(character) if hasattr(wizard, "context") else {}
    return {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "steps": wizard.STEPS,
        "step": step,
        "is_gm": membership.role == access.GM,
        **own,
        **extra,
    }


def render(
    request, character, membership, step: str, status: int = 200, template: str = "", **extra: Any
) -> HttpResponse:
    """A step's page: ``<TEMPLATES>/<step>.html`` (or ``template``) with the step's context."""
    wizard = builder_of(character.system)
    page = template or f"{wizard.TEMPLATES}/{step}.html"
    return render_page(request, page, context(character, membership, step, **extra), status=status)


def next_step(character, step: str) -> HttpResponse:
    """On to the step after ``step``."""
    keys = step_keys(builder_of(character.system))
    return redirect("character-wizard-step", character.pk, keys[keys.index(step) + 1])


def review(request, character, membership) -> HttpResponse:
    """The last step: POST finalizes (to the character page, with the system's WELCOME); else the
    build the draft would make, or what stands in its way, each problem linked to its step."""
    wizard = builder_of(character.system)
    done, status, refusals = wizard_review.finalize_on_post(request, character, membership, wizard.WELCOME)
    if done:
        return done
    seed = getattr(wizard, "PREVIEW_SEED", 0)
    rng = random.Random(seed) if seed is not None else None
    build, problems = wizard_review.preview(character, rng, wizard.step_of, wizard.STEPS)
    shown: dict[str, Any] = {}
    if build is not None:
        shown = (
            wizard.review(character, build)
            if hasattr(wizard, "review")
            else {"sheet": services.system_of(character.system).sheet(build).fields}
        )
    extra = {"refusals": refusals, "problems": problems, "sheet": None, **shown}
    return render(request, character, membership, REVIEW, status=status, **extra)


def wizard_step(request, character, membership, step: str) -> HttpResponse:
    """The page of one step of the character's builder."""
    wizard = builder_of(character.system)
    if step not in step_keys(wizard):  # views.character_wizard answers unknown steps first
        raise Http404("No such step.")
    if step == REVIEW:
        return review(request, character, membership)
    view = getattr(wizard, f"step_{step}")
    response: HttpResponse = view(request, character, membership)
    return response


def resume_url(character) -> str:
    """Where a draft is taken up again: the first step its system's engine still finds fault with."""
    step = builder_of(character.system).first_open_step(character)
    return reverse("character-wizard-step", args=[character.pk, step])
