"""The state of a character's printable sheet on pages outside the sheets app (issue 20: "Show the
render's state on the page"). A template tag, so the characters app, below sheets in the layers,
imports nothing from it: its template loads this library."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.conf import settings
from django.utils import timezone

from sheets import access
from sheets.models import SheetKind, SheetRender
from sheets.services import PAPERS, POLL_SECONDS, default_paper

register = template.Library()


@register.inclusion_tag("sheets/_character_sheet_status.html")
def character_sheet_status(character, user, membership):
    """The newest render of the character's current revision that this user may read (the
    background render asks for one per paper size), shown as the sheets page shows a render:
    queued, rendering (polling until done), ready with its download, or failed; before the
    background render has asked for one, "being prepared" (polling until it has)."""
    return sheet_status_context(character, user, membership)


def sheet_status_context(character, user, membership) -> dict:
    renders = (
        SheetRender.objects.filter(kind=SheetKind.CHARACTER, character=character, revision=character.revision)
        .select_related("character")
        .order_by("-queued_at", "-id")[:4]
    )
    paper = default_paper(character.campaign, user)
    readable = [r for r in renders if access.may_read(r, user, membership)]
    # the copy on the campaign's paper first (the background render makes one of each size)
    render = next((r for r in readable if (r.snapshot or {}).get("paper") == paper), None) or next(
        iter(readable), None
    )
    # The background render is asked for SHEET_PRERENDER_DEBOUNCE_SECONDS after a change; until it
    # is (and a little while after, should the worker be slow to pick it up) the box says so and
    # asks again; after that it offers the print button alone.
    # The other paper too (issue 44, walk point 17: the box offered the campaign's paper alone, where
    # the sheets page offers both): its download once made, and a print button for a paper not yet
    # made, the campaign's first.
    done = {}
    for r in readable:
        done.setdefault((r.snapshot or {}).get("paper"), r if r.status == "done" else None)
    others = [done[p] for p in PAPERS if p != paper and done.get(p) is not None]
    other = next((r for r in others if r is not render), None)
    to_print = [p for p in (paper, *PAPERS) if done.get(p) is None]
    expect_until = character.updated_at + timedelta(seconds=settings.SHEET_PRERENDER_DEBOUNCE_SECONDS + 30)
    return {
        # Only the owner and the GM print a character's sheet: others see no section at all.
        "shown": membership.is_gm or character.owner_id == user.id,
        "render": render,
        "preparing": render is None and timezone.now() < expect_until,
        "character": character,
        "campaign": character.campaign,
        "poll_seconds": POLL_SECONDS,
        "paper": paper,
        "papers": list(dict.fromkeys(to_print)),
        "other": other,
    }
