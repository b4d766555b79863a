"""API v1 for campaigns, members, invitations and missions. Thin views. The dice log's API is the
table's (campaigns.table.api_rolls)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from campaigns import services
from campaigns.access import get_campaign_for_user
from campaigns.api_missions import MissionViewSet  # noqa: F401  (registered in config/urls.py)
from campaigns.models import PAPERS, Campaign, Invitation, Membership, Role, validate_time_zone
from campaigns.paper import paper_for_request
from characters.systems import all_systems, system_choices


# --- serializers ---------------------------------------------------------------------------------
class CampaignSerializer(serializers.ModelSerializer):
    name = serializers.CharField(max_length=120)
    system = serializers.ChoiceField(choices=())
    module = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    settings = serializers.JSONField(required=False, default=dict)
    # The papers by their keys alone, the choice set the print requests use (one PaperEnum).
    paper = serializers.ChoiceField(choices=PAPERS, read_only=True)
    my_role = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = [
            "id", "name", "system", "module", "description", "settings", "paper", "time_zone",
            "sessions_start_on_roll", "my_role", "created_at",
        ]  # fmt: skip
        # Set with PATCH (CampaignUpdateSerializer); a new campaign's paper is its creator's region's.
        read_only_fields = ["id", "created_at", "my_role", "paper", "time_zone", "sessions_start_on_roll"]

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
    paper = serializers.ChoiceField(choices=PAPERS, required=False)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="An IANA time zone name (Europe/Paris): where the group plays; its day starts at midnight.",
    )
    sessions_start_on_roll = serializers.BooleanField(
        required=False,
        help_text="Whether the first roll of a day the whole table sees starts a play session.",
    )


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
        for field in ("name", "description", "paper", "time_zone", "sessions_start_on_roll"):
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
