"""Requesting a render, and turning a render's snapshot into the engine's SheetData.

A request freezes what the PDF will show (the build at its revision) in the row's ``snapshot``, so
the task renders exactly what was asked, whenever it runs, and a rerun gives the same PDF. A request
for content that is already queued, running or done returns that row: no second render.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import charts
from campaigns.chronicle import book as chronicle_book
from campaigns.models import PAPERS as CAMPAIGN_PAPERS
from campaigns.models import Campaign, Membership
from characters.models import Character
from sheets import archival, kinds, queue, storage
from sheets.blanks import NO_BLANK_SHEET, has_blank_sheet
from sheets.kinds import SheetRequestError
from sheets.models import RenderStatus, SheetKind, SheetRender, kind_choices, render_moved
from sheets.pages import (
    PageSource,
    attached_characters,
    embedded_files,
    file_name,
    page_sources,
    title_of,
)

log = logging.getLogger(__name__)

__all__ = ["PageSource", "SheetRequestError", "attached_characters", "embedded_files", "page_sources"]


class _Kinds(Sequence[str]):
    """Kinds the API and pages accept: the platform's and every installed system's (read from the
    registry when asked, so the list is whole however early this module is imported)."""

    def _keys(self) -> list[str]:
        return [key for key, _ in kind_choices()]

    def __getitem__(self, index):  # type: ignore[override]
        return self._keys()[index]

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        return key in self._keys()


class _KindChoices(Sequence[tuple[str, str]]):
    """The same as (value, label) pairs, for forms and the API schema (named in ENUM_NAME_OVERRIDES)."""

    def __getitem__(self, index):  # type: ignore[override]
        return kind_choices()[index]

    def __len__(self) -> int:
        return len(kind_choices())


REQUESTABLE_KINDS: Sequence[str] = _Kinds()
REQUESTABLE_KIND_CHOICES: Sequence[tuple[str, str]] = _KindChoices()
PAPERS = CAMPAIGN_PAPERS  # one choice set with the campaign's paper (the API's PaperEnum)
#: How often a page asks for news while a render is queued or running (the progress page, the
#: character page's print box).
POLL_SECONDS = 1
FILLABLE_ONLY_BLANK = "Only a blank sheet is fillable."
#: Said wherever the option is offered (the sheets page, the API): a form is not an archival file.
FILLABLE_NOTE = (
    "A fillable sheet has form fields to type into on screen. It is not an archival PDF/A file "
    "(PDF/A does not allow such fields): keep it for play, not as a record."
)


def default_paper(campaign: Campaign, user=None) -> str:
    """The paper a print picker starts on: the campaign's (its settings page), else Letter."""
    paper = getattr(campaign, "paper", "") or "letter"
    return paper if paper in PAPERS else "letter"


#: Statuses a party bundle draws its characters from.
BUNDLE_STATUSES = (Character.Status.ACTIVE,)


def template_version() -> str:
    from sheets.rendering import TEMPLATE_VERSION  # the version lives beside the templates' renderer

    return TEMPLATE_VERSION


def _character_page(character: Character) -> dict[str, Any]:
    return {
        "kind": SheetKind.CHARACTER,
        "character_id": character.pk,
        "name": character.name,
        "system": character.system,
        "module": character.module,
        "revision": character.revision,
        "build": character.build,
    }


def _kind_pages(spec, plan: kinds.KindPlan, system: str) -> list[dict[str, Any]]:
    return [page.as_snapshot(spec.key, system) for page in plan.pages]


def _system_kind(
    kind: str, campaign: Campaign, membership: Membership, user, target
) -> tuple[kinds.KindPlan, Any]:
    """A system's kind planned by its data function, after the platform's own checks."""
    found = kinds.spec(kind)
    app = kinds.system_of(kind)
    if found is None or app is None:
        raise SheetRequestError("kind", f"Choose one of: {', '.join(REQUESTABLE_KINDS)}.")
    if campaign.system != app.key:
        raise SheetRequestError("kind", f"The {found.label} belongs to {app.name} campaigns.")
    if target is None and found.target_required:
        raise SheetRequestError(
            found.target, f"Choose the {found.target_label} whose {found.label.lower()} to print."
        )
    order = kinds.SheetOrder(kind, campaign, membership, user, target)
    return kinds.plan(found, order), found


