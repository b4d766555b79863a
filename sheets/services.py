"""Requesting a render, and turning a render's snapshot into the engine's SheetData.

A request freezes what the PDF will show (the build at its revision) in the row's ``snapshot``, so
the task renders exactly what was asked, whenever it runs, and a rerun gives the same PDF. A request
for content that is already queued, running or done returns that row: no second render.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import charts
from campaigns.models import Campaign, Membership, Mission
from characters.models import Character
from characters.systems import SheetData, get_system
from config.errors import Refusal
from sheets import after_action, archival, storage
from sheets.blanks import BLANK_SHEETS, blank_sheet
from sheets.models import RenderStatus, SheetKind, SheetRender
from systems.time_to_kill import services as ttk_services
from systems.time_to_kill.engine import fate_record_sheet_data
from systems.time_to_kill.engine.visibility import FATE_SHEET_TEMPLATE
from systems.time_to_kill.models import MissionRun
from systems.time_to_kill.views import TARGET_LABEL

log = logging.getLogger(__name__)

#: Kinds the API and pages accept.
REQUESTABLE_KINDS = (
    SheetKind.CHARACTER,
    SheetKind.BLANK,
    SheetKind.FATE_RECORD,
    SheetKind.AFTER_ACTION,
    SheetKind.PARTY_BUNDLE,
    SheetKind.CAMPAIGN_REPORT,
)
#: The same as (value, label) pairs, for forms and the API schema (named in ENUM_NAME_OVERRIDES).
REQUESTABLE_KIND_CHOICES = [(kind.value, kind.label) for kind in REQUESTABLE_KINDS]
PAPERS = ("letter", "a4")
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


class SheetRequestError(Refusal, ValueError):
    """The request cannot be rendered (wrong system, nothing to print ...); ``field`` says where."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message

    def errors(self) -> list[dict[str, str]]:
        return [{"field": self.field, "message": self.message}]


@dataclass
class PageSource:
    """One page of a document, as the renderer needs it (no WeasyPrint here)."""

    sheet: SheetData
    campaign: str
    character: str
    revision: int | None
    stamp_label: str = "revision"


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


def _fate_record_page(state: dict | None = None) -> dict[str, Any]:
    return {"kind": SheetKind.FATE_RECORD, "state": state}


#: How many turns the printed turn record holds: the most recent ones, so the sheet stays one page
#: (Letter: 20 filled rows and one to write in).
FATE_RECORD_GRID_TURNS = 20


def _run_fate_record_page(run: MissionRun) -> dict[str, Any]:
    """The run's current turn as ttk_missions gives it to the GM, plus the print's own labels."""
    fields = ttk_services.fate_record_sheet_for_run(run)
    mission = fields["mission"]
    mission["target_label"] = TARGET_LABEL.get(mission.get("target"), "")
    if run.outcome == ttk_services.ABANDONED:
        mission["outcome"] = ttk_services.ABANDONED_LABEL
    grid = fields["grid"]
    fields["grid"] = grid[-FATE_RECORD_GRID_TURNS:]
    fields["earlier_turns"] = len(grid) - len(fields["grid"])
    fields["run"] = {"title": run.title, "event_count": run.event_count, "status": run.get_status_display()}
    return {
        "kind": SheetKind.FATE_RECORD,
        "run_id": run.pk,
        "ninja": run.ninja.name,
        "event_count": run.event_count,
        "sheet": fields,
    }


