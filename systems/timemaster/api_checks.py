"""API for TIMEMASTER checks in the dice roller: an agent's checkable scores, and rolling a check.

Thin views over systems/timemaster/action_checks.py. Players check their own agents, the GM any agent (and may
roll in secret); observers may not roll; a non-member gets 404.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from campaigns.access import require
from campaigns.table.api_rolls import RollSerializer
from systems.timemaster import action_checks as checks
from systems.timemaster.access import get_timemaster_campaign_for_user
from systems.timemaster.engine.tables import RESULTS_KEYS


class CheckRequestSerializer(serializers.Serializer):
    character = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    score = serializers.CharField(max_length=80, help_text='e.g. "ability:DEX", "skill:pistol", "talent:..."')
    kind = serializers.ChoiceField(choices=checks.CHECK_KINDS, default="general")
    defense_column = serializers.IntegerField(
        min_value=1, max_value=10, required=False, allow_null=True, default=None
    )
    results_key = serializers.ChoiceField(choices=sorted(RESULTS_KEYS), default="ability")
    modifier = serializers.IntegerField(
        min_value=-checks.MODIFIER_LIMIT, max_value=checks.MODIFIER_LIMIT, default=0
    )
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True)
    purpose = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


ScoreSerializer = inline_serializer(
    "CheckScore",
    {
        "key": serializers.CharField(),
        "group": serializers.CharField(),
        "name": serializers.CharField(),
        "score": serializers.IntegerField(),
        "default_column": serializers.IntegerField(allow_null=True),
    },
    many=True,
)


@extend_schema(request=CheckRequestSerializer, responses={201: RollSerializer})
@api_view(["POST"])
def roll_check(request, campaign_pk):
    """Roll a general or specific check of an agent's score; the roll goes into the dice log."""
    campaign, membership = get_timemaster_campaign_for_user(request.user, campaign_pk)
    require(membership, "player")
    body = CheckRequestSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    character = checks.agent_for_check(membership, data["character"])
    mission = None
    if data.get("mission"):
        mission = campaign.missions.filter(pk=data["mission"]).first()
        if mission is None:
            raise DjangoValidationError({"mission": "No mission with this id in this campaign."})
    roll = checks.roll_check(
        membership,
        character,
        data["score"],
        kind=data["kind"],
        defense_column=data["defense_column"],
        results_key=data["results_key"],
        modifier=data["modifier"],
        secret=data["secret"],
        mission=mission,
        purpose=data["purpose"],
    )
    return Response(
        RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
    )


@extend_schema(responses={200: ScoreSerializer})
@api_view(["GET"])
def check_scores(request, campaign_pk, character_pk):
    """The scores an agent can be checked against, with each one's usual defense column."""
    _, membership = get_timemaster_campaign_for_user(request.user, campaign_pk)
    require(membership, "player")
    try:
        character = checks.agent_for_check(membership, character_pk)
        scores = checks.agent_scores(character)
    except checks.NoSuchAgent:
        raise Http404("No such agent.") from None
    return Response([score.as_dict() for score in scores])