def _key(parts: list[str]) -> str:
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def plan(
    kind: str,
    campaign: Campaign,
    membership: Membership,
    character: Character | None = None,
    paper: str = "letter",
    user=None,
    target=None,
    fillable: bool = False,
) -> dict[str, Any]:
    """What a render will show: its snapshot, content key, revision and audience.

    ``target``: the record a system's kind prints from (found by its ``find``; None for its blank).
    ``fillable`` (blank sheets only): form fields over every writing place, and so not PDF/A."""
    if paper not in PAPERS:
        raise SheetRequestError("paper", f"Paper must be one of: {', '.join(PAPERS)}.")
    if fillable and kind != SheetKind.BLANK:
        raise SheetRequestError("fillable", FILLABLE_ONLY_BLANK)
    gm_copy = False
    extra: dict[str, Any] = {}
    row: dict[str, Any] = {}
    documents: list[Character] = []  # whose export documents the PDF carries
    if kind == SheetKind.CHARACTER:
        if character is None:
            raise SheetRequestError("character", "Choose the character whose sheet to print.")
        if character.is_draft or not character.build:
            raise SheetRequestError("character", "A draft has no sheet yet; finish the character first.")
        pages = [_character_page(character)]
        subject, revision = character.name, character.revision
        parts = [f"c{character.pk}@{character.revision}"]
        # Only its owner and the GM may print it (sheets/access.py): both may export it.
        documents = [character]
    elif kind == SheetKind.BLANK:
        # The campaign's system (and its module, for a system with modules); nothing about any
        # character, so any member.
        if not has_blank_sheet(campaign.system):
            raise SheetRequestError("kind", NO_BLANK_SHEET)
        pages = [{"kind": SheetKind.BLANK, "system": campaign.system, "module": campaign.module}]
        subject, revision = f"Blank {campaign.get_system_display()} sheet", 0
        parts = [campaign.system, campaign.module] + (["fillable"] if fillable else [])
    elif kind == SheetKind.PARTY_BUNDLE:
        party = list(
            Character.objects.filter(campaign=campaign, status__in=BUNDLE_STATUSES).order_by("name", "id")
        )
        if not party:
            raise SheetRequestError("kind", "The party has no active characters to print yet.")
        pages = [_character_page(c) for c in party]
        gm_copy = membership.is_gm
        # The GM may export every character, a player their own: one render per such set of readers.
        documents = [c for c in party if gm_copy or c.owner_id == membership.user_id]
        if gm_copy:  # the GM's copy ends with the blank GM sheets of the campaign's system
            for _, spec in kinds.system_kinds(campaign.system):
                if spec.in_gm_bundle:
                    blank = kinds.plan(spec, kinds.SheetOrder(spec.key, campaign, membership, user))
                    for page in _kind_pages(spec, blank, campaign.system):
                        pages.append({**page, "parts": blank.parts})
        subject, revision = f"{campaign.name} party", max(c.revision for c in party)
        parts = [f"c{c.pk}@{c.revision}" for c in party]
    elif kind == SheetKind.CAMPAIGN_REPORT:
        record = campaign_report(campaign, user, membership.is_gm)
        if record is None:
            raise SheetRequestError("kind", "This campaign's game keeps no charts for a campaign report yet.")
        gm_copy = membership.is_gm
        pages = [{"kind": SheetKind.CAMPAIGN_REPORT, "system": campaign.system, "record": record}]
        subject, revision = f"{campaign.name} report", 0
        digest = _key([json.dumps(record, sort_keys=True, default=str)])
        # A player's copy holds their own characters: one per reader, like the after-action report.
        parts = [digest] + ([] if gm_copy else [f"u{user.pk}"])
    elif kind == SheetKind.CHRONICLE:
        record = chronicle_book.record(campaign, user, membership)
        if record is None:
            raise SheetRequestError("kind", "The chronicle starts with the first play session: none yet.")
        gm_copy = membership.is_gm
        pages = [{"kind": SheetKind.CHRONICLE, "system": campaign.system, "record": record}]
        subject, revision = f"{campaign.name} chronicle", 0
        # Each reader's copy is what their session pages show them: one per reader but the GM's.
        parts = [_key([json.dumps(record, sort_keys=True, default=str)])] + (
            [] if gm_copy else [f"u{user.pk}"]
        )
    else:
        planned, spec = _system_kind(kind, campaign, membership, user, target)
        pages = _kind_pages(spec, planned, campaign.system)
        subject, revision, parts, gm_copy = (
            planned.subject,
            planned.revision,
            list(planned.parts),
            planned.gm_copy,
        )
        extra = {key: value for key in ("stamp_label", "target_title") if (value := getattr(planned, key))}
        row = planned.row
    # Keyed on who is attached at which revision (the stubs): the documents themselves are built
    # only for a render that is made (with_documents), not to find one already made or joined.
    attached = [archival.attachment_stub(c) for c in documents] if archival.will_attach() else []
    parts += [f"doc{entry['character_id']}" for entry in attached]
    snapshot = {"subject": subject, "campaign": campaign.name, "paper": paper, "pages": pages, **extra}
    if attached:
        snapshot["attachments"] = attached
    if fillable:
        snapshot["fillable"] = True
    return {
        "snapshot": snapshot,
        "content_key": _key([kind, paper, *parts]),
        "revision": revision,
        "gm_copy": gm_copy,
        "system": campaign.system if character is None else character.system,
        "row": row,
        "documents": documents if attached else [],
    }


