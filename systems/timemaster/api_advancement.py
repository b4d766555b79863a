"""API v1 for TIMEMASTER advancement: standing, the shop, the free pick on a new rank, and the
GM's regulation violations and bonus Success Points.

Routes (under /api/v1/campaigns/<campaign_pk>/characters/<pk>/):
  advancement/  GET   every member who may see the agent
  shop/         GET   every member who may see the agent; POST the owner or the GM (a purchase)
  free-pick/    GET   every member who may see the agent; POST the owner or the GM
  violations/   POST  the GM
  bonus/        POST  the GM
Thin views: access through characters.access, writes through systems.timemaster.advancement_services.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import re_path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from characters import access
from characters.api import EntrySerializer
from systems.timemaster import advancement_services as adv
from systems.timemaster.engine.advancement_tables import PUNISHMENTS

MAX_REVISION = 2**31 - 1


# --- request bodies ------------------------------------------------------------------------------
class PeriodSerializer(serializers.Serializer):
    start_year = serializers.IntegerField(min_value=-9999, max_value=9999)
    end_year = serializers.IntegerField(min_value=-9999, max_value=9999)


class RevisionMixin(serializers.Serializer):
    revision = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_REVISION,
        help_text="The revision the choice was made at; a different current revision answers 409.",
    )


class SpecialtyMixin(serializers.Serializer):
    period = PeriodSerializer(required=False, help_text="A further Historical Specialty only.")
    cultures = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=10
    )


class PurchaseSerializer(SpecialtyMixin, RevisionMixin):
    purchase = serializers.ChoiceField(choices=list(adv.PURCHASES))
    skill = serializers.CharField(required=False, max_length=80)
    talent = serializers.CharField(required=False, max_length=80)
    ability = serializers.CharField(required=False, max_length=10)


class FreePickSerializer(SpecialtyMixin, RevisionMixin):
    choice = serializers.ChoiceField(choices=["skill", "talent"])
    skill = serializers.CharField(required=False, max_length=80)
    talent = serializers.CharField(required=False, max_length=80)


class ViolationSerializer(RevisionMixin):
    regulation = serializers.IntegerField(min_value=1, max_value=8)
    punishment = serializers.ChoiceField(choices=list(PUNISHMENTS), required=False)
    mission = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)
    judiciary_override = serializers.BooleanField(required=False, default=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class BonusSerializer(RevisionMixin):
    amount = serializers.IntegerField(min_value=0, max_value=1000)
    session = serializers.CharField(max_length=60)


class WriteResultSerializer(serializers.Serializer):
    entry = EntrySerializer()
    revision = serializers.IntegerField()
    success_points = serializers.IntegerField()
    standing = serializers.JSONField()


# --- views ---------------------------------------------------------------------------------------
class AgentView(APIView):
    """Shared: fetch the agent through access, refuse characters without advancement."""

    def agent(self, need: str = "view"):
        character, membership = access.get_character_for_user(
            self.request.user,
            self.kwargs["pk"],
            need=need,
            campaign_id=self.kwargs["campaign_pk"],
            need_system=adv.SYSTEM,
        )
        if not adv.has_advancement(character):
            raise Http404("This character has no Success Points.")
        return character, membership

    def spender(self):
        character, membership = self.agent()
        if not adv.can_spend(character, membership):
            raise PermissionDenied("Only the agent's player or the game master can do this.")
        return character, membership

    def offer(self, what) -> Response:
        """What the agent may choose now (``what(character)``), at which revision, and whether the
        user may choose it."""
        character, membership = self.agent()
        return Response(
            {
                **what(character),
                "revision": character.revision,
                "can_spend": adv.can_spend(character, membership),
            }
        )

    @staticmethod
    def body(serializer_class, data):
        body = serializer_class(data=data)
        body.is_valid(raise_exception=True)
        return dict(body.validated_data)

    @staticmethod
    def write(character, call):
        row = call()
        data = {
            "entry": EntrySerializer(row, context={"reversed_ids": set()}).data,
            "revision": character.revision,
            "success_points": character.build.get("success_points", 0),
            "standing": adv.standing(character),
        }
        return Response(data, status=status.HTTP_201_CREATED)


class StandingView(AgentView):
    @extend_schema(responses=OpenApiResponse(description="Rank/grade, Success Points, status, free picks"))
    def get(self, request, campaign_pk=None, pk=None):
        """The agent's advancement standing (TIMEMASTER)."""
        character, membership = self.agent()
        return Response({**adv.standing(character), "can_spend": adv.can_spend(character, membership)})