def _key(parts: list[str]) -> str:
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def plan(
    kind: str,
    campaign: Campaign,
    membership: Membership,
    character: Character | None = None,
    paper: str = "letter",
    mission: Mission | None = None,
    user=None,
    run: MissionRun | None = None,
    fillable: bool = False,
) -> dict[str, Any]:
    """What a render will show: its snapshot, content key, revision and audience.

    ``fillable`` (blank sheets only): form fields over every writing place, and so not PDF/A."""
    if paper not in PAPERS:
        raise SheetRequestError("paper", f"Paper must be one of: {', '.join(PAPERS)}.")
    if fillable and kind != SheetKind.BLANK:
        raise SheetRequestError("fillable", FILLABLE_ONLY_BLANK)
    if run is not None and kind != SheetKind.FATE_RECORD:
        raise SheetRequestError("run", "Only the Fate Record Sheet is printed for a mission run.")
    gm_copy = False
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
        # The campaign's system (and Tempo module); nothing about any character, so any member.
        if campaign.system not in BLANK_SHEETS:
            raise SheetRequestError("kind", "This campaign's game has no blank sheet.")
        pages = [{"kind": SheetKind.BLANK, "system": campaign.system, "module": campaign.module}]
        subject, revision = f"Blank {campaign.get_system_display()} sheet", 0
        parts = [campaign.system, campaign.module] + (["fillable"] if fillable else [])
    elif kind == SheetKind.AFTER_ACTION:
        if mission is None:
            raise SheetRequestError("mission", "Choose the mission whose after-action report to print.")
        if campaign.system != "timemaster":
            raise SheetRequestError("kind", "After-action reports belong to TIMEMASTER campaigns.")
        if not mission.is_closed:
            raise SheetRequestError(
                "mission", "The mission is not closed yet; its report comes after closing."
            )
        record = after_action.report(mission, user, membership.is_gm)
        if record is None:
            raise SheetRequestError("mission", "The GM has not published this mission's result yet.")
        gm_copy = membership.is_gm
        pages = [{"kind": SheetKind.AFTER_ACTION, "record": record}]
        subject, revision = f"{mission.title} report", 0
        digest = _key([json.dumps(record, sort_keys=True, default=str)])
        # A player's copy holds the awards of their own agents only: one per reader.
        parts = [f"m{mission.pk}", digest] + ([] if gm_copy else [f"u{user.pk}"])
    elif kind == SheetKind.FATE_RECORD:
        if campaign.system != "time_to_kill":
            raise SheetRequestError("kind", "The Fate Record Sheet belongs to Time to Kill campaigns.")
        gm_copy = True
        if run is None:  # the blank one, for play at the table
            pages, subject, revision, parts = [_fate_record_page()], "Fate Record Sheet", 0, ["blank"]
        else:
            # Keyed like a character's revision: a new event is a new print, the same state reuses it.
            if run.campaign_id != campaign.pk:
                raise SheetRequestError("run", "Choose a mission run of this campaign.")
            pages = [_run_fate_record_page(run)]
            subject, revision = f"{run.title} Fate Record", run.event_count
            parts = [f"run{run.pk}@{run.event_count}"]
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
        if gm_copy and campaign.system == "time_to_kill":
            pages.append(_fate_record_page())
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
    else:
        raise SheetRequestError("kind", f"Choose one of: {', '.join(REQUESTABLE_KINDS)}.")
    attached = [entry for entry in map(archival.attachment, documents) if entry is not None]
    parts += [f"doc{entry['character_id']}" for entry in attached]
    snapshot = {"subject": subject, "campaign": campaign.name, "paper": paper, "pages": pages}
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
    }


CAMPAIGN_REPORT_TEMPLATE = "sheets/campaign_report.html"


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
        "charts": [charts.for_print(chart, audience) for chart in drawn],
    }