def with_documents(planned: dict[str, Any]) -> dict[str, Any]:
    """The plan with the character documents its PDF embeds built into the snapshot (an export
    each: the costly part of a plan, so done only for a render about to be made)."""
    if not planned["documents"]:
        return planned
    attached = [entry for entry in map(archival.attachment, planned["documents"]) if entry is not None]
    return {**planned, "snapshot": {**planned["snapshot"], "attachments": attached}}


def campaign_report(campaign: Campaign, user, is_gm: bool) -> dict[str, Any] | None:
    """The campaign report's fields for this reader: the charts the campaign's system supplies
    (campaigns.charts; drawn for the reader's audience), or None when it supplies none."""
    drawn = charts.campaign_charts(campaign, user, is_gm)
    if not drawn:
        return None
    audience = "gm" if is_gm else "player"
    return {
        "title": campaign.name,
        "system_name": campaign.get_system_display(),
        "gm_copy": is_gm,
        "charts": [charts.for_print(chart, audience, charts.print_font(campaign.system)) for chart in drawn],
    }


def request_render(
    user,
    kind: str,
    campaign: Campaign,
    membership: Membership,
    character: Character | None = None,
    paper: str = "letter",
    target=None,
    fillable: bool = False,
) -> tuple[SheetRender, bool]:
    """The live render for this content, queuing a new one if there is none. Returns (render, created).

    ``target``: the record a system's kind prints from (a mission, a mission run: found and
    access-checked through sheets/access.py)."""
    planned = plan(kind, campaign, membership, character, paper, user=user, target=target, fillable=fillable)
    version = template_version()
    lookup = {
        "kind": kind,
        "campaign": campaign,
        "content_key": planned["content_key"],
        "template_version": version,
        "gm_copy": planned["gm_copy"],
        "status__in": [RenderStatus.QUEUED, RenderStatus.RUNNING, RenderStatus.DONE],
    }
    existing = SheetRender.objects.filter(**lookup).first()
    if existing is not None and not _file_lost(existing):
        return existing, False
    if kind == SheetKind.PARTY_BUNDLE:
        instant = _instant_bundle(user, campaign, planned, paper, version)
        if instant is not None:
            return instant, True
    planned = with_documents(planned)
    try:
        with transaction.atomic():
            render = SheetRender.objects.create(
                kind=kind,
                system=planned["system"],
                campaign=campaign,
                character=character,
                **planned["row"],
                gm_copy=planned["gm_copy"],
                revision=planned["revision"],
                content_key=planned["content_key"],
                template_version=version,
                snapshot=planned["snapshot"],
                requested_by=user,
                queued_at=timezone.now(),
            )
            enqueue(render.pk)
            if character is not None:  # a print box waiting for it ("being prepared") shows it
                render_moved.send(sender=SheetRender, render_id=render.pk, asked=True)
    except IntegrityError:
        # Someone asked for the same content a moment earlier: theirs is the one.
        return SheetRender.objects.get(**lookup), False
    return render, True


