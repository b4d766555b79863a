"""Archive pages: the campaign's export and import page, character downloads, campaign import."""

from __future__ import annotations

import json
import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from archive import access, restore, services, uploads
from archive.format import limit_mb
from archive.models import CampaignExport, ExportStatus
from archive.problems import ArchiveRefused, Problem
from campaigns.access import get_campaign_for_user
from campaigns.models import Role
from characters.models import Character
from kernel.abuse import ImportThrottle, over_the_limit, throttle_web_post, too_many_requests_page
from sheets import storage

IMPORTED = "imported archives"  # what the 429 page says the user did too often


class ArchiveFileForm(forms.Form):
    file = forms.FileField(label="Archive file (.json)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = f"At most {limit_mb():g} MB."  # the setting, read per request


class CharacterImportForm(ArchiveFileForm):
    owner = forms.ChoiceField(label="Owner")

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        # A character sheet Dossier printed carries the character (sheets/archival.py).
        self.fields["file"].label = "Character file (.json) or its sheet (.pdf)"
        self.fields["file"].widget.attrs["accept"] = ".json,.pdf,application/json,application/pdf"
        self.fields["file"].help_text = (
            "A sheet printed for the character's owner or game master carries the whole character: "
            f"upload that PDF to restore it. At most {limit_mb():g} MB."
        )
        self.fields["owner"].choices = [
            (m.user.username, f"{m.user.username} ({m.get_role_display()})") for m in members
        ]


def download(document: dict, name: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{services.file_name(name)}"'
    return response


def _owners(campaign):
    return (
        campaign.memberships.select_related("user")
        .filter(role__in=[Role.GM, Role.PLAYER])
        .order_by("user__username")
    )


def _page(request, campaign, membership, status=200, problems=None, form=None, pending=None):
    is_gm = membership.role == Role.GM
    characters = Character.objects.filter(campaign=campaign).select_related("owner").order_by("name", "id")
    if not is_gm:
        characters = characters.filter(owner=request.user)
    context = {
        "campaign": campaign,
        "membership": membership,
        "characters": characters,
        "import_form": form
        or (
            CharacterImportForm(members=_owners(campaign), initial={"owner": request.user.username})
            if is_gm
            else None
        ),
        "problems": problems or [],
        "pending": pending,
        "owners": _owners(campaign) if pending else (),
        "limit_mb": f"{limit_mb():g}",
    }
    if is_gm:
        context["needs_job"] = services.needs_job(campaign)
        context["exports"] = CampaignExport.objects.filter(campaign=campaign)[:5]
    return render(request, "archive/campaign.html", context, status=status)


@login_required
@require_GET
def campaign_archive(request, pk):
    """Players download their own characters; the GM downloads everything and imports characters."""
    campaign, membership = get_campaign_for_user(request.user, pk, need="member")
    return _page(request, campaign, membership)


@login_required
@require_GET
def campaign_export(request, pk):
    """A small campaign's archive at once; a large one is prepared by a job (campaign_export_start)."""
    campaign, _ = access.campaign_for_gm(request.user, pk)
    if services.needs_job(campaign):
        messages.info(request, "This campaign is too large to download at once: prepare its archive below.")
        return redirect("campaign-archive", pk=campaign.pk)
    # Written by the same streaming writer as a job's file, so both give the same bytes.
    text = "".join(services.stream_campaign(campaign, request.user))
    response = HttpResponse(text.encode(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{services.file_name(campaign.name)}"'
    return response


@login_required
@require_POST
def campaign_export_start(request, pk):
    campaign, _ = access.campaign_for_gm(request.user, pk)
    export = services.request_export(campaign, request.user)
    return redirect("campaign-export-job", pk=campaign.pk, export_pk=export.pk)


@login_required
@require_GET
def campaign_export_job(request, pk, export_pk):
    """An export job's progress (the page reloads itself while it runs) and its download when done."""
    campaign, membership = access.campaign_for_gm(request.user, pk)
    export = get_object_or_404(CampaignExport, campaign=campaign, pk=export_pk)
    template = "archive/_export_job.html" if request.headers.get("HX-Request") else "archive/export_job.html"
    # the membership connects the page to the live feed: "export ready" (issue 44)
    return render(request, template, {"campaign": campaign, "membership": membership, "export": export})


@login_required
@require_GET
def campaign_export_download(request, pk, export_pk):
    campaign, export = services.export_for_gm(request.user, pk, export_pk)
    if export.status != ExportStatus.DONE:
        return HttpResponse("The archive is not ready yet.", status=409, content_type="text/plain")
    return storage.file_response(
        request,
        export.file.open("rb"),
        as_attachment=True,
        filename=services.file_name(campaign.name),
        content_type="application/json; charset=utf-8",
    )


@login_required
@require_GET
def character_export(request, pk, character_pk):
    character, _ = access.character_for_export(request.user, character_pk, campaign_id=pk)
    return download(services.export_character(character, request.user), character.name)


#: How long an upload waits for the GM's answer (a duplicate, a bundle's characters) in the cache.
PENDING_SECONDS = 3600
UNANSWERED = "Choose, for each character already in this campaign, to replace it or to import a copy."
EXPIRED = "This import waited too long for an answer, or was already done: upload the file again."


def _pending_key(request, campaign, token: str) -> str:
    # the user and the campaign are part of the key: nobody else can finish someone's import
    return f"archive:pending-character-import:{campaign.pk}:{request.user.pk}:{token}"


def _hold(request, campaign, raw: bytes, token: str = "") -> str:
    token = token or secrets.token_urlsafe(16)
    cache.set(_pending_key(request, campaign, token), raw, PENDING_SECONDS)
    return token


def _rows(documents, campaign, members, default_owner) -> list[dict]:
    """What the question shows of each character a file carries: who, and what is already here."""
    usernames = {m.user.username for m in members}
    rows = []
    for position, document in enumerate(documents):
        owner_name = document.get("owner") if document.get("owner") in usernames else default_owner.username
        row = {
            "position": position,
            "name": document.get("name"),
            "document_owner": document.get("owner"),
            "revision": document.get("revision"),
            "owner": owner_name,
            "duplicate": None,
            "problems": [],
        }
        owner = next(m.user for m in members if m.user.username == owner_name)
        try:
            body = services.checked_character(document, campaign)
        except ArchiveRefused as error:
            row["problems"] = error.problems
        else:
            row["duplicate"] = restore.find(body, campaign, owner)
            row["copy_name"] = restore.copy_name(str(document.get("name")))
        rows.append(row)
    return rows


def _member(members, username, fallback):
    return next((m.user for m in members if m.user.username == username), fallback)


def _picks(request, documents, members, default_owner) -> list[services.Pick]:
    chosen = sorted({int(p) for p in request.POST.getlist("pick") if p.isdigit()})
    return [
        services.Pick(
            position,
            _member(members, request.POST.get(f"owner_{position}"), default_owner),
            request.POST.get(f"on_duplicate_{position}") or None,
        )
        for position in chosen
        if position < len(documents)
    ]


@login_required
@require_POST
def character_import(request, pk):
    """Import a character file or sheet; a file that needs an answer first (a character already in
    the campaign, a party bundle's characters) is held while the page asks, and nothing is imported
    until the GM answers."""
    campaign, membership = access.campaign_for_gm(request.user, pk)
    token = request.POST.get("pending", "")
    if not token:
        # Counted after the access check: a stranger's campaign stays a 404, never a 429. An answer
        # to the page's question is the same import, not counted again.
        wait = over_the_limit(request, ImportThrottle)
        if wait is not None:
            return too_many_requests_page(request, wait, IMPORTED)
    members = _owners(campaign)
    pending = None
    try:
        if token:
            raw = cache.get(_pending_key(request, campaign, token))
            if not isinstance(raw, bytes):
                raise ArchiveRefused(Problem("file", EXPIRED))
            default_owner = _member(members, request.POST.get("owner"), request.user)
        else:
            uploads.refuse_oversized(request)
            form = CharacterImportForm(request.POST, request.FILES, members=members)
            if not form.is_valid():
                return _page(request, campaign, membership, 400, form=form)
            default_owner = _member(members, form.cleaned_data["owner"], request.user)
            raw = uploads.uploaded_file_bytes(form.cleaned_data["file"])
        documents = services.character_documents(raw)
        pending = {"owner": default_owner.username, "bundle": len(documents) > 1, "count": len(documents)}
        warnings: list[str] = []
        if len(documents) > 1:
            if "confirm" not in request.POST:
                pending.update(token=_hold(request, campaign, raw, token))
                pending["rows"] = _rows(documents, campaign, members, default_owner)
                return _page(request, campaign, membership, pending=pending)
            done = services.import_characters(
                documents,
                _picks(request, documents, members, default_owner),
                campaign,
                request.user,
                warnings,
            )
        else:
            done = [
                services.import_document(
                    documents[0],
                    campaign,
                    default_owner,
                    request.user,
                    warnings,
                    request.POST.get("on_duplicate") or None,
                    source=services.source_label(raw),
                )
            ]
    except ArchiveRefused as error:
        if pending is not None and (error.status == 409 or pending["bundle"] or token):
            # the question (again): the file stays held, the page says why nothing was imported
            pending.update(token=_hold(request, campaign, raw, token))
            pending["rows"] = _rows(documents, campaign, members, default_owner)
            problems = error.problems
            if error.status == 409:  # the question says it; an answer left out is said in the page's words
                problems = [Problem("", UNANSWERED)] if token else []
            return _page(request, campaign, membership, error.status, problems=problems, pending=pending)
        form = CharacterImportForm(members=members, initial={"owner": request.POST.get("owner")})
        return _page(request, campaign, membership, error.status, problems=error.problems, form=form)
    if token:
        cache.delete(_pending_key(request, campaign, token))
    for imported in done:
        messages.success(request, imported.summary())
    for line in warnings:
        messages.warning(request, line)
    return redirect("campaign-archive", pk=campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
@throttle_web_post(ImportThrottle, IMPORTED)
def campaign_import(request):
    """A new campaign from an archive; whoever imports it becomes its game master."""
    problems = []
    form = ArchiveFileForm()
    status = 200
    if request.method == "POST":
        try:
            uploads.refuse_oversized(request)
            form = ArchiveFileForm(request.POST, request.FILES)
            if form.is_valid():
                warnings: list[str] = []
                campaign = services.import_campaign(
                    uploads.uploaded_file_bytes(form.cleaned_data["file"]), request.user, warnings=warnings
                )
                messages.success(request, f"Imported {campaign.name}.")
                for line in warnings:
                    messages.warning(request, line)
                return redirect("campaign-detail", campaign.pk)
            status = 400
        except ArchiveRefused as error:
            problems, status, form = error.problems, error.status, ArchiveFileForm()
    return render(
        request,
        "archive/import.html",
        {"form": form, "problems": problems, "limit_mb": f"{limit_mb():g}"},
        status=status,
    )
