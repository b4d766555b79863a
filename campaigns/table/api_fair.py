"""API v1 for provably fair dice (docs/fair-dice.md) and the GM's webhooks (docs/webhooks.md):
the proof document a member may check, a player's own seed, the GM's rotation, rolls entered by
hand, and the campaign's webhooks. Thin views over campaigns/table/fairness.py, campaigns/services.py
and campaigns/table/webhooks.py."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from campaigns.access import get_campaign_for_user, require
from campaigns.models import ClientSeed, Webhook, WebhookKind
from campaigns.table import fairness, rolling, webhooks
from campaigns.table.api_rolls import RollSerializer, roll_targets
from characters.systems import fair_dice


class SeedSerializer(serializers.Serializer):
    seed = serializers.CharField(max_length=fair_dice.MAX_CLIENT_SEED, trim_whitespace=True)


#: The dice kinds, the same set as the dice log's RollRequest (one "DiceKindEnum" in the schema:
#: config/settings.py ENUM_NAME_OVERRIDES).
DICE_KINDS = sorted(rolling.HAND_FACES)


class ByHandSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=DICE_KINDS)
    count = serializers.IntegerField(min_value=0, max_value=30, default=1)
    modifier = serializers.IntegerField(min_value=-1000, max_value=1000, default=0)
    faces = serializers.ListField(child=serializers.IntegerField(min_value=-1, max_value=10), max_length=40)
    purpose = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)
    character = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)


def kept_sizes(values: list[str]) -> dict[str, int]:
    """``since`` values, ``<audience>:<size>`` (``table:12``, ``scope:<label>:3``): the sizes of the
    tree heads a reader kept, per log."""
    out = {}
    for value in values[:20]:
        audience, _, size = value.rpartition(":")
        if not audience or len(audience) > 60 or not size.isdigit() or len(size) > 9:
            raise DjangoValidationError({"since": "Give a kept head as <log>:<size>, e.g. ?since=table:12."})
        out[audience] = int(size)
    return out


@extend_schema(
    parameters=[
        OpenApiParameter("seed", str, required=False, description="a seed's number, e.g. 1"),
        OpenApiParameter(
            "since",
            str,
            required=False,
            many=True,
            description=(
                "a roll log's tree head the reader kept, as <audience>:<size> (table:12, gm:40, "
                "scope:<label>:3; repeatable): that log's entry in `logs` then carries a "
                "consistency proof from that size (RFC 9162 2.1.4)"
            ),
        ),
    ],
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
def proof_document(request, campaign_pk):
    """The seeds (commitments; the seeds once revealed) and, for every roll the reader may see,
    what recomputing it needs: the input of scripts/verify_rolls.py. ``?seed=N``: that seed and
    the rolls made under it only. ``log_key`` (the server's Ed25519 public key) and ``logs``: the
    reader's roll logs (``table`` and the dice scopes' the reader sees; the GM's ``gm``), each
    with ``head`` (its signed tree head: log, size, root, timestamp, signature), ``started_at``,
    ``leaves`` (the leaves of the listed rolls: index, leaf, inclusion proof) and, with
    ``?since=``, ``consistency`` (from, proof). docs/fair-dice.md, "The roll log"."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    asked = request.query_params.get("seed")
    if asked is not None and (not asked.isdigit() or len(asked) > 9):
        raise DjangoValidationError({"seed": "Give a seed's number, e.g. ?seed=1."})
    seed = int(asked) if asked is not None else None
    since = kept_sizes(request.query_params.getlist("since"))
    return Response(fairness.proof_document(campaign, request.user, membership, seed=seed, since=since))


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
    mission, character = roll_targets(request.user, campaign, data)
    roll = rolling.enter_roll_by_hand(membership, mission=mission, character=character, **data)
    return Response(
        RollSerializer(roll, context={"gm": membership.is_gm}).data, status=status.HTTP_201_CREATED
    )


# --- webhooks (campaigns/table/webhooks.py, docs/webhooks.md): the GM's only ----------------------------
class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.URLField(max_length=500)
    kind = serializers.ChoiceField(choices=WebhookKind.choices, default=WebhookKind.JSON)
    secret = serializers.CharField(read_only=True, help_text="Signs every body: X-Dossier-Signature.")
    enabled = serializers.BooleanField(read_only=True)
    failures = serializers.IntegerField(read_only=True)
    last_error = serializers.CharField(read_only=True)
    disabled_reason = serializers.CharField(read_only=True)


@extend_schema(
    request=WebhookSerializer, responses={200: WebhookSerializer(many=True), 201: WebhookSerializer}
)
@api_view(["GET", "POST"])
def webhook_list(request, campaign_pk):
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    require(membership, "gm")
    if request.method == "POST":
        body = WebhookSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hook = webhooks.create_hook(membership, **body.validated_data)
        return Response(WebhookSerializer(hook).data, status=status.HTTP_201_CREATED)
    return Response(WebhookSerializer(campaign.webhooks.order_by("id"), many=True).data)


@extend_schema(
    methods=["POST"],
    request=None,
    responses={200: WebhookSerializer},
    operation_id="v1_campaigns_webhooks_enable",
)
@extend_schema(methods=["DELETE"], request=None, responses={204: None})
@api_view(["DELETE", "POST"])
def webhook_detail(request, campaign_pk, hook_pk):
    """DELETE removes the hook; POST turns a disabled one on again (its failures start from 0)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    require(membership, "gm")
    hook = get_object_or_404(Webhook, campaign=campaign, pk=hook_pk)
    if request.method == "DELETE":
        hook.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
    webhooks.check_url(hook.url)
    hook.enabled, hook.failures, hook.disabled_reason, hook.last_error = True, 0, "", ""
    hook.save(update_fields=["enabled", "failures", "disabled_reason", "last_error"])
    return Response(WebhookSerializer(hook).data)
