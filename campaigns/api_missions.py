"""API v1 for missions every system shares: list, read, create, change, delete and start. Thin
views over campaigns/missions.py. A system's own actions on its missions (a tally, closing,
publishing, a record) are its API (systems/<system>/api_missions.py, on the same paths), built on
MissionViewSetBase here.

Players and observers get a serializer without the significance, the chart, the roll or the
result; a system publishes those to them only through its own record.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns import missions
from campaigns.access import get_campaign_for_user
from campaigns.models import Mission
from characters.models import Character

ID_MAX = 10**18 - 1


def public_status(mission: Mission, is_gm: bool) -> str:
    """Players read "closed" until the result (success or not) is published."""
    if mission.is_closed and not mission.is_published and not is_gm:
        return "closed"
    return mission.status


# --- serializers ---------------------------------------------------------------------------------
class AgentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Character
        fields = ["id", "name"]
        read_only_fields = fields


#: What every member and the GM read of a mission, in this order; the GM's answer has more.
SHARED_FIELDS = ["id", "title", "briefing", "status", "parallel", "place", "start_year", "end_year", "agents"]


class MissionPublicSerializer(serializers.ModelSerializer):
    """What every member may read: no significance, chart, tally, roll or result."""

    agents = AgentSerializer(many=True, read_only=True)
    status = serializers.SerializerMethodField()
    published = serializers.BooleanField(source="is_published", read_only=True)

    class Meta:
        model = Mission
        fields = [*SHARED_FIELDS, "published", "created_at"]
        read_only_fields = fields

    def get_status(self, mission) -> str:
        return public_status(mission, False)


class MissionGMSerializer(serializers.ModelSerializer):
    agents = AgentSerializer(many=True, read_only=True)
    published = serializers.BooleanField(source="is_published", read_only=True)
    verdict = serializers.SerializerMethodField()

    class Meta:
        model = Mission
        fields = [
            *SHARED_FIELDS,
            "significance_rating",
            "historical_changes_chart",
            "success",
            "verdict",
            "outcome",
            "previous_outcomes",
            "check_roll",
            "published",
            "created_at",
            "started_at",
            "closed_at",
            "published_at",
        ]
        read_only_fields = fields

    def get_verdict(self, mission) -> str | None:
        return (mission.outcome or {}).get("verdict")


class MissionWriteSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200)
    briefing = serializers.CharField(max_length=20000, required=False, allow_blank=True)
    parallel = serializers.CharField(max_length=12, required=False, allow_blank=True)
    place = serializers.CharField(max_length=200, required=False, allow_blank=True)
    start_year = serializers.IntegerField(required=False, allow_null=True, min_value=-99999, max_value=99999)
    end_year = serializers.IntegerField(required=False, allow_null=True, min_value=-99999, max_value=99999)
    significance_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=1000
    )
    agents = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX), required=False, max_length=50
    )
    historical_changes_chart = serializers.JSONField(required=False)

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign

    def validate_agents(self, ids):
        found = {c.pk: c for c in Character.objects.filter(campaign=self.campaign, pk__in=ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise serializers.ValidationError(
                f"No character with id {', '.join(map(str, missing))} in this campaign."
            )
        return [found[i] for i in dict.fromkeys(ids)]

    def validate_historical_changes_chart(self, chart):
        if not isinstance(chart, list):
            raise serializers.ValidationError("The chart is a list of lines {low, high, text}.")
        return chart


# --- views -----------------------------------------------------------------------------------------
# What every missions viewset shares: the ids it takes, access, a mission of the campaign and the
# answer each reader gets. A system's own actions on its missions set ``need_system``: a campaign
# of another system is a 404 to them. (Comments, not docstrings: the schema would show a viewset's
# docstring on every operation without one of its own.)
class MissionViewSetBase(viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = MissionPublicSerializer
    queryset = Mission.objects.none()
    need_system: str | None = None

    def _access(self, need="member"):
        return get_campaign_for_user(self.request.user, self.kwargs["campaign_pk"], need, self.need_system)

    def _mission(self, campaign, pk) -> Mission:
        mission = campaign.missions.filter(pk=pk).first()
        if mission is None:
            raise Http404("No such mission.")
        return mission

    def _out(self, mission, membership):
        cls = MissionGMSerializer if membership.is_gm else MissionPublicSerializer
        return cls(mission, context={"request": self.request}).data


# Plain missions, in every system.
class MissionViewSet(MissionViewSetBase):
    @extend_schema(responses=MissionPublicSerializer(many=True))
    def list(self, request, campaign_pk=None):
        campaign, membership = self._access()
        queryset = campaign.missions.prefetch_related(
            Prefetch("agents", queryset=Character.objects.only("id", "name"))
        )
        page = self.paginate_queryset(queryset)
        cls = MissionGMSerializer if membership.is_gm else MissionPublicSerializer
        return self.get_paginated_response(cls(page, many=True).data)

    @extend_schema(responses=MissionPublicSerializer)
    def retrieve(self, request, campaign_pk=None, pk=None):
        campaign, membership = self._access()
        return Response(self._out(self._mission(campaign, pk), membership))

    @extend_schema(request=MissionWriteSerializer, responses={201: MissionGMSerializer})
    def create(self, request, campaign_pk=None):
        campaign, membership = self._access("gm")  # access before validation
        body = MissionWriteSerializer(data=request.data, campaign=campaign)
        body.is_valid(raise_exception=True)
        mission = missions.create_mission(campaign, dict(body.validated_data))
        return Response(self._out(mission, membership), status=status.HTTP_201_CREATED)

    @extend_schema(request=MissionWriteSerializer, responses=MissionGMSerializer)
    def partial_update(self, request, campaign_pk=None, pk=None):
        campaign, membership = self._access("gm")
        mission = self._mission(campaign, pk)
        body = MissionWriteSerializer(data=request.data, partial=True, campaign=campaign)
        body.is_valid(raise_exception=True)
        mission = missions.update_mission(mission, dict(body.validated_data))
        return Response(self._out(mission, membership))

    def destroy(self, request, campaign_pk=None, pk=None):
        campaign, _ = self._access("gm")
        missions.delete_mission(self._mission(campaign, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=None,
        responses=inline_serializer(
            "MissionStarted",
            {
                "mission": MissionGMSerializer(),
                "warnings": serializers.ListField(child=serializers.CharField()),
            },
        ),
    )
    @action(detail=True, methods=["post"])
    def start(self, request, campaign_pk=None, pk=None):
        """Start a planned mission: its system's rules check it and write what the trip gives the
        characters sent (refused, with the field that is wrong, in a system without mission rules)."""
        campaign, membership = self._access("gm")
        mission = self._mission(campaign, pk)
        warnings = missions.start_mission(mission, request.user)
        mission.refresh_from_db()
        return Response({"mission": self._out(mission, membership), "warnings": warnings})
