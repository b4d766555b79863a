"""API v1 of Tempo play: an agent's roll, the GM's fate point refresh, conflicts and their events.
Thin views: objects through the access helpers, writes in systems/tempo/services.py, rules in the
engine."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.models import Role
from campaigns.table.api_rolls import RollSerializer
from systems.tempo import access, services
from systems.tempo.access import get_campaign_for_user
from systems.tempo.engine.tables import FATE_REFRESH_MODES
from systems.tempo.models import Conflict

MAX_BODY_KEYS = 40


class TempoRollRequestSerializer(serializers.Serializer):
    role = serializers.CharField(max_length=40)
    instead_of = serializers.CharField(max_length=40, required=False, allow_null=True, default=None)
    purpose = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    aspects = serializers.JSONField(required=False, default=list)
    bonuses = serializers.JSONField(required=False, default=list)
    penalties = serializers.JSONField(required=False, default=list)
    descriptive = serializers.JSONField(required=False, default=list)
    bonus_dice = serializers.JSONField(required=False, default=0)
    penalty_dice = serializers.JSONField(required=False, default=0)
    extra_dice = serializers.JSONField(required=False, default=0)
    lost_dice = serializers.JSONField(required=False, default=0)
    help = serializers.JSONField(required=False, default=list)
    hurry = serializers.JSONField(required=False, default=None)

    def validate(self, attrs):
        for key in ("aspects", "bonuses", "penalties", "descriptive", "help"):
            if not isinstance(attrs.get(key), list):
                raise serializers.ValidationError({key: f"{key.capitalize()} must be a list."})
        unknown = set(self.initial_data) - set(self.fields)
        if unknown:
            raise serializers.ValidationError(
                {key: "Not a field of a Tempo roll." for key in sorted(unknown)}
            )
        return attrs


class ConflictCreateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120)
    scene_aspects = serializers.ListField(
        child=serializers.CharField(max_length=120), max_length=20, default=list
    )
    sides = serializers.ListField(child=serializers.DictField(), min_length=2, max_length=2)


class EventSerializer(serializers.Serializer):
    type = serializers.CharField(max_length=30)


def conflict_data(conflict: Conflict, membership, settings: dict) -> dict:
    state = access.view_of(conflict, membership, settings)
    participants = list(conflict.participants.all())
    from systems.tempo.engine import conflict as engine_conflict

    return {
        "id": conflict.pk,
        "title": conflict.title,
        "status": conflict.status,
        "created_at": conflict.created_at,
        "sides": [
            {
                "key": key,
                "name": state["sides"][key]["name"],
                "controlled_by": state["sides"][key]["controlled_by"],
                "characters": [p.character_id for p in participants if p.side == key and p.character_id],
                "npcs": [p.npc_name for p in participants if p.side == key and not p.character_id],
            }
            for key in state["order"]
        ],
        "tracker": engine_conflict.tracker(state),
        "state": state,
    }


def event_data(event, state: dict) -> dict:
    log = state.get("log", [])
    return {
        "id": event.pk,
        "seq": event.seq,
        "kind": event.kind,
        "summary": services.reader_summary(event, state),
        "recorded_by": event.recorded_by.username if event.recorded_by else None,
        "created_at": event.created_at,
        "record": log[event.seq - 1] if 0 < event.seq <= len(log) else None,
    }


def _tempo_campaign(user, campaign_pk):
    return get_campaign_for_user(user, campaign_pk)


class FateRefreshAgentSerializer(serializers.Serializer):
    character = serializers.IntegerField(source="character.pk")
    name = serializers.CharField(source="character.name")
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk", allow_null=True, default=None)


class FateRefreshSerializer(serializers.Serializer):
    """What a refresh did: the campaign's refresh setting, the agents whose fate points rose (with
    their new ledger entry) and those it left as they were."""

    fate_refresh = serializers.IntegerField()
    fate_refresh_mode = serializers.ChoiceField(choices=FATE_REFRESH_MODES)
    refreshed_by = serializers.CharField()
    changes = FateRefreshAgentSerializer(many=True)
    unchanged = FateRefreshAgentSerializer(many=True)


class FateRefreshView(APIView):
    """The GM refreshes every active agent's fate points by the campaign's refresh settings."""

    @extend_schema(request=None, responses={200: FateRefreshSerializer}, operation_id="tempo_fate_refresh")
    def post(self, request, campaign_pk):
        _, membership = get_campaign_for_user(request.user, campaign_pk)
        result = services.refresh_fate_points(membership)
        data = {
            "fate_refresh": result.fate_refresh,
            "fate_refresh_mode": result.fate_refresh_mode,
            "refreshed_by": request.user.username,
            "changes": result.changes,
            "unchanged": result.unchanged,
        }
        return Response(FateRefreshSerializer(data).data)


class TempoRollView(APIView):
    """Roll a role for a finished Tempo agent (its player or the GM)."""

    @extend_schema(request=TempoRollRequestSerializer, responses={201: RollSerializer})
    def post(self, request, character_pk):
        character, membership = access.get_agent_for_user(request.user, character_pk)
        if not services.may_roll_for(character, membership):
            raise PermissionDenied("Only the agent's player or the game master rolls for this agent.")
        body = TempoRollRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        role, instead_of, purpose = data.pop("role"), data.pop("instead_of"), data.pop("purpose")
        if data.get("hurry") is None:
            data.pop("hurry", None)
        roll, ledger = services.roll_for_character(
            membership, character, role, data, instead_of=instead_of, purpose=purpose
        )
        payload = {
            "roll": RollSerializer(roll).data,
            "fate_points": character.build.get("fate_points", 0),
            "revision": character.revision,
            "ledger_entries": [{"id": e.pk, "kind": e.kind, "payload": e.payload} for e in ledger],
        }
        return Response(payload, status=status.HTTP_201_CREATED)


class ConflictListView(APIView):
    """Conflicts of a Tempo campaign: the GM sees all and starts them; a player sees theirs."""

    @extend_schema(
        responses=inline_serializer("ConflictList", {"results": serializers.ListField()}),
        operation_id="tempo_conflicts_list",
    )
    def get(self, request, campaign_pk):
        campaign, membership = _tempo_campaign(request.user, campaign_pk)
        if membership.role == Role.OBSERVER:
            raise PermissionDenied(access.NOT_INVOLVED)
        settings = services.campaign_settings(campaign)
        conflicts = Conflict.objects.visible_to(request.user, membership).prefetch_related("participants")
        return Response({"results": [conflict_data(c, membership, settings) for c in conflicts[:100]]})

    @extend_schema(request=ConflictCreateSerializer, responses={201: dict})
    def post(self, request, campaign_pk):
        campaign, membership = _tempo_campaign(request.user, campaign_pk)
        if membership.role != Role.GM:
            raise PermissionDenied("Only the game master starts a conflict.")
        body = ConflictCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        conflict = services.create_conflict(membership, dict(body.validated_data))
        settings = services.campaign_settings(campaign)
        return Response(conflict_data(conflict, membership, settings), status=status.HTTP_201_CREATED)


class ConflictDetailView(APIView):
    @extend_schema(responses=dict, operation_id="tempo_conflict_retrieve")
    def get(self, request, campaign_pk, pk):
        conflict, membership = access.get_conflict_for_user(request.user, pk, campaign_id=campaign_pk)
        settings = services.campaign_settings(conflict.campaign)
        return Response(conflict_data(conflict, membership, settings))


class ConflictEventsView(APIView):
    """The conflict's log (GET) and a new event (POST): roll, spend, concede, accept_concession,
    refuse_concession, veto_concession, set_superiority, set_cap, end."""

    @extend_schema(responses=dict)
    def get(self, request, campaign_pk, pk):
        conflict, membership = access.get_conflict_for_user(request.user, pk, campaign_id=campaign_pk)
        state = access.view_of(conflict, membership, services.campaign_settings(conflict.campaign))
        events = conflict.events.select_related("recorded_by")
        return Response({"results": [event_data(e, state) for e in events]})

    @extend_schema(request=EventSerializer, responses={201: dict})
    def post(self, request, campaign_pk, pk):
        conflict, membership = access.get_conflict_for_user(request.user, pk, campaign_id=campaign_pk)
        if not isinstance(request.data, dict) or len(request.data) > MAX_BODY_KEYS:
            raise serializers.ValidationError({"type": "An event is an object with a type."})
        EventSerializer(data=request.data).is_valid(raise_exception=True)
        event = services.add_event(membership, conflict, dict(request.data))
        state = access.view_of(conflict, membership, services.campaign_settings(conflict.campaign))
        return Response(
            {
                "event": event_data(event, state),
                "conflict": conflict_data(
                    conflict, membership, services.campaign_settings(conflict.campaign)
                ),
            },
            status=status.HTTP_201_CREATED,
        )