def request_render(
    user,
    kind: str,
    campaign: Campaign,
    membership: Membership,
    character: Character | None = None,
    paper: str = "letter",
    mission: Mission | None = None,
    run: MissionRun | None = None,
    fillable: bool = False,
) -> tuple[SheetRender, bool]:
    """The live render for this content, queuing a new one if there is none. Returns (render, created).

    ``run``: a Time to Kill mission run whose current turn the Fate Record Sheet shows (GM only;
    the caller checked that through sheets/access.py)."""
    planned = plan(
        kind, campaign, membership, character, paper, mission=mission, user=user, run=run, fillable=fillable
    )
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
    try:
        with transaction.atomic():
            render = SheetRender.objects.create(
                kind=kind,
                system=planned["system"],
                campaign=campaign,
                character=character,
                mission=mission,
                run=run if kind == SheetKind.FATE_RECORD else None,
                gm_copy=planned["gm_copy"],
                revision=planned["revision"],
                content_key=planned["content_key"],
                template_version=version,
                snapshot=planned["snapshot"],
                requested_by=user,
                queued_at=timezone.now(),
            )
            enqueue(render.pk)
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
    content key its own request makes), the blank Fate Record Sheet for a GM's Time to Kill bundle."""
    attached = {entry["character_id"] for entry in planned["snapshot"].get("attachments") or []}
    keys = []
    for page in planned["snapshot"]["pages"]:
        if page["kind"] == SheetKind.CHARACTER:
            pk = page["character_id"]
            parts = [f"c{pk}@{page['revision']}"] + ([f"doc{pk}"] if pk in attached else [])
            keys.append(_key([SheetKind.CHARACTER, paper, *parts]))
        elif page["kind"] == SheetKind.FATE_RECORD and page.get("state") is None:
            keys.append(_key([SheetKind.FATE_RECORD, paper, "blank"]))
        else:
            return None
    stored = {
        render.content_key: render
        for render in SheetRender.objects.filter(
            campaign=campaign,
            content_key__in=keys,
            template_version=version,
            status=RenderStatus.DONE,
            kind__in=(SheetKind.CHARACTER, SheetKind.FATE_RECORD),
        ).exclude(file="")
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
    from sheets.tasks import file_name, title_of

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
    from sheets.tasks import render_sheet

    transaction.on_commit(lambda: render_sheet.delay(render_id))


def page_sources(render: SheetRender) -> list[PageSource]:
    """The engine's SheetData for every page of a render, from its snapshot."""
    snapshot = render.snapshot
    campaign = snapshot.get("campaign", "")
    sources = []
    for page in snapshot.get("pages", []):
        if page["kind"] == SheetKind.CHARACTER:
            sheet = get_system(page["system"]).sheet(page["build"])
            sources.append(PageSource(sheet, campaign, page["name"], page["revision"]))
        elif page["kind"] == SheetKind.BLANK:
            sources.append(
                PageSource(blank_sheet(page["system"], page.get("module", "")), campaign, "", None)
            )
        elif page["kind"] == SheetKind.AFTER_ACTION:
            record = page["record"]
            sheet = SheetData("timemaster", after_action.TEMPLATE, record["title"], record)
            sources.append(PageSource(sheet, campaign, "", None))
        elif page["kind"] == SheetKind.CAMPAIGN_REPORT:
            record = page["record"]
            sheet = SheetData(page["system"], CAMPAIGN_REPORT_TEMPLATE, record["title"], record)
            sources.append(PageSource(sheet, campaign, "", None))
        elif page["kind"] == SheetKind.FATE_RECORD and "sheet" in page:
            sheet = SheetData("time_to_kill", FATE_SHEET_TEMPLATE, "Fate Record Sheet", page["sheet"])
            sources.append(PageSource(sheet, campaign, page["ninja"], page["event_count"], "after event"))
        elif page["kind"] == SheetKind.FATE_RECORD:
            sources.append(PageSource(fate_record_sheet_data(page.get("state")), campaign, "", None))
        else:
            raise ValueError(f"unknown page kind {page['kind']!r}")
    return sources


def embedded_files(render: SheetRender) -> list[tuple[str, bytes]]:
    """(file name, bytes) of the character documents a render's PDF carries."""
    return [
        (entry["name"], archival.encode(entry["document"]))
        for entry in render.snapshot.get("attachments") or []
    ]


def attached_characters(render: SheetRender) -> list[int]:
    return [entry["character_id"] for entry in render.snapshot.get("attachments") or []]


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
