"""The prints made during a play session, for its page (campaigns/chronicle/play_sessions.py SOURCES): each
reader sees the prints ``sheets.access.may_read`` lets them read, as the sheets pages do."""

from __future__ import annotations

from django.urls import reverse

from campaigns.chronicle.play_sessions import MAX_EACH, Happening
from sheets.access import may_read
from sheets.models import RenderStatus, SheetRender


def prints(campaign, user, membership, start, stop) -> list[Happening]:
    renders = (
        SheetRender.objects.filter(
            campaign=campaign, status=RenderStatus.DONE, queued_at__gte=start, queued_at__lte=stop
        )
        .select_related("character", "requested_by")
        .order_by("queued_at", "id")[: MAX_EACH * 4]
    )
    found = []
    for render in renders:
        if not may_read(render, user, membership):
            continue
        what = render.get_kind_display()
        if render.character is not None:
            what += f" of {render.character.name}"
        who = f" by {render.requested_by.username}" if render.requested_by else ""
        found.append(
            Happening(
                render.queued_at, "print", f"Printed: {what}{who}", reverse("sheet-render", args=[render.pk])
            )
        )
    return found[:MAX_EACH]
