"""API v1 for the dice log: a campaign's rolls (list, one, make, share a secret one) and the
one representation of a roll every answer that shows one uses. Thin views over rolling."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.access import get_campaign_for_user, get_membership, require
from campaigns.models import Membership, Mission, Roll
from campaigns.table import rolling
from characters.models import Character
from characters.systems.dice import ROLLER_KINDS
from kernel.api import StrictCursorPagination

# The field RollSerializer's created_at is, kept at hand: building a serializer's fields costs more
# than writing one roll.
CREATED_AT = serializers.DateTimeField(read_only=True)


# A roll's columns as the log reads them with .values(): 50 model instances per page cost more
# than the rest of the request.
ROLL_COLUMNS = (
    "id",
    "kind",
    "count",
    "modifier",
    "faces",
    "kept",
    "total",
    "purpose",
    "secret",
    "revealed_at",
    "mission_id",
    "character_id",
    "roller__username",
    "detail",
    "created_at",
)


def roll_representation(row, gm: bool = False) -> dict:
    """A roll as the API shows it (RollSerializer's fields, in its order) from a row of ROLL_COLUMNS:
    the same dict DRF's generic walk over the fields builds, without its per-field machinery.
    tests/campaigns/test_roll_representation.py holds the two equal.

    A sealed roll (secret, not revealed) reaches everyone but the GM without its result: no dice,
    modifier, total, purpose or detail, only that it was made, by whom, for whom and when."""
    sealed = bool(row["secret"]) and row["revealed_at"] is None
    hide = sealed and not gm
    return {
        "id": row["id"],
        "kind": row["kind"],
        "count": row["count"],
        "modifier": None if hide else row["modifier"],
        "faces": [] if hide else row["faces"],
        "kept": [] if hide else row["kept"],
        "total": None if hide else row["total"],
        "purpose": "" if hide else row["purpose"],
        "secret": row["secret"],
        "sealed": sealed,
        "revealed_at": None
        if row["revealed_at"] is None
        else CREATED_AT.to_representation(row["revealed_at"]),
        "mission": row["mission_id"],
        "character": row["character_id"],
        "roller": row["roller__username"],
        "detail": {} if hide else row["detail"],
        "created_at": CREATED_AT.to_representation(row["created_at"]),
    }


class RollSerializer(serializers.ModelSerializer):
    """A roll of the log. Give ``context={"gm": True}`` for the GM's reading; anyone else gets a
    sealed roll without its result (roll_representation)."""

    roller = serializers.CharField(source="roller.username", read_only=True, default=None)
    modifier = serializers.IntegerField(read_only=True, allow_null=True)
    total = serializers.IntegerField(read_only=True, allow_null=True)
    sealed = serializers.BooleanField(read_only=True)

    class Meta:
        model = Roll
        fields = [
            "id",
            "kind",
            "count",
            "modifier",
            "faces",
            "kept",
            "total",
            "purpose",
            "secret",
            "sealed",
            "revealed_at",
            "mission",
            "character",
            "roller",
            "detail",
            "created_at",
        ]
        read_only_fields = fields

    def to_representation(self, roll):
        row = {name: getattr(roll, name) for name in ROLL_COLUMNS if name != "roller__username"}
        row["roller__username"] = roll.roller.username if roll.roller_id is not None else None
        return roll_representation(row, gm=bool(self.context.get("gm")))


class RollRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sorted(ROLLER_KINDS))
    count = serializers.IntegerField(min_value=0, max_value=30, default=1)
    modifier = serializers.IntegerField(min_value=-1000, max_value=1000, default=0)
    purpose = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    character = serializers.IntegerField(required=False, allow_null=True, min_value=1)


# --- filters ---------------------------------------------------------------------------------------
def _route_membership(request) -> Membership:
    """The asking user's membership of the campaign in the route (404 for anyone else)."""
    return get_membership(request.user, request.parser_context["kwargs"]["campaign_pk"])


def _campaign_missions(request):
    if request is None:  # the schema generator builds the filterset without a request
        return Mission.objects.none()
    return Mission.objects.filter(campaign_id=_route_membership(request).campaign_id)


def _campaign_characters(request):
    if request is None:
        return Character.objects.none()
    membership = _route_membership(request)
    return Character.objects.visible_to(request.user).filter(campaign_id=membership.campaign_id)


class RollFilter(filters.FilterSet):
    """The dice log's filters. Their choices are the records of the route's campaign that the asking
    user may see, in the browsable form and in the query: a foreign id is refused exactly like a
    missing one, and no other campaign's names are listed."""

    mission = filters.ModelChoiceFilter(queryset=_campaign_missions)
    character = filters.ModelChoiceFilter(queryset=_campaign_characters)

    class Meta:
        model = Roll
        fields = ["mission", "character"]


def roll_targets(user, campaign, data: dict) -> tuple[Mission | None, Character | None]:
    """The mission and character a roll request names (taken out of ``data``), each one of the
    campaign's that ``user`` may see; a 400 naming the field otherwise."""
    mission_id, character_id = data.pop("mission", None), data.pop("character", None)
    mission = character = None
    if mission_id:
        mission = campaign.missions.filter(pk=mission_id).first()
        if mission is None:
            raise serializers.ValidationError({"mission": "No mission with this id in this campaign."})
    if character_id:
        character = Character.objects.visible_to(user).filter(campaign=campaign, pk=character_id).first()
        if character is None:
            raise serializers.ValidationError({"character": "No character with this id in this campaign."})
    return mission, character


class RollLogPagination(StrictCursorPagination):
    """The roll log pages by position (newest first), not by page number: a page costs the same in
    a campaign of 200 rolls as in one of 200,000 and at any depth, where page numbers paid an exact
    COUNT(*) over the whole log on every page and an OFFSET that grows with the depth. Follow
    ``next`` / ``previous``; there is no ``count``, and ``?page=`` is refused with a 400."""

    ordering = ("-created_at", "-id")  # the model's ordering; (campaign, created_at, id) is indexed
    what = "the roll log"


class RollViewSet(viewsets.GenericViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = RollSerializer
    pagination_class = RollLogPagination
    queryset = Roll.objects.none()
    filterset_class = RollFilter

    def get_queryset(self):
        _, membership = get_campaign_for_user(self.request.user, self.kwargs["campaign_pk"])
        self._membership = membership
        return Roll.objects.visible_to(self.request.user, membership).select_related("roller")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        membership = getattr(self, "_membership", None)
        context["gm"] = membership is not None and membership.is_gm
        return context

    def list(self, request, *args, **kwargs):
        # Rows, not model instances: the page is the same (roll_representation), the CPU about half.
        rolls = self.filter_queryset(self.get_queryset()).values(*ROLL_COLUMNS)
        page = self.paginate_queryset(rolls)
        gm = self._membership.is_gm
        return self.get_paginated_response([roll_representation(row, gm) for row in page])

    def filter_queryset(self, queryset):
        # Building the filterset costs more than the rest of the query; with none of its parameters
        # in the request it filters nothing and refuses nothing, so it is built only when one is.
        if not any(name in self.request.query_params for name in RollFilter.Meta.fields):
            return queryset
        return super().filter_queryset(queryset)

    @extend_schema(request=None, responses={200: RollSerializer})
    @action(detail=True, methods=["post"])
    def reveal(self, request, campaign_pk=None, pk=None):
        """Share a secret roll's result with the table (the GM only)."""
        campaign, membership = get_campaign_for_user(request.user, campaign_pk)
        require(membership, "gm")
        roll = get_object_or_404(Roll, campaign=campaign, pk=pk)
        roll = rolling.reveal_roll(membership, roll)
        return Response(RollSerializer(roll, context={"gm": True}).data)

    @extend_schema(request=RollRequestSerializer, responses={201: RollSerializer})
    def create(self, request, campaign_pk=None):
        campaign, membership = get_campaign_for_user(request.user, campaign_pk)
        require(membership, "player")
        body = RollRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        mission, character = roll_targets(request.user, campaign, data)
        membership.user = request.user  # the same user (the membership was found by it): no query for it
        roll = rolling.record_roll(membership, mission=mission, character=character, **data)
        return Response(
            RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
        )
