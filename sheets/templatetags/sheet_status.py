"""The state of a character's printable sheet on pages outside the sheets app (issue 20: "Show the
render's state on the page"). A template tag, so the characters app, below sheets in the layers,
imports nothing from it: its template loads this library."""

from __future__ import annotations

from django import template

from sheets import access
from sheets.models import SheetKind, SheetRender
from sheets.views import POLL_SECONDS

register = template.Library()


@register.inclusion_tag("sheets/_character_sheet_status.html")
def character_sheet_status(character, user, membership):
    """The newest render of the character's current revision that this user may read (the
    background render asks for one per paper size), shown as the sheets page shows a render:
    queued, rendering (polling until done), ready with its download, or failed."""
    renders = (
        SheetRender.objects.filter(kind=SheetKind.CHARACTER, character=character, revision=character.revision)
        .select_related("character")
        .order_by("-queued_at", "-id")[:4]
    )
    render = next((r for r in renders if access.may_read(r, user, membership)), None)
    return {
        # Only the owner and the GM print a character's sheet: others see no section at all.
        "shown": membership.is_gm or character.owner_id == user.id,
        "render": render,
        "character": character,
        "campaign": character.campaign,
        "poll_seconds": POLL_SECONDS,
    }
