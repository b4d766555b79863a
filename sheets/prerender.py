"""Render a character's sheet in the background when its revision changes, so a click on "print"
finds a stored PDF (issue 20, "Click to PDF is instant").

- The hook: ``post_save`` of a Character whose revision was saved (connected in SheetsConfig.ready,
  so the characters app knows nothing of sheets). After the commit it schedules one job.
- Debounced: the job runs SHEET_PRERENDER_DEBOUNCE_SECONDS later; edits in between schedule
  their own jobs, and every job whose revision is no longer the character's is dropped
  ("superseded"), so a burst of edits renders once, for the last revision.
- One job per character at a time: while a render of another revision of this character is queued
  or running, the job waits and tries again (the render row is the lock: no second store).
- The job only asks for the render through ``services.request_render``, exactly as a click does,
  for each paper size: the same content key, so the click gets this row back, already done.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import transaction

from sheets.models import RenderStatus, SheetKind, SheetRender

log = logging.getLogger(__name__)

#: Both paper sizes a player may print on.
PAPERS = ("letter", "a4")


def character_saved(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    """post_save of Character: schedule a prerender once the new revision is committed."""
    if created or (update_fields is not None and "revision" not in update_fields):
        return
    if instance.is_draft or not instance.build:
        return
    character_id, revision = instance.pk, instance.revision
    transaction.on_commit(lambda: _schedule_quietly(character_id, revision))


def _schedule_quietly(character_id: int, revision: int) -> None:
    """The edit is committed and must succeed whatever the broker does: a render that could not be
    scheduled only means the click renders it, as before."""
    try:
        schedule(character_id, revision)
    except Exception:  # noqa: BLE001 - the broker is down or unreachable
        log.warning("could not schedule the sheet prerender of character %s", character_id, exc_info=True)


def schedule(character_id: int, revision: int) -> None:
    prerender_character.apply_async(
        (character_id, revision), countdown=settings.SHEET_PRERENDER_DEBOUNCE_SECONDS
    )


def run_prerender(character_id: int, revision: int) -> str:
    """Ask for the sheets of this revision. Returns what happened (for logs, tests and the bench)."""
    from campaigns.models import Membership
    from characters.models import Character
    from sheets import services

    character = Character.objects.select_related("campaign", "owner").filter(pk=character_id).first()
    if character is None or character.is_draft or not character.build:
        return "gone"
    if character.revision != revision:
        return "superseded"  # a later edit scheduled its own job
    busy = SheetRender.objects.filter(
        kind=SheetKind.CHARACTER,
        character=character,
        status__in=(RenderStatus.QUEUED, RenderStatus.RUNNING),
    ).exclude(revision=revision)
    if busy.exists():
        schedule(character_id, revision)  # one at a time: after the one in progress
        return "deferred"
    membership = Membership.objects.filter(campaign=character.campaign, user=character.owner).first()
    if membership is None:
        return "gone"
    created = 0
    for paper in PAPERS:
        _, new = services.request_render(
            character.owner, SheetKind.CHARACTER, character.campaign, membership, character, paper
        )
        created += new
    return "requested" if created else "present"


@shared_task(name="sheets.prerender", acks_late=True, soft_time_limit=30, time_limit=60)
def prerender_character(character_id: int, revision: int) -> str:
    return run_prerender(int(character_id), int(revision))


def sheet_state(character) -> str:
    """The state of this revision's stored sheet, for the sheets page: ready, rendering, queued,
    failed or "" (nothing asked yet)."""
    render = (
        SheetRender.objects.filter(kind=SheetKind.CHARACTER, character=character, revision=character.revision)
        .order_by("-queued_at")
        .first()
    )
    if render is None:
        return ""
    return {
        RenderStatus.DONE: "ready",
        RenderStatus.RUNNING: "rendering",
        RenderStatus.QUEUED: "queued",
        RenderStatus.FAILED: "failed",
    }[render.status]
