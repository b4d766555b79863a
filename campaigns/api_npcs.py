"""API v1 for a campaign's NPCs. Thin views over campaigns.npc_services.

The GM gets every NPC with its statistics and derived values. Players and observers get only
revealed NPCs, through a serializer that has nothing but id, name and public description, so
the statistics are not even keys in their responses; a hidden NPC is a 404 to them.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.metadata import SimpleMetadata
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from campaigns import npc_services
from campaigns.access import get_campaign_for_user
from campaigns.models import NPC, Membership


# --- serializers ---------------------------------------------------------------------------------
class NPCPublicSerializer(serializers.ModelSerializer):
    """What players and observers see of a revealed NPC: nothing else exists in their answers."""

    class Meta:
        model = NPC
        fields = ["id", "name", "public_description"]
        read_only_fields = fields


class NPCGMSerializer(serializers.ModelSerializer):
    """The GM's view: statistics, notes and everything the engine derives from them."""

    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    minimum_bribe = serializers.SerializerMethodField()
    derived = serializers.SerializerMethodField()

    class Meta:
        model = NPC
        fields = [
            "id",
            "name",
            "public_description",
            "gm_notes",
            "revealed",
            "system",
            "kind",
            "abilities",
            "significance_rating",
            "status_rating",
            "skills",
            "talents",
            "minimum_bribe",
            "derived",
            "created_by",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def _derived(self, npc) -> dict:
        if not hasattr(npc, "_derived_cache"):
            npc._derived_cache = npc_services.derived(npc)
        return npc._derived_cache

    def get_minimum_bribe(self, npc) -> int | None:
        """Least bribe the NPC takes, as the system's NPC rules work it out; null where they have none."""
        return self._derived(npc).get("minimum_bribe")

    def get_derived(self, npc) -> dict:
        """Every value the system's engine computes for the NPC (scores, skills, talents ...)."""
        return self._derived(npc)


class NPCEntrySerializer(serializers.Serializer):
    """Schema only: a list or detail entry. Players get the first three fields, the GM all."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    public_description = serializers.CharField()
    gm_notes = serializers.CharField(required=False, help_text="GM only.")
    revealed = serializers.BooleanField(required=False, help_text="GM only.")
    system = serializers.CharField(required=False, help_text="GM only.")
    kind = serializers.CharField(required=False, help_text="GM only.")
    abilities = serializers.DictField(child=serializers.IntegerField(), required=False, help_text="GM only.")
    significance_rating = serializers.IntegerField(required=False, allow_null=True, help_text="GM only.")
    status_rating = serializers.IntegerField(required=False, allow_null=True, help_text="GM only.")
    skills = serializers.DictField(required=False, help_text="GM only.")
    talents = serializers.ListField(child=serializers.CharField(), required=False, help_text="GM only.")
    minimum_bribe = serializers.IntegerField(required=False, allow_null=True, help_text="GM only.")
    derived = serializers.DictField(required=False, help_text="GM only.")
    created_by = serializers.CharField(required=False, allow_null=True, help_text="GM only.")
    created_at = serializers.DateTimeField(required=False, help_text="GM only.")
    updated_at = serializers.DateTimeField(required=False, help_text="GM only.")


class NPCWriteSerializer(serializers.Serializer):
    """What a GM sends. The statistics are checked by the campaign system's engine."""

    name = serializers.CharField(max_length=120)
    public_description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    gm_notes = serializers.CharField(max_length=20000, required=False, allow_blank=True)
    revealed = serializers.BooleanField(required=False)
    quick = serializers.BooleanField(
        required=False,
        write_only=True,
        help_text="Start from the quick-NPC defaults of the kind (a human's significance rolled on 1d10).",
    )
    kind = serializers.CharField(max_length=20, required=False, allow_blank=True)
    abilities = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        required=False,
        help_text=(
            "Ability code -> score, by the codes of the campaign system's NPC rules; a missing one "
            "takes its quick default."
        ),
    )
    significance_rating = serializers.IntegerField(required=False, allow_null=True)
    status_rating = serializers.IntegerField(required=False, allow_null=True)
    skills = serializers.DictField(child=serializers.DictField(), required=False)
    talents = serializers.ListField(child=serializers.CharField(max_length=60), required=False, max_length=40)


# --- views ---------------------------------------------------------------------------------------
class NoFieldsMetadata(SimpleMetadata):
    """OPTIONS without the serializer's fields: they would name the statistics to any member.
    The OpenAPI schema documents the fields."""

    def determine_actions(self, request, view):
        return {}


class NPCViewSet(viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    queryset = NPC.objects.none()
    serializer_class = NPCGMSerializer
    # JSON only: the browsable renderer would draw the GM's write form on a player's page.
    renderer_classes = [JSONRenderer]
    metadata_class = NoFieldsMetadata
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def _visible(self, membership: Membership):
        npcs = NPC.objects.visible_to(self.request.user, membership)
        return (
            npcs.select_related("created_by")
            if membership.is_gm
            else npcs.only(*NPCPublicSerializer.Meta.fields)
        )

    def _serializer_for(self, membership: Membership):
        return NPCGMSerializer if membership.is_gm else NPCPublicSerializer

    @extend_schema(responses=NPCEntrySerializer(many=True))
    def list(self, request, campaign_pk=None):
        _, membership = get_campaign_for_user(request.user, campaign_pk)
        page = self.paginate_queryset(self._visible(membership))
        data = self._serializer_for(membership)(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(responses=NPCEntrySerializer)
    def retrieve(self, request, campaign_pk=None, pk=None):
        _, membership = get_campaign_for_user(request.user, campaign_pk)
        npc = self._visible(membership).filter(pk=pk).first()
        if npc is None:
            raise Http404
        return Response(self._serializer_for(membership)(npc, context={"request": request}).data)

    @extend_schema(request=NPCWriteSerializer, responses={201: NPCGMSerializer})
    def create(self, request, campaign_pk=None):
        # Access before validation: a player learns nothing about the fields from an error.
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        body = NPCWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        npc = npc_services.create_npc(campaign, request.user, dict(body.validated_data))
        return Response(NPCGMSerializer(npc).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=NPCWriteSerializer, responses=NPCGMSerializer)
    def partial_update(self, request, campaign_pk=None, pk=None):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        npc = campaign.npcs.select_related("created_by").filter(pk=pk).first()
        if npc is None:
            raise Http404
        body = NPCWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        npc = npc_services.update_npc(npc, dict(body.validated_data))
        return Response(NPCGMSerializer(npc).data)

    def destroy(self, request, campaign_pk=None, pk=None):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        deleted, _ = campaign.npcs.filter(pk=pk).delete()
        if not deleted:
            raise Http404
        return Response(status=status.HTTP_204_NO_CONTENT)
