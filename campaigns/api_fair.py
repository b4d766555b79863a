"""API v1 for provably fair dice (docs/fair-dice.md): the proof document a member may check, a
player's own seed, the GM's rotation, and rolls entered by hand. Thin views over
campaigns/fairness.py and campaigns/services.py."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from campaigns import fairness, services
from campaigns.access import get_campaign_for_user, require
from campaigns.api import RollSerializer
from campaigns.models import ClientSeed
from characters.models import Character
from characters.systems import fair_dice


class SeedSerializer(serializers.Serializer):
    seed = serializers.CharField(max_length=fair_dice.MAX_CLIENT_SEED, trim_whitespace=True)


class ByHandSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sorted(services.HAND_FACES))
    count = serializers.IntegerField(min_value=0, max_value=30, default=1)
    modifier = serializers.IntegerField(min_value=-1000, max_value=1000, default=0)
    faces = serializers.ListField(child=serializers.IntegerField(min_value=-1, max_value=10), max_length=40)
    purpose = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)
    character = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def proof_document(request, campaign_pk):
    """The seeds (commitments; the seeds once revealed) and, for every roll the reader may see,
    what recomputing it needs: the input of scripts/verify_rolls.py."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    return Response(fairness.proof_document(campaign, request.user, membership))


@extend_schema(request=SeedSerializer, responses={200: OpenApiTypes.OBJECT})
@api_view(["GET", "PUT"])
def my_seed(request, campaign_pk):
    """A player's own seed for the campaign's dice (every roll from now on takes it)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    require(membership, "player")
    if request.method == "PUT":
        body = SeedSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        row = fairness.set_client_seed(membership, body.validated_data["seed"])
        return Response({"seed": row.seed})
    if membership.is_gm:  # the players' seeds bind the dice, the GM has none
        return Response({"seed": None})
    fairness.players_seeds(campaign)  # a player who never chose one gets their random one now
    return Response({"seed": ClientSeed.objects.get(membership=membership).seed})


@extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
@api_view(["POST"])
def rotate(request, campaign_pk):
    """Reveal the current server seed and start a new one (the GM, at the end of a session)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    require(membership, "gm")
    rotated = fairness.rotate(membership)
    return Response(
        {
            "rotated": fairness.seed_view(rotated),
            "current": fairness.seed_view(fairness.current_seed(campaign)),
        }
    )


@extend_schema(request=ByHandSerializer, responses={201: RollSerializer})
@api_view(["POST"])
def by_hand(request, campaign_pk):
    """A roll made with physical dice, entered by hand (marked so; not verifiable)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    require(membership, "player")
    body = ByHandSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = dict(body.validated_data)
    mission_id, character_id = data.pop("mission", None), data.pop("character", None)
    mission = character = None
    if mission_id:
        mission = campaign.missions.filter(pk=mission_id).first()
        if mission is None:
            raise DjangoValidationError({"mission": "No mission with this id in this campaign."})
    if character_id:
        character = (
            Character.objects.visible_to(request.user).filter(campaign=campaign, pk=character_id).first()
        )
        if character is None:
            raise DjangoValidationError({"character": "No character with this id in this campaign."})
    roll = services.enter_roll_by_hand(membership, mission=mission, character=character, **data)
    return Response(
        RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
    )