class ShopView(AgentView):
    @extend_schema(
        responses=OpenApiResponse(description="engine shop_offer: every line with cost and reason")
    )
    def get(self, request, campaign_pk=None, pk=None):
        """What the agent can buy now, with costs, limits and the reason for each refusal."""
        return self.offer(adv.shop)

    @extend_schema(request=PurchaseSerializer, responses={201: WriteResultSerializer})
    def post(self, request, campaign_pk=None, pk=None):
        """Buy one thing with banked Success Points (the owner or the GM)."""
        character, _ = self.spender()
        data = self.body(PurchaseSerializer, request.data)
        purchase, revision = data.pop("purchase"), data.pop("revision", None)
        return self.write(
            character, lambda: adv.buy(character, request.user, purchase, revision=revision, **data)
        )


class FreePickView(AgentView):
    @extend_schema(responses=OpenApiResponse(description="pending free picks and what each may take"))
    def get(self, request, campaign_pk=None, pk=None):
        """The pending free picks and the skills and talents they may take."""
        return self.offer(adv.free_pick_options)

    @extend_schema(request=FreePickSerializer, responses={201: WriteResultSerializer})
    def post(self, request, campaign_pk=None, pk=None):
        """Take the first pending free pick (the owner or the GM)."""
        character, _ = self.spender()
        data = self.body(FreePickSerializer, request.data)
        choice, revision = data.pop("choice"), data.pop("revision", None)
        return self.write(
            character,
            lambda: adv.take_free_choice(character, request.user, choice, revision=revision, **data),
        )


class ViolationView(AgentView):
    @extend_schema(request=ViolationSerializer, responses={201: WriteResultSerializer})
    def post(self, request, campaign_pk=None, pk=None):
        """GM only: record a regulation violation; its ladder punishment is applied."""
        character, _ = self.agent(need="gm")
        data = self.body(ViolationSerializer, request.data)
        mission = None
        if data.get("mission") is not None:
            mission = character.campaign.missions.filter(pk=data["mission"]).first()
            if mission is None:
                raise serializers.ValidationError({"mission": ["No such mission in this campaign."]})
        return self.write(
            character,
            lambda: adv.record_violation(
                character,
                request.user,
                data["regulation"],
                punishment=data.get("punishment"),
                mission=mission,
                note=data.get("note", ""),
                judiciary_override=data.get("judiciary_override", False),
                reason=data.get("reason", ""),
                revision=data.get("revision"),
            ),
        )


class BonusView(AgentView):
    @extend_schema(request=BonusSerializer, responses={201: WriteResultSerializer})
    def post(self, request, campaign_pk=None, pk=None):
        """GM only: bonus Success Points for one session."""
        character, _ = self.agent(need="gm")
        data = self.body(BonusSerializer, request.data)
        return self.write(
            character,
            lambda: adv.award_bonus(
                character, request.user, data["amount"], data["session"], revision=data.get("revision")
            ),
        )


# ids beyond 64 bits are 404, not an overflow (as in the characters router)
BASE = r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/characters/(?P<pk>[0-9]{1,18})/"
urlpatterns = [
    re_path(BASE + r"advancement/$", StandingView.as_view(), name="api-character-advancement"),
    re_path(BASE + r"shop/$", ShopView.as_view(), name="api-character-shop"),
    re_path(BASE + r"free-pick/$", FreePickView.as_view(), name="api-character-free-pick"),
    re_path(BASE + r"violations/$", ViolationView.as_view(), name="api-character-violations"),
    re_path(BASE + r"bonus/$", BonusView.as_view(), name="api-character-bonus"),
]
