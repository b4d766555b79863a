"""Web pages: a campaign's print page, a render's progress (htmx polling) and its download."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import get_campaign_for_user
from characters.models import Character
from sheets import access, kinds, prerender, services
from sheets.api import pdf_response
from sheets.models import SheetKind, SheetRender

#: How often the progress page asks for news while a render is queued or running.
POLL_SECONDS = services.POLL_SECONDS


#: The prints the Sheets tab reads (newest first, one query), and how many of the latest it lists.
RECENT_READ = 50
RECENT_SHOWN = 20


def _same_sheet(row: SheetRender) -> tuple:
    """What makes two prints the same sheet on the same paper, whatever revision each shows."""
    return (
        row.kind,
        row.character_id,
        row.mission_id,
        row.record_type_id,
        row.record_id,
        row.gm_copy,
        (row.snapshot or {}).get("paper"),
    )


def latest_per_paper(renders) -> tuple[list[SheetRender], list[SheetRender]]:
    """The newest print of each sheet on each paper (up to RECENT_SHOWN), and the rest, still newest
    first: every edit prints the sheet again on A4 and Letter, so the list keeps the ones a player
    wants and folds the others (issue 44, finding 10)."""
    latest, older, seen = [], [], set()
    for row in renders:
        key = _same_sheet(row)
        if key in seen or len(latest) >= RECENT_SHOWN:
            older.append(row)
        else:
            seen.add(key)
            latest.append(row)
    return latest, older


def _printable_characters(campaign, user, membership):
    characters = Character.objects.filter(campaign=campaign).exclude(status=Character.Status.DRAFT)
    if not membership.is_gm:
        characters = characters.filter(owner=user)
    return characters.order_by("name", "id")


def _with_sheet_state(characters):
    """The characters, each with the state of its current revision's background render."""
    characters = list(characters)
    for character in characters:
        character.sheet_state = prerender.sheet_state(character)
    return characters


def _offers(campaign, user, membership) -> list[dict]:
    """The sections of the campaign's system's own kinds (sheets.kinds.Offer), each with the kind
    and the request field naming its records."""
    found = []
    for key, offer in kinds.offers(campaign, user, membership):
        spec = kinds.spec(key)
        found.append(
            {"kind": key, "slug": key.replace("_", "-"), "field": spec.target if spec else "", "offer": offer}
        )
    return found


@login_required
@require_http_methods(["GET", "POST"])
def campaign_sheets(request, campaign_pk):
    """What the user may print in this campaign; POST queues one and goes to its progress page."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk, need="member")
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        if kind not in services.REQUESTABLE_KINDS:
            messages.error(request, "Choose a sheet to print.")
            return redirect("campaign-sheets", campaign.pk)
        character_id = request.POST.get("character") if kind == SheetKind.CHARACTER else None
        _, membership, character = access.check_request(request.user, campaign.pk, kind, character_id)
        spec = kinds.spec(kind)
        target_id = request.POST.get(spec.target) if spec is not None and spec.target else None
        target = access.target_for_request(campaign, kind, target_id) if target_id not in (None, "") else None
        paper = request.POST.get("paper") or services.default_paper(campaign, request.user)
        try:
            sheet, _ = services.request_render(
                request.user,
                kind,
                campaign,
                membership,
                character,
                paper,
                target=target,
                fillable=kind == SheetKind.BLANK and request.POST.get("fillable") == "1",
            )
        except services.SheetRequestError as error:
            messages.error(request, error.message)
            return redirect("campaign-sheets", campaign.pk)
        return redirect("sheet-render", sheet.pk)
    renders, older_renders = latest_per_paper(
        r
        for r in SheetRender.objects.filter(campaign=campaign).select_related("character")[:RECENT_READ]
        if access.may_read(r, request.user, membership)
    )
    context = {
        "campaign": campaign,
        "membership": membership,
        "characters": _with_sheet_state(_printable_characters(campaign, request.user, membership)),
        "can_bundle": membership.at_least("player"),
        "offers": _offers(campaign, request.user, membership),
        "renders": renders,
        "older_renders": older_renders,
        "papers": services.PAPERS,
        "paper": services.default_paper(campaign, request.user),
        "fillable_note": services.FILLABLE_NOTE,
    }
    return render(request, "sheets/campaign_sheets.html", context)


@login_required
@require_GET
def render_page(request, render_pk):
    sheet, membership = access.get_render_for_user(request.user, render_pk)
    # the campaign and membership connect the page to its live feed ("sheet finished": base.html)
    context = {"render": sheet, "poll_seconds": POLL_SECONDS}
    context.update(campaign=sheet.campaign, membership=membership)
    return render(request, "sheets/render.html", context)


@login_required
@require_GET
def render_status(request, render_pk):
    """The progress fragment htmx swaps in; it stops polling once the render is done or failed."""
    sheet, _ = access.get_render_for_user(request.user, render_pk)
    return render(request, "sheets/_render_status.html", {"render": sheet, "poll_seconds": POLL_SECONDS})


@login_required
@require_GET
def download(request, render_pk) -> HttpResponse:
    sheet, _ = access.get_render_for_user(request.user, render_pk)
    response = pdf_response(request, sheet)
    if response is None:
        raise Http404("This sheet has no PDF yet.")
    return response


@login_required
@require_GET
def character_sheet_box(request, character_pk):
    """The character page's print box (polled by htmx while the background render is on its way):
    only the owner and the GM print a character's sheet; anyone else gets 404 as for a hidden page."""
    from characters import access as character_access
    from sheets.templatetags.sheet_status import sheet_status_context  # a page's tag library

    character, membership = character_access.get_character_for_user(request.user, character_pk)
    context = sheet_status_context(character, request.user, membership)
    if not context["shown"] or character.is_draft:
        raise Http404("No printable sheet here.")
    return render(request, "sheets/_character_sheet_box.html", context)
