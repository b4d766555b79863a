"""API v1 for D6 encounters: encounters, their participants and their events. Thin views over
``systems.d6.services``; what each role sees comes from ``systems.d6.presenters``.

The GM gets the tracker (every code, roll, total and tie-break value) and the raw events with
their dice. Players and observers get the order, the public log and, for a player, the
declarations of their own characters; NPC statistics are not even keys in their answers.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api import Pagination
from systems.d6 import presenters, services
from systems.d6.access import get_campaign_for_user
from systems.d6.models import METHOD_CHOICES, Encounter, Participant


# --- serializers ---------------------------------------------------------------------------------
class EncounterSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="setup, running or over.")
    method_number = serializers.IntegerField(read_only=True)
    method_label = serializers.CharField(read_only=True)
    round = serializers.SerializerMethodField()
    phase = serializers.SerializerMethodField()

    class Meta:
        model = Encounter
        fields = [
            "id",
            "name",
            "method",
            "method_number",
            "method_label",
            "optional_initiative_bonus",
            "status",
            "round",
            "phase",
            "event_count",
            "created_at",
        ]
        read_only_fields = fields

    def get_round(self, encounter) -> int:
        return (encounter.state or {}).get("round", 0)

    def get_phase(self, encounter) -> str:
        return (encounter.state or {}).get("phase", "setup")


class EncounterPageSerializer(serializers.Serializer):
    """Schema only: one page of encounters."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EncounterSerializer(many=True)


class EncounterDetailSerializer(EncounterSerializer):
    """Schema only: an encounter with what the caller's role may see of it."""

    participants = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="While setting up."
    )
    tracker = serializers.DictField(required=False, help_text="GM only, once started: the round tracker.")
    view = serializers.DictField(required=False, help_text="Players and observers, once started.")

    class Meta(EncounterSerializer.Meta):
        fields = [*EncounterSerializer.Meta.fields, "participants", "tracker", "view"]


class EncounterWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    method = serializers.ChoiceField(choices=METHOD_CHOICES, required=False)
    optional_initiative_bonus = serializers.BooleanField(required=False)


class ParticipantPublicSerializer(serializers.ModelSerializer):
    """What everyone in the campaign sees of a participant."""

    character = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Participant
        fields = ["id", "key", "kind", "name", "character"]
        read_only_fields = fields


class ParticipantGMSerializer(serializers.ModelSerializer):
    """The GM's view: NPC statistics and group members too."""

    character = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Participant
        fields = [
            "id",
            "key",
            "kind",
            "name",
            "character",
            "character_revision",
            "controlled_by",
            "stats",
            "members",
        ]
        read_only_fields = fields


class ParticipantWriteSerializer(serializers.Serializer):
    """Either ``character`` (a finalized D6 character of the campaign) or an NPC/group."""

    character = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    kind = serializers.CharField(max_length=10, required=False, help_text="npc (the default) or group.")
    name = serializers.CharField(max_length=120, required=False)
    attributes = serializers.DictField(child=serializers.CharField(max_length=20), required=False)
    skills = serializers.DictField(child=serializers.DictField(), required=False)
    action_allotment = serializers.IntegerField(required=False)
    character_points = serializers.IntegerField(required=False)
    goes_first = serializers.BooleanField(required=False)
    members = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, max_length=200
    )

    def validate(self, data):
        if "character" in data and len(data) > 1:
            raise serializers.ValidationError("Send either a character or an NPC's fields, not both.")
        if "character" not in data and "name" not in data:
            raise serializers.ValidationError({"name": ["Name the NPC or group (or send a character)."]})
        return data


class ParticipantEntrySerializer(serializers.Serializer):
    """Schema only: a participant. Players and observers get the first five fields, the GM all."""

    id = serializers.IntegerField()
    key = serializers.CharField()
    kind = serializers.CharField()
    name = serializers.CharField()
    character = serializers.IntegerField(allow_null=True)
    character_revision = serializers.IntegerField(allow_null=True, required=False, help_text="GM only.")
    controlled_by = serializers.CharField(required=False, help_text="GM only.")
    stats = serializers.DictField(required=False, help_text="GM only: the NPC's statistics.")
    members = serializers.ListField(child=serializers.CharField(), required=False, help_text="GM only.")


class ParticipantListSerializer(serializers.Serializer):
    """Schema only: every participant of the encounter."""

    results = ParticipantEntrySerializer(many=True)


class EventListSerializer(serializers.Serializer):
    """Schema only: the GM gets the stored events ({seq, type, payload, created_at}), everyone else
    the public log ({round, type, participant, summary})."""

    results = serializers.ListField(child=serializers.DictField())


class EventWriteSerializer(serializers.Serializer):
    """Schema only: an engine event, e.g. {"type": "declare", "participant": "character-3", "actions": 2}.
    The engine checks every field and names the one it refuses."""

    type = serializers.CharField()


class NoFieldsMetadata(SimpleMetadata):
    """OPTIONS without field lists: they would describe the GM's forms to any member."""

    def determine_actions(self, request, view):
        return {}


class _Base(APIView):
    renderer_classes = [JSONRenderer]
    metadata_class = NoFieldsMetadata

    def _encounter(self, request, campaign_pk, pk, need="member"):
        campaign, membership = get_campaign_for_user(request.user, campaign_pk, need=need)
        encounter = Encounter.objects.filter(campaign=campaign, pk=pk).first()
        if encounter is None:
            raise Http404
        return encounter, membership


