"""Archive pages: the campaign's export and import page, character downloads, campaign import."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from archive import access, services, uploads
from archive.format import limit_mb
from archive.models import CampaignExport, ExportStatus
from archive.problems import ArchiveRefused
from campaigns.access import get_campaign_for_user
from campaigns.models import Role
from characters.models import Character
from config.abuse import ImportThrottle, over_the_limit, throttle_web_post, too_many_requests_page
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


def _page(request, campaign, membership, status=200, problems=None, form=None):
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


@login_required
@require_POST
def character_import(request, pk):
    campaign, membership = access.campaign_for_gm(request.user, pk)
    # Counted after the access check: a stranger's campaign stays a 404, never a 429.
    wait = over_the_limit(request, ImportThrottle)
    if wait is not None:
        return too_many_requests_page(request, wait, IMPORTED)
    members = _owners(campaign)
    try:
        uploads.refuse_oversized(request)
        form = CharacterImportForm(request.POST, request.FILES, members=members)
        if not form.is_valid():
            return _page(request, campaign, membership, 400, form=form)
        owner = next(m.user for m in members if m.user.username == form.cleaned_data["owner"])
        raw = uploads.uploaded_file_bytes(form.cleaned_data["file"])
        warnings: list[str] = []
        character = services.import_character(raw, campaign, owner, request.user, warnings=warnings)
    except ArchiveRefused as error:
        form = CharacterImportForm(members=members, initial={"owner": request.POST.get("owner")})
        return _page(request, campaign, membership, error.status, problems=error.problems, form=form)
    messages.success(request, f"Imported {character.name} (revision {character.revision}).")
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
