"""API v1 of the toy system: a campaign's contests. Members read them; the game master adds one.
A campaign of another system is 404, as for every system's routes."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.access import get_campaign_for_user

from .models import Contest

SYSTEM = "toy"


class ToyContestSerializer(serializers.ModelSerializer):
    class Meta:
        model = Contest
        fields = ("id", "title", "score", "created_at")
        read_only_fields = ("id", "created_at")


class ToyContestList(APIView):
    renderer_classes = [JSONRenderer]

    @extend_schema(responses=ToyContestSerializer(many=True), operation_id="toy_contests_list")
    def get(self, request, campaign_pk):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need_system=SYSTEM)
        return Response(ToyContestSerializer(campaign.toy_contests.all(), many=True).data)

    @extend_schema(request=ToyContestSerializer, responses={201: ToyContestSerializer})
    def post(self, request, campaign_pk):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm", need_system=SYSTEM)
        body = ToyContestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        contest = body.save(campaign=campaign, created_by=request.user)
        return Response(ToyContestSerializer(contest).data, status=status.HTTP_201_CREATED)
