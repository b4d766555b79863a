"""API v1 for missions: CRUD for the GM, the significance tally, start, close, publish, the
players' after-action record and the GM's campaign audit. Thin views over campaigns/missions.py.

Players and observers get a serializer without the significance, the chart, the tally, the roll
or the result; the after-action record holds those only once the GM has published (ruling 4).
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
from campaigns.models import NPC, Mission, SignificanceEntry
from characters.models import Character
from systems.timemaster.engine.advancement_tables import SEP_ITEMS, TALLY_KINDS

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


class TallyEntrySerializer(serializers.ModelSerializer):
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True, default=None)

    class Meta:
        model = SignificanceEntry
        fields = [
            "id",
            "kind",
            "description",
            "rating",
            "npc",
            "equipment_item",
            "reverses",
            "reason",
            "after_close",
            "shown_to_players",
            "recorded_by",
            "created_at",
        ]
        read_only_fields = fields


class PublicTallyEntrySerializer(serializers.Serializer):
    """A tally line as a player reads it: numbered by its position among the lines the player may
    see, with no database id (an id's gaps would count the hidden lines; docs/secrets.md)."""

    number = serializers.IntegerField(read_only=True)
    kind = serializers.CharField(source="entry.kind", read_only=True)
    description = serializers.CharField(source="entry.description", read_only=True)
    rating = serializers.IntegerField(source="entry.rating", read_only=True, allow_null=True)
    equipment_item = serializers.CharField(source="entry.equipment_item", read_only=True)
    reverses = serializers.IntegerField(source="reverses_number", read_only=True, allow_null=True)
    reversed = serializers.BooleanField(read_only=True)
    reason = serializers.CharField(source="entry.reason", read_only=True)


class MistakeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sorted(TALLY_KINDS))
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    rating = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1000)
    npc = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=ID_MAX)
    equipment_item = serializers.ChoiceField(choices=sorted(SEP_ITEMS), required=False, allow_blank=True)
    shown_to_players = serializers.BooleanField(required=False, default=True)


class ReversalSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class CloseSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=sorted(missions.RESULT_STATUS))


class AuditQuerySerializer(serializers.Serializer):
    agent = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    closed_from = serializers.DateField(required=False)
    closed_to = serializers.DateField(required=False)


# Before publishing a player gets only "mission" and "published": everything else is optional.
AFTER_ACTION = inline_serializer(
    "AfterAction",
    {
        "mission": serializers.IntegerField(),
        "published": serializers.BooleanField(),
        "verdict": serializers.CharField(allow_null=True, required=False),
        "verdict_label": serializers.CharField(required=False),
        "history_changed": serializers.BooleanField(required=False),
        "chart_line": serializers.CharField(allow_null=True, required=False),
        "roll": serializers.IntegerField(allow_null=True, required=False),
        "mistakes_total": serializers.IntegerField(allow_null=True, required=False),
        "awards": serializers.ListField(child=serializers.DictField(), required=False),
        "tally": PublicTallyEntrySerializer(many=True, required=False),
    },
)


