"""Archive API: export a character or a whole campaign, import them back. Thin views over
archive.services; access through archive/access.py; refusals in the API error format."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from archive import access, services, streaming, uploads
from archive.models import ExportStatus
from archive.problems import ArchiveRefused, Problem
from campaigns.models import Membership, Role
from kernel.abuse import ImportThrottle, throttle_api
from kernel.errors import Conflict
from kernel.parsers import FormParser, MultiPartParser
from sheets import storage


class ArchiveJSONParser(BaseParser):
    """Accepts a JSON body without parsing it: the archive services parse it themselves, so a
    truncated file gets the archive's own message (where it breaks) instead of a generic one, and
    the input boundary's refusals come in the archive's report (archive/format.py)."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        return {}


PARSERS = [ArchiveJSONParser, MultiPartParser, FormParser]


def _raw_archive(request: Request) -> bytes:
    """The archive from a multipart ``file`` field or from a JSON body, size checked first."""
    uploads.refuse_oversized(request)
    if uploads.is_multipart(request):
        return uploads.uploaded_file_bytes(request.FILES.get("file"))
    try:
        return request._request.body  # noqa: SLF001  (the raw bytes; DRF's parsers skipped on purpose)
    except RequestDataTooBig:
        limit_mb = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
        raise ArchiveRefused(
            Problem(
                "",
                f"A JSON request body is limited to {limit_mb:.1f} MB; send a larger archive as a "
                "multipart upload in the field 'file'.",
            ),
            status=413,
        ) from None


def _owner(request: Request, campaign, gm) -> object:
    """The member who will own an imported character: ``owner`` (a username), else the GM."""
    username = request.query_params.get("owner") or (
        request.POST.get("owner") if uploads.is_multipart(request) else None
    )
    if not username:
        return gm
    member = (
        Membership.objects.select_related("user")
        .filter(campaign=campaign, user__username=username, role__in=[Role.GM, Role.PLAYER])
        .first()
    )
    if member is None:
        raise ArchiveRefused(
            Problem("owner", f"{username!r} is not a player or game master of this campaign.")
        )
    return member.user


@extend_schema(
    responses={200: OpenApiTypes.OBJECT, 403: OpenApiResponse(description="Not your character")},
    description="The character document (docs/export-format.md): builds, wizard choices, the whole ledger.",
)
@api_view(["GET"])
def export_character(request: Request, campaign_pk: str, character_pk: str) -> Response:
    character, _ = access.character_for_export(request.user, character_pk, campaign_id=campaign_pk)
    document = services.export_character(character, request.user)
    response = Response(document)
    response["Content-Disposition"] = f'attachment; filename="{services.file_name(character.name)}"'
    return response


def _param(request: Request, name: str) -> str | None:
    """A query parameter, or the same field of a multipart upload."""
    value = request.query_params.get(name) or (
        request.POST.get(name) if uploads.is_multipart(request) else None
    )
    return value or None


def _positions(value: str, count: int) -> list[int]:
    """``characters``: "all", or positions in the bundle, comma separated."""
    if value.strip().lower() == "all":
        return list(range(count))
    try:
        positions = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        positions = []
    if not positions or any(not 0 <= p < count for p in positions) or len(set(positions)) != len(positions):
        raise ArchiveRefused(
            Problem("characters", f"must be all, or positions from 0 to {count - 1} separated by commas.")
        )
    return positions


def _bundle_owner(request: Request, campaign, document: dict, fallback):
    """A bundle's character goes to the owner its document names when a player or GM of the
    campaign, else to ``owner`` (or the importing GM)."""
    if _param(request, "owner") is None:
        member = (
            Membership.objects.select_related("user")
            .filter(campaign=campaign, user__username=document.get("owner"), role__in=[Role.GM, Role.PLAYER])
            .first()
        )
        if member is not None:
            return member.user
    return fallback


def _imported_body(imported: services.Imported) -> dict:
    character = imported.character
    return {
        "id": character.pk,
        "name": character.name,
        "revision": character.revision,
        "owner": character.owner.username,
        "replaced": imported.replaced,
        "entries_added": imported.entries_added,
    }


@extend_schema(
    request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": OpenApiTypes.OBJECT},
    parameters=[
        OpenApiParameter("owner", str, description="Username of the member who will own it"),
        OpenApiParameter(
            "on_duplicate",
            str,
            enum=["replace", "copy"],
            description="When the campaign already has this character: replace it (through new ledger "
            "entries) or import a copy (its name marked as restored). Without it such an import is a 409.",
        ),
        OpenApiParameter(
            "characters",
            str,
            description="A party bundle: which of its characters to import (all, or positions like 0,2).",
        ),
    ],
    responses={
        201: OpenApiTypes.OBJECT,
        400: OpenApiResponse(description="Refused, with every problem (JSON path + message)"),
        409: OpenApiResponse(description="Already in the campaign: send on_duplicate=replace or copy"),
        413: OpenApiResponse(description="Larger than the archive limit"),
        429: OpenApiResponse(description="Too many imports (settings RATE_LIMIT_IMPORT); see Retry-After"),
    },
    description="Import a character document into this campaign (game master only): the JSON, or the "
    "character's archival sheet (a PDF Dossier printed for its owner or GM, which carries the document; "
    "as a multipart upload in 'file'), or a party bundle with 'characters' saying which to import (the "
    "answer then lists them under 'characters'). A character already in the campaign is a 409 until "
    "'on_duplicate' says what to do. Refused with 400 and every problem, nothing stored.",
)
@api_view(["POST"])
@parser_classes(PARSERS)
def import_character(request: Request, campaign_pk: str) -> Response:
    campaign, _ = access.campaign_for_gm(request.user, campaign_pk)
    throttle_api(request, ImportThrottle)  # after the access check: a stranger's campaign stays a 404
    owner = _owner(request, campaign, request.user)
    on_duplicate = _param(request, "on_duplicate")
    raw = _raw_archive(request)
    documents = services.character_documents(raw)
    warnings: list[str] = []
    wanted = _param(request, "characters")
    if len(documents) == 1 and wanted is None:
        imported = services.import_document(
            documents[0],
            campaign,
            owner,
            request.user,
            warnings,
            on_duplicate,
            source=services.source_label(raw),
        )
        return Response({**_imported_body(imported), "warnings": warnings}, status=status.HTTP_201_CREATED)
    if wanted is None:
        raise ArchiveRefused(Problem("characters", services.bundle_question(documents)))
    picks = [
        services.Pick(position, _bundle_owner(request, campaign, documents[position], owner), on_duplicate)
        for position in _positions(wanted, len(documents))
    ]
    done = services.import_characters(documents, picks, campaign, request.user, warnings)
    body = {"characters": [_imported_body(imported) for imported in done], "warnings": warnings}
    return Response(body, status=status.HTTP_201_CREATED)


