"""Sheets API: request a render, watch its status, download the PDF. Access through sheets/access.py."""

from __future__ import annotations

from django.http import FileResponse, HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.access import get_campaign_for_user
from kernel.errors import Conflict
from sheets import access, kinds, services, storage
from sheets.models import RenderStatus, SheetRender


@extend_schema_field({"type": "integer", "nullable": True})
class _RecordField(serializers.Field):
    """The id of the record a system's kind printed from, under the name the request gave it (the
    kind's SheetKindSpec.target, e.g. ``run``); null for a render of another kind. A record the
    platform keeps a relation of its own for (a campaign's mission) is read from that relation,
    any other from the render's generic ``record``."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, render: SheetRender) -> int | None:
        spec = kinds.spec(render.kind)
        if spec is None or spec.target != self.field_name:
            return None
        own = f"{self.field_name}_id"
        return getattr(render, own) if own in _OWN_RELATIONS else render.record_id


#: The platform's own relations of a render a kind may print from (``mission_id``).
_OWN_RELATIONS = {f.attname for f in SheetRender._meta.concrete_fields if f.is_relation}


class SheetRenderSerializer(serializers.ModelSerializer):
    status_url = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()

    class Meta:
        model = SheetRender
        fields = [
            "id",
            "kind",
            "system",
            "campaign",
            "character",
            "revision",
            "template_version",
            "status",
            "error",
            "size",
            "pages",
            "queued_at",
            "started_at",
            "finished_at",
            "status_url",
            "download_url",
            "page_url",
        ]
        read_only_fields = fields

    def get_fields(self):
        fields = super().get_fields()
        # One field per record the installed systems' kinds print from, as in the request.
        for target, labels in _targets().items():
            if target not in fields:
                fields[target] = _RecordField(
                    help_text=f"The {' or '.join(labels)} printed (its id), or null."
                )
        return fields

    def get_status_url(self, render: SheetRender) -> str:
        return reverse("api-sheet-render", args=[render.pk])

    def get_download_url(self, render: SheetRender) -> str | None:
        if render.status != RenderStatus.DONE:
            return None
        return reverse("api-sheet-download", args=[render.pk])

    def get_page_url(self, render: SheetRender) -> str:
        return reverse("sheet-render", args=[render.pk])


class SheetRequestSerializer(serializers.Serializer):
    """A print request. Besides these fields, one per record a system's kind prints from (its
    SheetKindSpec.target: ``mission``, ``run`` ...), read from the registry."""

    kind = serializers.ChoiceField(choices=[])
    character = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    paper = serializers.ChoiceField(choices=services.PAPERS, default="letter")
    fillable = serializers.BooleanField(
        default=False, help_text=f"Blank sheets only: with form fields. {services.FILLABLE_NOTE}"
    )

    def get_fields(self):
        fields = super().get_fields()
        fields["kind"] = serializers.ChoiceField(choices=list(services.REQUESTABLE_KIND_CHOICES))
        for target, labels in _targets().items():
            fields[target] = serializers.IntegerField(
                required=False,
                min_value=1,
                max_value=2**63 - 1,
                help_text=f"The {' or '.join(labels)} whose record to print (its id).",
            )
        return fields

    def validate(self, attrs):
        if attrs["fillable"] and attrs["kind"] != "blank":
            raise serializers.ValidationError({"fillable": services.FILLABLE_ONLY_BLANK})
        if attrs["kind"] == "character" and "character" not in attrs:
            raise serializers.ValidationError({"character": "Choose the character whose sheet to print."})
        spec = kinds.spec(attrs["kind"])
        for target in _targets():
            if target in attrs and (spec is None or spec.target != target):
                label = (
                    spec.label if spec is not None else dict(services.REQUESTABLE_KIND_CHOICES)[attrs["kind"]]
                )
                raise serializers.ValidationError(
                    {target: f"A {label.lower()} is not printed from a {target}."}
                )
        if spec is not None and spec.target_required and spec.target not in attrs:
            what = spec.target_label or spec.target
            raise serializers.ValidationError(
                {spec.target: f"Choose the {what} whose {spec.label.lower()} to print."}
            )
        return attrs


def _targets() -> dict[str, list[str]]:
    """request field -> what its kinds call the record ("mission run"), over the installed kinds."""
    found: dict[str, list[str]] = {}
    for _, spec in kinds.system_kinds():
        if spec.target:
            found.setdefault(spec.target, []).append(f"{spec.target_label or spec.target} ({spec.label})")
    return found


@extend_schema(
    request=SheetRequestSerializer,
    responses={
        200: SheetRenderSerializer,
        202: SheetRenderSerializer,
        400: OpenApiResponse(description="Not a valid request"),
        403: OpenApiResponse(description="Not allowed (a player asking for a GM-only sheet)"),
        404: OpenApiResponse(description="No such campaign, character, or record to print from"),
    },
)
@api_view(["POST"])
def request_sheet(request: Request, campaign_pk: str) -> Response:
    """Queue a render, or get back the one already queued, running or done for the same content."""
    get_campaign_for_user(request.user, campaign_pk, need="member")  # access before validation
    incoming = SheetRequestSerializer(data=request.data)
    incoming.is_valid(raise_exception=True)
    data = incoming.validated_data
    campaign, membership, character = access.check_request(
        request.user, campaign_pk, data["kind"], data.get("character")
    )
    spec = kinds.spec(data["kind"])
    target = (
        access.target_for_request(campaign, data["kind"], data[spec.target])
        if spec is not None and spec.target in data
        else None
    )
    render, created = services.request_render(
        request.user,
        data["kind"],
        campaign,
        membership,
        character,
        data["paper"],
        target=target,
        fillable=data["fillable"],
    )
    code = status.HTTP_202_ACCEPTED if render.status != RenderStatus.DONE else status.HTTP_200_OK
    return Response(SheetRenderSerializer(render).data, status=code)


@extend_schema(responses={200: SheetRenderSerializer})
@api_view(["GET"])
def render_status(request: Request, render_pk: str) -> Response:
    render, _ = access.get_render_for_user(request.user, render_pk)
    return Response(SheetRenderSerializer(render).data)


def pdf_response(request, render: SheetRender) -> FileResponse | HttpResponseRedirect | None:
    """The stored PDF as an attachment, or None if there is no finished file.

    Called only after sheets/access.py let the user see this render. The bytes stream from the
    storage through Dossier; with SHEET_DOWNLOAD_SIGNED_URLS on an object store, the answer is a
    redirect to a short-lived signed URL for this one object instead."""
    if render.status != RenderStatus.DONE or not render.file or not storage.exists(render.file.name):
        return None
    url = storage.signed_url(render.file.name, render.download_name())
    if url is not None:
        return HttpResponseRedirect(url)
    return storage.file_response(
        request,
        storage.open_for_reading(render.file.name),
        as_attachment=True,
        filename=render.download_name(),
        content_type="application/pdf",
    )


@extend_schema(
    responses={
        (200, "application/pdf"): OpenApiTypes.BINARY,
        409: OpenApiResponse(description="The PDF is not ready (queued, running or failed)"),
    }
)
@api_view(["GET"])
def download(request: Request, render_pk: str):
    render, _ = access.get_render_for_user(request.user, render_pk)
    response = pdf_response(request, render)
    if response is None:
        if render.status == RenderStatus.DONE:
            message = "The PDF of this sheet is missing from the file storage."
        else:
            message = render.error or f"The sheet is {render.get_status_display().lower()}, not ready yet."
        raise Conflict({"status": [message]})
    return response