# --- views -----------------------------------------------------------------------------------------
class MissionViewSet(viewsets.GenericViewSet):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = MissionPublicSerializer
    queryset = Mission.objects.none()

    #: TIMEMASTER's significance tally, its result and audit: 404 for a campaign of another system
    #: (plain missions, the rest of this viewset, exist in every system).
    TIMEMASTER_ACTIONS = ("tally", "reverse_tally", "close", "publish", "after_action", "audit")

    def _access(self, need="member"):
        need_system = missions.SYSTEM if self.action in self.TIMEMASTER_ACTIONS else None
        return get_campaign_for_user(self.request.user, self.kwargs["campaign_pk"], need, need_system)

    def _mission(self, campaign, pk) -> Mission:
        mission = campaign.missions.filter(pk=pk).first()
        if mission is None:
            raise Http404("No such mission.")
        return mission

    def _out(self, mission, membership):
        cls = MissionGMSerializer if membership.is_gm else MissionPublicSerializer
        return cls(mission, context={"request": self.request}).data

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
        """Send the agents: Times Visited through each agent's ledger; loop traps refused."""
        campaign, membership = self._access("gm")
        mission = self._mission(campaign, pk)
        warnings = missions.start_mission(mission, request.user)
        mission.refresh_from_db()
        return Response({"mission": self._out(mission, membership), "warnings": warnings})

    @extend_schema(methods=["GET"], responses=TallyEntrySerializer(many=True))
    @extend_schema(methods=["POST"], request=MistakeSerializer, responses={201: TallyEntrySerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def tally(self, request, campaign_pk=None, pk=None):
        """The significance tally (GM only): read it, or record a mistake."""
        campaign, _ = self._access("gm")
        mission = self._mission(campaign, pk)
        if request.method == "GET":
            entries = mission.tally_entries.select_related("recorded_by")
            return Response(TallyEntrySerializer(entries, many=True).data)
        body = MistakeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        if data.get("npc"):
            npc = NPC.objects.filter(campaign=campaign, pk=data["npc"]).first()
            if npc is None:
                raise serializers.ValidationError({"npc": "No NPC with this id in this campaign."})
            data["npc"] = npc
        entry = missions.record_mistake(mission, request.user, data)
        return Response(TallyEntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ReversalSerializer, responses={201: TallyEntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"tally/(?P<entry_pk>[0-9]{1,18})/reverse")
    def reverse_tally(self, request, campaign_pk=None, pk=None, entry_pk=None):
        """Reverse a tally entry; after closing, the outcome and awards are worked out again."""
        campaign, _ = self._access("gm")
        mission = self._mission(campaign, pk)
        body = ReversalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = missions.reverse_mistake(mission, int(entry_pk), request.user, body.validated_data["reason"])
        return Response(TallyEntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CloseSerializer, responses=MissionGMSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request, campaign_pk=None, pk=None):
        """Close the mission; on success the secret significance check is rolled. The outcome is
        stored for the GM; the agents' ledgers change only when the result is published."""
        campaign, membership = self._access("gm")
        mission = self._mission(campaign, pk)
        body = CloseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        closed = missions.close_mission(membership, mission, body.validated_data["result"])
        return Response(self._out(closed, membership))

    @extend_schema(request=None, responses=MissionGMSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request, campaign_pk=None, pk=None):
        """Publish the result: every agent's award entries go to their ledger, and the players
        can read the after-action record."""
        campaign, membership = self._access("gm")
        mission = self._mission(campaign, pk)
        published = missions.publish_mission(mission, request.user)
        return Response(self._out(published, membership))

    @extend_schema(responses=AFTER_ACTION)
    @action(detail=True, methods=["get"], url_path="after-action")
    def after_action(self, request, campaign_pk=None, pk=None):
        """The after-action record: for players only once published (before: published=false)."""
        campaign, membership = self._access()
        mission = self._mission(campaign, pk)
        record = missions.after_action(mission, request.user, membership.is_gm)
        if record is None:
            return Response({"mission": mission.pk, "published": False})
        if membership.is_gm:
            numbers = {row["entry"].pk: row["number"] for row in missions.numbered_tally(record["tally"])}
            tally = [
                {"number": numbers[entry.pk], **data}
                for entry, data in zip(
                    record["tally"], TallyEntrySerializer(record["tally"], many=True).data, strict=True
                )
            ]
        else:
            tally = PublicTallyEntrySerializer(missions.numbered_tally(record["tally"]), many=True).data
        return Response(
            {
                "mission": mission.pk,
                **{k: v for k, v in record.items() if k != "tally"},
                "tally": tally,
            }
        )

    @extend_schema(
        parameters=[AuditQuerySerializer],
        responses=inline_serializer(
            "MissionAudit",
            {
                "id": serializers.IntegerField(),
                "title": serializers.CharField(),
                "status": serializers.CharField(),
                "closed_at": serializers.DateTimeField(allow_null=True),
                "significance_rating": serializers.IntegerField(allow_null=True),
                "mistakes_total": serializers.IntegerField(),
                "roll": serializers.IntegerField(allow_null=True),
                "verdict": serializers.CharField(allow_null=True),
                "pool": serializers.IntegerField(allow_null=True),
                "share": serializers.IntegerField(allow_null=True),
                "remainder": serializers.IntegerField(allow_null=True),
                "awards": serializers.ListField(child=serializers.DictField()),
                "published": serializers.BooleanField(),
            },
            many=True,
        ),
    )
    @action(detail=False, methods=["get"], pagination_class=None)
    def audit(self, request, campaign_pk=None):
        """Every mission side by side for the GM; filter by agent and by the date it closed."""
        campaign, _ = self._access("gm")
        query = AuditQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = query.validated_data
        queryset = campaign.missions.select_related("check_roll").prefetch_related(
            Prefetch(
                "tally_entries",
                queryset=SignificanceEntry.objects.only("id", "kind", "rating", "reverses_id", "mission_id"),
            )
        )
        if "agent" in filters:
            queryset = queryset.filter(agents__pk=filters["agent"])
        if "closed_from" in filters:
            queryset = queryset.filter(closed_at__date__gte=filters["closed_from"])
        if "closed_to" in filters:
            queryset = queryset.filter(closed_at__date__lte=filters["closed_to"])
        rows = []
        for mission in queryset:
            outcome = mission.outcome or {}
            rows.append(
                {
                    "id": mission.pk,
                    "title": mission.title,
                    "status": mission.status,
                    "closed_at": mission.closed_at,
                    "significance_rating": mission.significance_rating,
                    "mistakes_total": missions.tally_summary(list(mission.tally_entries.all()))[
                        "mistakes_total"
                    ],
                    "roll": mission.check_roll.total if mission.check_roll else None,
                    "verdict": outcome.get("verdict"),
                    "pool": outcome.get("pool"),
                    "share": outcome.get("share"),
                    "remainder": outcome.get("remainder"),
                    "awards": outcome.get("awards", []),
                    "published": mission.is_published,
                }
            )
        return Response(rows)
