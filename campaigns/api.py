"""API v1 for campaigns, members, invitations, missions and the dice log. Thin views."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns import services
from campaigns.access import get_campaign_for_user, get_membership, require
from campaigns.api_missions import MissionViewSet  # noqa: F401  (registered in config/urls.py)
from campaigns.models import Campaign, Invitation, Membership, Mission, Role, Roll
from campaigns.paper import paper_for_request
from characters.models import Character
from characters.systems import all_systems, system_choices
from characters.systems.dice import ROLLER_KINDS
from config.api import StrictCursorPagination


# --- serializers ---------------------------------------------------------------------------------
class CampaignSerializer(serializers.ModelSerializer):
    name = serializers.CharField(max_length=120)
    system = serializers.ChoiceField(choices=())
    module = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    settings = serializers.JSONField(required=False, default=dict)
    my_role = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "system", "module", "description", "settings", "my_role", "created_at"]
        read_only_fields = ["id", "created_at", "my_role"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The systems installed now (the registry), not a list fixed when this module was imported.
        self.fields["system"].choices = system_choices()

    def get_my_role(self, campaign) -> str:
        return getattr(campaign, "my_role", None) or self.context.get("my_role", "")


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    settings = serializers.JSONField(required=False)


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "joined_at"]
        read_only_fields = ["id", "username", "joined_at"]


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InvitationSerializer(serializers.ModelSerializer):
    days = serializers.IntegerField(min_value=1, max_value=90, default=7, write_only=True)
    max_uses = serializers.IntegerField(min_value=1, max_value=100, required=False, allow_null=True)
    active = serializers.BooleanField(source="is_active", read_only=True)
    link = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = [
            "id",
            "code",
            "link",
            "created_at",
            "expires_at",
            "revoked_at",
            "max_uses",
            "uses",
            "active",
            "days",
        ]
        read_only_fields = ["id", "code", "link", "created_at", "expires_at", "revoked_at", "uses", "active"]

    def get_link(self, invitation) -> str:
        request = self.context.get("request")
        path = f"/join/{invitation.code}/"
        return request.build_absolute_uri(path) if request else path


class AcceptSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40)


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


# --- views -----------------------------------------------------------------------------------------
class CampaignViewSet(
    mixins.ListModelMixin, mixins.CreateModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = CampaignSerializer
    queryset = Campaign.objects.none()

    def get_queryset(self):
        from django.db.models import F

        # One join: the filter's membership row also gives the user's role.
        return Campaign.objects.filter(memberships__user=self.request.user).annotate(
            my_role=F("memberships__role")
        )

    def get_object(self):
        campaign, membership = get_campaign_for_user(self.request.user, self.kwargs["pk"])
        campaign.my_role = membership.role
        return campaign

    def perform_create(self, serializer):
        data = serializer.validated_data
        # The paper it prints on from the client's region, as the web form does (campaigns/paper.py).
        campaign = services.create_campaign(self.request.user, **data, paper=paper_for_request(self.request))
        campaign.my_role = Role.GM
        serializer.instance = campaign

    @extend_schema(request=CampaignUpdateSerializer, responses=CampaignSerializer)
    def partial_update(self, request, pk=None):
        campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
        update = CampaignUpdateSerializer(data=request.data, partial=True)
        update.is_valid(raise_exception=True)
        data = update.validated_data
        if "settings" in data:
            services.update_campaign_settings(campaign, data["settings"])
        for field in ("name", "description"):
            if field in data:
                setattr(campaign, field, data[field])
        campaign.save()
        campaign.my_role = membership.role
        return Response(CampaignSerializer(campaign, context={"request": request}).data)


class MembershipViewSet(viewsets.GenericViewSet, mixins.ListModelMixin):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = MembershipSerializer
    queryset = Membership.objects.none()

    def get_queryset(self):
        campaign, _ = get_campaign_for_user(self.request.user, self.kwargs["campaign_pk"])
        return campaign.memberships.select_related("user")

    @extend_schema(request=RoleSerializer, responses=MembershipSerializer)
    def partial_update(self, request, campaign_pk=None, pk=None):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        get_object_or_404(Membership, campaign=campaign, pk=pk)
        body = RoleSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        member = services.change_role(campaign, int(pk), body.validated_data["role"])
        return Response(MembershipSerializer(member).data)

    def destroy(self, request, campaign_pk=None, pk=None):
        campaign, _ = get_campaign_for_user(request.user, campaign_pk, need="gm")
        get_object_or_404(Membership, campaign=campaign, pk=pk)
        services.remove_member(campaign, int(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationViewSet(viewsets.GenericViewSet, mixins.ListModelMixin, mixins.CreateModelMixin):
    lookup_value_regex = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow
    serializer_class = InvitationSerializer
    queryset = Invitation.objects.none()

    def _campaign(self):
        campaign, _ = get_campaign_for_user(self.request.user, self.kwargs["campaign_pk"], need="gm")
        return campaign

    def get_queryset(self):
        return self._campaign().invitations.all()

    def create(self, request, *args, **kwargs):
        self.campaign = self._campaign()  # access before validation: a non-member learns nothing
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.create_invitation(
            self.campaign, self.request.user, days=data.get("days", 7), max_uses=data.get("max_uses")
        )

    @extend_schema(responses=InvitationSerializer)
    def destroy(self, request, campaign_pk=None, pk=None):
        """Revoke the invitation (it stays listed, marked revoked)."""
        invitation = get_object_or_404(Invitation, campaign=self._campaign(), pk=pk)
        services.revoke_invitation(invitation)
        return Response(InvitationSerializer(invitation, context={"request": request}).data)


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
        roll = services.reveal_roll(membership, roll)
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
        roll = services.record_roll(membership, mission=mission, character=character, **data)
        return Response(
            RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
        )


@extend_schema(request=AcceptSerializer, responses={200: MembershipSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def accept_invitation(request):
    body = AcceptSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    membership = services.accept_invitation(request.user, body.validated_data["code"])
    return Response({**MembershipSerializer(membership).data, "campaign": membership.campaign_id})


@extend_schema(
    responses=inline_serializer(
        "System",
        {
            "key": serializers.CharField(),
            "label": serializers.CharField(),
            "modules": serializers.ListField(child=serializers.CharField()),
            "settings": serializers.ListField(child=serializers.DictField()),
        },
        many=True,
    )
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def systems(request):
    """The game systems, their modules and the campaign settings each offers (with defaults)."""
    return Response(
        [
            {
                "key": system.key,
                "label": system.label,
                "modules": list(system.modules),
                "settings": [
                    {
                        "name": spec.name,
                        "label": spec.label,
                        "kind": spec.kind,
                        "default": spec.default,
                        "help": spec.help,
                        "minimum": spec.minimum,
                        "maximum": spec.maximum,
                        "choices": list(spec.choices),
                    }
                    for spec in system.settings
                ],
            }
            for system in all_systems()
        ]
    )


@extend_schema(
    responses=inline_serializer("Me", {"id": serializers.IntegerField(), "username": serializers.CharField()})
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request):
    return Response({"id": request.user.id, "username": request.user.username})