def _detail(encounter: Encounter, membership, user) -> dict:
    data = EncounterSerializer(encounter).data
    if encounter.status == Encounter.Status.SETUP:
        data["participants"] = presenters.setup_rows(encounter, membership.is_gm)
        return data
    if membership.is_gm:
        data["tracker"] = presenters.gm_view(encounter)
    else:
        data["view"] = presenters.player_view(encounter, presenters.own_keys(encounter, user))
    return data


# --- views ---------------------------------------------------------------------------------------
class EncounterList(_Base):
    @extend_schema(responses=EncounterPageSerializer, operation_id="d6_encounters_list")
    def get(self, request, campaign_pk):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk)
        paginator = Pagination()
        page = paginator.paginate_queryset(campaign.d6_encounters.all(), request, view=self)
        return paginator.get_paginated_response(EncounterSerializer(page, many=True).data)

    @extend_schema(request=EncounterWriteSerializer, responses={201: EncounterSerializer})
    def post(self, request, campaign_pk):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        body = EncounterWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        encounter = services.create_encounter(campaign, request.user, **body.validated_data)
        return Response(EncounterSerializer(encounter).data, status=status.HTTP_201_CREATED)


class EncounterDetail(_Base):
    @extend_schema(responses=EncounterDetailSerializer, operation_id="d6_encounter_retrieve")
    def get(self, request, campaign_pk, pk):
        encounter, membership = self._encounter(request, campaign_pk, pk)
        return Response(_detail(encounter, membership, request.user))

    @extend_schema(request=EncounterWriteSerializer, responses=EncounterDetailSerializer)
    def patch(self, request, campaign_pk, pk):
        encounter, membership = self._encounter(request, campaign_pk, pk, need="gm")
        body = EncounterWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        encounter = services.update_encounter(encounter, dict(body.validated_data))
        return Response(_detail(encounter, membership, request.user))


class EncounterStart(_Base):
    @extend_schema(request=None, responses=EncounterDetailSerializer)
    def post(self, request, campaign_pk, pk):
        encounter, membership = self._encounter(request, campaign_pk, pk, need="gm")
        encounter = services.start_encounter(encounter)
        return Response(_detail(encounter, membership, request.user))


class ParticipantList(_Base):
    @extend_schema(responses=ParticipantListSerializer, operation_id="d6_encounter_participants_list")
    def get(self, request, campaign_pk, pk):
        encounter, membership = self._encounter(request, campaign_pk, pk)
        serializer = ParticipantGMSerializer if membership.is_gm else ParticipantPublicSerializer
        return Response({"results": serializer(encounter.participants.all(), many=True).data})

    @extend_schema(request=ParticipantWriteSerializer, responses={201: ParticipantGMSerializer})
    def post(self, request, campaign_pk, pk):
        encounter, _ = self._encounter(request, campaign_pk, pk, need="gm")
        body = ParticipantWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        if "character" in data:
            participant = services.add_character(encounter, data["character"])
        else:
            participant = services.add_npc(encounter, data)
        return Response(ParticipantGMSerializer(participant).data, status=status.HTTP_201_CREATED)


class ParticipantDetail(_Base):
    def _participant(self, encounter, participant_pk):
        participant = encounter.participants.filter(pk=participant_pk).first()
        if participant is None:
            raise Http404
        return participant

    @extend_schema(responses=ParticipantEntrySerializer, operation_id="d6_encounter_participant_retrieve")
    def get(self, request, campaign_pk, pk, participant_pk):
        encounter, membership = self._encounter(request, campaign_pk, pk)
        participant = self._participant(encounter, participant_pk)
        serializer = ParticipantGMSerializer if membership.is_gm else ParticipantPublicSerializer
        return Response(serializer(participant).data)

    @extend_schema(responses={204: None})
    def delete(self, request, campaign_pk, pk, participant_pk):
        encounter, _ = self._encounter(request, campaign_pk, pk, need="gm")
        participant = self._participant(encounter, participant_pk)
        services.remove_participant(participant)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventList(_Base):
    @extend_schema(responses=EventListSerializer)
    def get(self, request, campaign_pk, pk):
        """GM: the stored events with their dice. Everyone else: the public log."""
        encounter, membership = self._encounter(request, campaign_pk, pk)
        if membership.is_gm:
            events = [
                {"seq": e.seq, "type": e.type, "payload": e.payload, "created_at": e.created_at}
                for e in encounter.events.order_by("seq")
            ]
            return Response({"results": events})
        if encounter.status == Encounter.Status.SETUP:
            return Response({"results": []})
        view = presenters.player_view(encounter, presenters.own_keys(encounter, request.user))
        return Response({"results": list(reversed(view["log"]))})

    @extend_schema(request=EventWriteSerializer, responses={201: EncounterDetailSerializer})
    def post(self, request, campaign_pk, pk):
        encounter, membership = self._encounter(request, campaign_pk, pk, need="player")
        data = request.data
        if hasattr(data, "dict"):  # a form-encoded body: one value per field, as plain JSON
            data = data.dict()
        services.record_event(encounter, membership, data)
        return Response(_detail(encounter, membership, request.user), status=status.HTTP_201_CREATED)
