"""The review step every system's builder ends with: finalize on POST, else preview the build."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect

from characters import access, services


def finalize_on_post(request, character, membership, welcome: str):
    """On POST, finalize the draft. Returns (response, status, refusals): a redirect to the
    character page when it worked (with ``welcome`` as the message, ``{name}`` filled in); else no
    response, 400 after a refused POST, and the reasons in the engine's words."""
    if request.method != "POST":
        return None, 200, []
    try:
        character = services.finalize(character, is_gm=membership.role == access.GM)
    except ValidationError as error:
        return None, 400, [m for field_messages in error.message_dict.values() for m in field_messages]
    messages.success(request, welcome.format(name=character.name))
    return redirect("character-detail", character.pk), 200, []


def preview(character, rng, step_of: Callable[[str], str] | None = None, steps=()):
    """(build, problems): the build finalizing would make, or what stands in its way, each problem
    with its field, message and (given ``step_of``) the step that fixes it, named as the builder
    names it (``steps``: the wizard's (key, label) pairs), never by the build's field code."""
    labels = dict(steps)
    try:
        return services.preview_build(character, rng), []
    except ValidationError as error:
        problems = []
        for field, field_messages in error.message_dict.items():
            for message in field_messages:
                problem = {"field": field, "message": message}
                if step_of is not None:
                    problem["step"] = step_of(field)
                    problem["step_label"] = labels.get(problem["step"], "")
                problems.append(problem)
        return None, problems
