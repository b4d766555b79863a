"""API v1 for characters: drafts, finalizing, the character itself and its advancement ledger.

Thin views: access through characters.access, writes through characters.services. Routes live in
characters/api_urls.py under /api/v1/campaigns/<campaign_pk>/characters/.
"""

from __future__ import annotations

import random

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from characters import access, services
from characters.models import AdvancementEntry, Character
from kernel.api import StrictCursorPagination
from kernel.errors import problems


# --- serializers ---------------------------------------------------------------------------------
class CharacterSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    # Plain text, not an enum: Mission.status already claims the "Status" enum name in the schema.
    status = serializers.CharField(read_only=True, help_text="draft, active, retired or dead")

    class Meta:
        model = Character
        fields = ["id", "name", "system", "module", "status", "owner", "revision", "created_at", "updated_at"]
        read_only_fields = fields


class CharacterDetailSerializer(CharacterSerializer):
    choices = serializers.SerializerMethodField()
    build = serializers.JSONField(read_only=True)
    derived = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()

    class Meta(CharacterSerializer.Meta):
        fields = [*CharacterSerializer.Meta.fields, "choices", "build", "derived", "problems"]
        read_only_fields = fields

    def get_choices(self, character) -> dict:
        return character.choices if character.is_draft else {}

    def get_derived(self, character) -> dict | None:
        if character.is_draft or not character.build:
            return None
        return services.system_of(character).derive(character.build)

    def get_problems(self, character) -> list[dict]:
        """For a draft: what finalizing it would refuse now, each naming its field."""
        if not character.is_draft:
            return []
        try:
            services.preview_build(character, random.Random(0))
        except DjangoValidationError as error:
            return problems(error)
        return []


class DraftSerializer(serializers.Serializer):
    choices = serializers.JSONField(
        required=False, default=dict, help_text="The wizard's choices (see the system's README)."
    )


class EntrySerializer(serializers.ModelSerializer):
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True, default=None)
    reversed = serializers.SerializerMethodField()

    class Meta:
        model = AdvancementEntry
        fields = [
            "id",
            "kind",
            "payload",
            "reverses",
            "reversed",
            "reason",
            "mission",
            "recorded_by",
            "created_at",
            "revision_after",
        ]
        read_only_fields = fields

    def get_reversed(self, entry) -> bool:
        marked = getattr(entry, "is_reverted", None)  # the history's rows (with_reverted_mark)
        return marked if marked is not None else entry.pk in self.context.get("reversed_ids", set())


class HistoryPagination(StrictCursorPagination):
    """The ledger pages by position (oldest first, by id), not by page number: a page costs the
    same for an agent of 10 entries as for one of 10,000, at any depth; page numbers paid an exact
    COUNT(*) of the ledger and an OFFSET that grows with the depth (issue 22). Follow ``next`` /
    ``previous``; there is no ``count``, and ``?page=`` is refused with a 400."""

    ordering = ("id",)
    what = "the history"


class RevertSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


# --- views ---------------------------------------------------------------------------------------
class CharacterViewSet(
    mixins.ListModelMixin, mixins.CreateModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Characters of one campaign: observers read, players create and edit their own drafts, the
    game master sees and edits everything."""

    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = CharacterSerializer
    queryset = Character.objects.none()
    http_method_names = ["get", "post", "patch", "head", "options"]

    def _membership(self, need_role: str | None = None):
        membership = access.membership_for(self.request.user, self.kwargs["campaign_pk"])
        if membership is None:
            raise Http404("No such campaign.")
        if need_role == "player" and membership.role == access.OBSERVER:
            raise PermissionDenied("Observers cannot create characters.")
        return membership

    def _character(self, need: str = "view") -> Character:
        character, _ = access.get_character_for_user(
            self.request.user, self.kwargs["pk"], need=need, campaign_id=self.kwargs["campaign_pk"]
        )
        return character

    def get_queryset(self):
        membership = self._membership()
        return (
            Character.objects.visible_to(self.request.user)
            .filter(campaign_id=membership.campaign_id)
            .select_related("owner")
        )

    def get_serializer_class(self):
        if self.action == "list":
            return CharacterSerializer
        return CharacterDetailSerializer

    def retrieve(self, request, campaign_pk=None, pk=None):
        return Response(CharacterDetailSerializer(self._character()).data)

    @extend_schema(request=DraftSerializer, responses={201: CharacterDetailSerializer})
    def create(self, request, campaign_pk=None):
        """Start a draft owned by the caller."""
        membership = self._membership(need_role="player")
        body = DraftSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        character = services.create_draft(
            membership.campaign,
            request.user,
            choices=body.validated_data.get("choices") or {},
            is_gm=membership.role == access.GM,
        )
        return Response(CharacterDetailSerializer(character).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DraftSerializer, responses=CharacterDetailSerializer)
    def partial_update(self, request, campaign_pk=None, pk=None):
        """Merge choices into a draft (top-level keys replace the stored ones)."""
        character, membership = access.get_character_for_user(
            request.user, pk, need="edit", campaign_id=campaign_pk
        )
        body = DraftSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        character = services.update_draft(
            character, body.validated_data.get("choices") or {}, is_gm=membership.role == access.GM
        )
        return Response(CharacterDetailSerializer(character).data)

    @extend_schema(request=None, responses=CharacterDetailSerializer)
    @action(detail=True, methods=["post"])
    def finalize(self, request, campaign_pk=None, pk=None):
        """Build and validate the draft through the engine; afterwards it changes only by ledger."""
        character, membership = access.get_character_for_user(
            request.user, pk, need="edit", campaign_id=campaign_pk
        )
        character = services.finalize(character, is_gm=membership.role == access.GM)
        return Response(CharacterDetailSerializer(character).data)

    @extend_schema(responses=EntrySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=HistoryPagination)
    def history(self, request, campaign_pk=None, pk=None):
        """The advancement ledger, oldest first, a page at a time by cursor (follow ``next``; no
        ``count``); reverted entries are marked."""
        character = self._character()
        # Which of this page's entries were reverted, read with the page (only theirs, not every
        # reversal of the ledger): one query for the page at any length (issue 43).
        entries = character.entries.with_reverted_mark().select_related("recorded_by")
        page = self.paginate_queryset(entries)
        data = EntrySerializer(page, many=True).data
        return self.get_paginated_response(data)

    @extend_schema(request=RevertSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_pk>[0-9]{1,18})/revert")
    def revert(self, request, campaign_pk=None, pk=None, entry_pk=None):
        """Game master only: undo a ledger entry with a reversing entry."""
        character, _ = access.get_character_for_user(request.user, pk, need="gm", campaign_id=campaign_pk)
        entry = get_object_or_404(AdvancementEntry, character=character, pk=entry_pk)
        body = RevertSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reversal = services.revert_entry(entry, request.user, body.validated_data["reason"])
        return Response(
            EntrySerializer(reversal, context={"reversed_ids": set()}).data, status=status.HTTP_201_CREATED
        )