def _stored_parts(
    planned: dict[str, Any], campaign: Campaign, paper: str, version: str
) -> list[SheetRender] | None:
    """The stored renders a party bundle can be joined from, one per page in order, or None.

    A page is covered by a done render of the same template version, paper and content: a character
    at its current revision carrying its document exactly when the bundle carries it (the same
    content key its own request makes), a system's blank GM sheet (SheetKindSpec.in_gm_bundle) for
    a GM's bundle."""
    attached = {entry["character_id"] for entry in planned["snapshot"].get("attachments") or []}
    keys = []
    for page in planned["snapshot"]["pages"]:
        if page["kind"] == SheetKind.CHARACTER:
            pk = page["character_id"]
            parts = [f"c{pk}@{page['revision']}"] + ([f"doc{pk}"] if pk in attached else [])
            keys.append(_key([SheetKind.CHARACTER, paper, *parts]))
        elif "parts" in page and kinds.spec(page["kind"]) is not None:
            keys.append(_key([page["kind"], paper, *page["parts"]]))
        else:
            return None
    stored = {
        render.content_key: render
        for render in SheetRender.objects.filter(
            campaign=campaign,
            content_key__in=keys,
            template_version=version,
            status=RenderStatus.DONE,
            kind__in={page["kind"] for page in planned["snapshot"]["pages"]},
        )
        .exclude(file="")
        .only("pk", "content_key", "file")  # not the snapshots: twenty JSON documents nobody reads here
    }
    if any(key not in stored for key in keys):
        return None
    return [stored[key] for key in keys]


def _instant_bundle(
    user, campaign: Campaign, planned: dict[str, Any], paper: str, version: str
) -> SheetRender | None:
    """A party bundle joined at once from the stored PDFs of its sheets (sheets/assemble.py), or
    None when a sheet has no stored PDF (then it is queued and rendered like any other)."""
    from sheets import assemble

    parts = _stored_parts(planned, campaign, paper, version)
    if parts is None:
        return None
    try:
        pdfs = [storage.read(part.file.name) for part in parts]
    except OSError:
        return None  # a file went missing: render it instead
    now = timezone.now()
    try:
        with transaction.atomic():
            render = SheetRender.objects.create(
                kind=SheetKind.PARTY_BUNDLE,
                system=planned["system"],
                campaign=campaign,
                gm_copy=planned["gm_copy"],
                revision=planned["revision"],
                content_key=planned["content_key"],
                template_version=version,
                snapshot={**planned["snapshot"], "joined_from": [part.pk for part in parts]},
                requested_by=user,
                queued_at=now,
                started_at=now,
                status=RenderStatus.RUNNING,
            )
            data, pages = assemble.join(pdfs, title=title_of(render))
            stored_name = storage.save(file_name(render), data)
            SheetRender.objects.filter(pk=render.pk).update(
                status=RenderStatus.DONE,
                file=stored_name,
                size=len(data),
                pages=pages,
                finished_at=timezone.now(),
            )
    except IntegrityError:
        return None  # someone asked a moment earlier: the caller finds theirs
    except assemble.JoinError:
        log.exception("party bundle could not be joined from stored sheets; rendering it instead")
        return None
    render.refresh_from_db()
    return render


def _file_lost(render: SheetRender) -> bool:
    """A done render whose PDF is gone from the storage (a lost bucket, a wrong setting) is marked
    failed, so this request queues a fresh one instead of pointing at nothing forever."""
    if render.status != RenderStatus.DONE or storage.exists(render.file.name):
        return False
    SheetRender.objects.filter(pk=render.pk, status=RenderStatus.DONE).update(
        status=RenderStatus.FAILED, error="The PDF was missing from the file storage; it is being made again."
    )
    return True


def enqueue(render_id: int) -> None:
    """Send the render task once the row is committed (a worker must find it)."""
    transaction.on_commit(lambda: queue.render(render_id))


def pending_renders(user, campaign: Campaign, membership: Membership) -> list:
    """The campaign page's "Waiting for you" lines for sheets still rendering: the GM's for the
    whole campaign, a player's for their own characters (campaigns.pending.SOURCES)."""
    from django.urls import reverse

    from campaigns.pending import Pending

    renders = SheetRender.objects.filter(
        campaign=campaign, status__in=(RenderStatus.QUEUED, RenderStatus.RUNNING)
    )
    if not membership.is_gm:
        renders = renders.filter(character__owner=user)
    count = renders.count()
    if not count:
        return []
    text = "A sheet is rendering" if count == 1 else f"{count} sheets are rendering"
    return [Pending(text, reverse("campaign-sheets", args=[campaign.pk]))]
