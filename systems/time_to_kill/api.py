"""API v1 for Time to Kill mission runs: start a run, post an event, the GM's state, the player's state,
the event log. Thin views: access through systems.time_to_kill.access, writes through
systems.time_to_kill.services.

Secrecy: only the GM's endpoints serialize the engine's state or the recorded results; everyone else
gets the engine's player view and the public log lines, nothing else.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from systems.time_to_kill import access, services
from systems.time_to_kill.access import get_campaign_for_user
from systems.time_to_kill.models import MissionRun


def run_summary(run: MissionRun, side: str | None) -> dict:
    """What every member may know about a run (no stone count, no secret)."""
    return {
        "id": run.pk,
        "title": run.title,
        "campaign": run.campaign_id,
        "mission": run.mission_id,
        "ninja": run.ninja_id,
        "ninja_name": run.ninja.name,
        "status": run.status,
        "outcome": run.outcome,
        "events": run.event_count,
        "your_side": side,
        "your_move": side is not None and services.whose_side(run) == side,
        "created_at": run.created_at,
    }


class TtkStartRunSerializer(serializers.Serializer):
    ninja = serializers.IntegerField(help_text="id of a finished Time to Kill character of this campaign")
    title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    mission = serializers.IntegerField(required=False, allow_null=True, default=None)
    mission_stones = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="ordinary stones; default the campaign's"
    )
    brief = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    victory_conditions = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    escape_required = serializers.BooleanField(required=False, default=False)
    gm_notes = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class TtkEventSerializer(serializers.Serializer):
    """Documentation of an event; the engine checks the parameters against the current step."""

    type = serializers.CharField(help_text="an event the current step accepts (see available_actions)")
    after = serializers.IntegerField(
        required=False, help_text="events the client saw; a mismatch is refused with 409 and nothing changes"
    )


SUMMARY_FIELDS = {
    "id": serializers.IntegerField(),
    "title": serializers.CharField(),
    "campaign": serializers.IntegerField(),
    "mission": serializers.IntegerField(allow_null=True),
    "ninja": serializers.IntegerField(),
    "ninja_name": serializers.CharField(),
    "status": serializers.CharField(),
    "outcome": serializers.CharField(),
    "events": serializers.IntegerField(),
    "your_side": serializers.CharField(allow_null=True),
    "your_move": serializers.BooleanField(),
    "created_at": serializers.DateTimeField(),
}
SUMMARY = inline_serializer("TtkRunSummary", SUMMARY_FIELDS)
RUN_LIST = inline_serializer(
    "TtkRunList", {"results": inline_serializer("TtkRunListItem", SUMMARY_FIELDS, many=True)}
)


class RunListView(APIView):
    """GET: the campaign's runs (members). POST: start a run for a ninja (GM)."""

    @extend_schema(responses={200: RUN_LIST}, operation_id="ttk_runs_list")
    def get(self, request, campaign_pk):
        _, membership = get_campaign_for_user(request.user, campaign_pk)
        runs = MissionRun.objects.filter(campaign_id=membership.campaign_id).select_related("ninja")
        data = [run_summary(run, access.side_of(run, membership)) for run in runs]
        return Response({"results": data})

    @extend_schema(request=TtkStartRunSerializer, responses={201: SUMMARY}, operation_id="ttk_runs_create")
    def post(self, request, campaign_pk):
        _, membership = get_campaign_for_user(request.user, campaign_pk, need="gm")
        form = TtkStartRunSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        briefing = {key: data[key] for key in services.BRIEFING_FIELDS}
        run = services.start_run(
            membership,
            ninja=data["ninja"],
            title=data["title"],
            mission=data["mission"],
            mission_stones=data["mission_stones"],
            briefing=briefing,
        )
        return Response(run_summary(run, access.GM), status=status.HTTP_201_CREATED)


class EventsView(APIView):
    """GET: the event log (the GM gets each event with its draws and dice; others the public lines).
    POST: one event for the side the user plays (the GM, or the ninja's player)."""

    @extend_schema(
        responses={200: OpenApiResponse(description="the log")}, operation_id="ttk_run_events_list"
    )
    def get(self, request, pk):
        run, membership = access.get_run_for_user(request.user, pk)
        is_gm = access.side_of(run, membership) == access.GM
        rows = []
        for row in run.events.order_by("seq"):
            item = {
                "seq": row.seq,
                "type": row.event["type"],
                "by": row.by_role,
                "log": row.public_log,
                "at": row.created_at,
            }
            if is_gm:
                item.update(event=row.event, gm_log=row.gm_log)
            rows.append(item)
        return Response({"run": run.pk, "events": rows})

    @extend_schema(
        request=TtkEventSerializer,
        responses={
            201: OpenApiResponse(description="the event was applied; the poster's view of the run"),
            409: OpenApiResponse(description="the run moved on since 'after'"),
        },
        operation_id="ttk_run_events_create",
    )
    def post(self, request, pk):
        run, membership = access.get_run_for_user(request.user, pk, need="move")
        side = access.side_of(run, membership)
        data = request.data
        if not isinstance(data, dict):
            raise serializers.ValidationError({"event": ["Send an object with a type."]})
        data = {key: value for key, value in data.items()}
        after = data.pop("after", None)
        row = services.post_event(run, request.user, side, data, expected_count=after)
        body = {"seq": row.seq, "log": row.public_log, "run": run_summary(run, side)}
        body["state"] = services.gm_state(run) if side == access.GM else services.player_state(run)
        return Response(body, status=status.HTTP_201_CREATED)


class AbandonView(APIView):
    """The GM stops a run that will not be finished; the ninja's ledger gets no entry."""

    @extend_schema(request=None, responses={200: SUMMARY}, operation_id="ttk_run_abandon")
    def post(self, request, pk):
        run, membership = access.get_run_for_user(request.user, pk, need="gm")
        services.abandon_run(run, membership)
        return Response(run_summary(run, access.GM))


class GMStateView(APIView):
    """The whole state, the Fate Record Sheet of this turn and both sides' open actions (GM only)."""

    @extend_schema(responses={200: OpenApiResponse(description="gm_view")}, operation_id="ttk_run_gm_state")
    def get(self, request, pk):
        run, _ = access.get_run_for_user(request.user, pk, need="gm")
        return Response({"run": run_summary(run, access.GM), "state": services.gm_state(run)})


class PlayerStateView(APIView):
    """What the player may see: the engine's player view (any member of the campaign)."""

    @extend_schema(
        responses={200: OpenApiResponse(description="player_view")}, operation_id="ttk_run_player_state"
    )
    def get(self, request, pk):
        run, membership = access.get_run_for_user(request.user, pk)
        side = access.side_of(run, membership)
        view = services.player_state(run)
        if side != access.PLAYER:
            view["available_actions"] = []  # only the ninja's player moves from this view
        return Response({"run": run_summary(run, side), "state": view})
