"""API v1 of TIMEMASTER's missions: the significance tally (read, record, reverse), close, publish,
the after-action record and the GM's campaign audit, on the paths of the platform's missions API
(campaigns/api_missions.py: list, read, create, change, delete, start). Thin views over
systems/timemaster/missions.py and campaigns/missions.py.

A campaign of another system is a 404 here. Players and observers read the significance, the
tally, the roll and the result only through the after-action record, and only once the GM has
published it (ruling 4).
"""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns import missions
from campaigns.api_missions import ID_MAX, MissionGMSerializer, MissionViewSetBase
from campaigns.models import NPC, SignificanceEntry
from systems.timemaster import missions as tm_missions
from systems.timemaster.engine.advancement_tables import SEP_ITEMS, TALLY_KINDS


# --- serializers ---------------------------------------------------------------------------------
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
    result = serializers.ChoiceField(choices=sorted(tm_missions.RESULT_STATUS))


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
# TIMEMASTER's actions on a mission (the platform's MissionViewSet has the plain ones).
class MissionViewSet(MissionViewSetBase):
    need_system = tm_missions.SYSTEM

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
        entry = tm_missions.record_mistake(mission, request.user, data)
        return Response(TallyEntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ReversalSerializer, responses={201: TallyEntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"tally/(?P<entry_pk>[0-9]{1,18})/reverse")
    def reverse_tally(self, request, campaign_pk=None, pk=None, entry_pk=None):
        """Reverse a tally entry; after closing, the outcome and awards are worked out again."""
        campaign, _ = self._access("gm")
        mission = self._mission(campaign, pk)
        body = ReversalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = tm_missions.reverse_mistake(
            mission, int(entry_pk), request.user, body.validated_data["reason"]
        )
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
        closed = tm_missions.close_mission(membership, mission, body.validated_data["result"])
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
        record = tm_missions.after_action(mission, request.user, membership.is_gm)
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
                    "mistakes_total": tm_missions.tally_summary(list(mission.tally_entries.all()))[
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