@extend_schema(
    responses={
        200: OpenApiTypes.OBJECT,
        403: OpenApiResponse(description="Game master only"),
        409: OpenApiResponse(description="Too large to write in a request: POST to exports/ instead"),
    },
    description="The whole campaign archive (docs/export-format.md), GM-only records included, for a "
    f"campaign of up to {services.DIRECT_EXPORT_ROLLS} rolls; a larger one is prepared by an export job.",
)
@api_view(["GET"])
def export_campaign(request: Request, campaign_pk: str) -> HttpResponse:
    campaign, _ = access.campaign_for_gm(request.user, campaign_pk)
    if services.needs_job(campaign):
        message = (
            f"This campaign has more than {services.DIRECT_EXPORT_ROLLS} rolls: POST to "
            f"/api/v1/campaigns/{campaign.pk}/exports/ to prepare its archive, then download it when done."
        )
        raise Conflict(message)
    # The bytes JSONRenderer wrote for the whole document, from the streaming writer a job uses too.
    text = "".join(services.stream_campaign(campaign, request.user, streaming.COMPACT))
    response = HttpResponse(text.encode(), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{services.file_name(campaign.name)}"'
    return response


def _export_body(request: Request, campaign, export) -> dict:
    url = f"/api/v1/campaigns/{campaign.pk}/exports/{export.pk}/"
    return {
        "id": export.pk,
        "status": export.status,
        "rolls_total": export.rolls_total,
        "rolls_written": export.rolls_written,
        "percent": export.percent,
        "size": export.size,
        "error": export.error,
        "created_at": export.created_at,
        "finished_at": export.finished_at,
        "url": request.build_absolute_uri(url),
        "download": request.build_absolute_uri(url + "download/") if export.status == "done" else None,
    }


@extend_schema(
    request=None,
    responses={202: OpenApiTypes.OBJECT, 403: OpenApiResponse(description="Game master only")},
    description="Prepare the campaign archive in the background (the way for large campaigns); "
    "the answer names the job, whose status has the download link when done.",
)
@api_view(["POST"])
def start_campaign_export(request: Request, campaign_pk: str) -> Response:
    campaign, _ = access.campaign_for_gm(request.user, campaign_pk)
    export = services.request_export(campaign, request.user)
    body = _export_body(request, campaign, export)
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


@extend_schema(responses={200: OpenApiTypes.OBJECT}, description="An export job's status and progress.")
@api_view(["GET"])
def campaign_export_job(request: Request, campaign_pk: str, export_pk: str) -> Response:
    campaign, export = services.export_for_gm(request.user, campaign_pk, export_pk)
    return Response(_export_body(request, campaign, export))


@extend_schema(
    responses={200: OpenApiTypes.OBJECT, 409: OpenApiResponse(description="Not ready yet")},
    description="The archive an export job wrote (docs/export-format.md).",
)
@api_view(["GET"])
def campaign_export_download(request: Request, campaign_pk: str, export_pk: str):
    campaign, export = services.export_for_gm(request.user, campaign_pk, export_pk)
    if export.status != ExportStatus.DONE:
        raise Conflict(f"The archive is not ready ({export.status}).")
    return storage.file_response(
        request,
        export.file.open("rb"),
        as_attachment=True,
        filename=services.file_name(campaign.name),
        content_type="application/json",
    )


@extend_schema(
    request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": OpenApiTypes.OBJECT},
    responses={
        201: OpenApiTypes.OBJECT,
        400: OpenApiResponse(description="Refused, with every problem (JSON path + message)"),
        413: OpenApiResponse(description="Larger than the archive limit"),
        429: OpenApiResponse(description="Too many imports (settings RATE_LIMIT_IMPORT); see Retry-After"),
    },
    description=(
        "Make a new campaign from an archive; whoever imports it is its game master and only member. "
        "``warnings`` lists the people the archive names who were left out (invite them after)."
    ),
)
@api_view(["POST"])
@parser_classes(PARSERS)
def import_campaign(request: Request) -> Response:
    """The one view of an API campaign import (a rate limit decorates it as a whole)."""
    warnings: list[str] = []
    throttle_api(request, ImportThrottle)
    campaign = services.import_campaign(_raw_archive(request), request.user, warnings=warnings)
    body = {"id": campaign.pk, "name": campaign.name, "warnings": warnings}
    return Response(body, status=status.HTTP_201_CREATED)
