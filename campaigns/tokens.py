"""API tokens (django-rest-knox): create one with a username and password, list and revoke one's own.

Tokens are stored hashed and expire (REST_KNOX["TOKEN_TTL"], settings API_TOKEN_DAYS); a token is
named by its first characters (knox's `token_key`), which identify it without being usable as it.
Changing a password revokes every token of that user (the receiver at the end), whichever way
the password was changed: the web page, the admin, or any code that saves a new password.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_logged_in
from django.db.models import Q
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.decorators import api_view
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.abuse import TokenThrottle
from kernel.errors import Conflict


def active_tokens(user):
    return AuthToken.objects.filter(user=user).filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()))


def _describe(token: AuthToken, current: AuthToken | None) -> dict:
    return {
        "id": token.token_key,
        "created": token.created,
        "expiry": token.expiry,
        "current": current is not None and token.digest == current.digest,
    }


TOKEN_LISTING = inline_serializer(
    "ApiToken",
    {
        "id": serializers.CharField(help_text="The token's first characters: enough to name it."),
        "created": serializers.DateTimeField(),
        "expiry": serializers.DateTimeField(allow_null=True),
        "current": serializers.BooleanField(help_text="The token this request was made with."),
    },
    many=True,
)


def _when(wait: int) -> str:
    minutes = max(1, -(-wait // 60))
    return f"Try again in {minutes} minute{'s' if minutes != 1 else ''}."


class TokenCreateView(APIView):
    """POST username and password (form or JSON): a new API token, shown once, and its expiry."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    # Counted by hand: only a failed attempt counts against the address (TokenThrottle).
    throttle_classes: list = []

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer(
                "NewApiToken", {"token": serializers.CharField(), "expiry": serializers.DateTimeField()}
            ),
            400: OpenApiResponse(description="Wrong username or password"),
            409: OpenApiResponse(description="Too many active tokens: revoke one first"),
            429: OpenApiResponse(description="Too many attempts (Retry-After says when to try again)"),
        },
        description="Create an API token; send it as `Authorization: Token <token>`. "
        "It expires after the configured number of days.",
    )
    def post(self, request, format=None):
        # django-axes keeps its lockout flags on the Django request, not DRF's wrapper around it.
        django_request = request._request  # noqa: SLF001
        throttle = TokenThrottle()
        wait = throttle.over(request)
        if wait is not None:
            raise exceptions.Throttled(
                wait=wait, detail=f"Too many failed attempts from this address. {_when(wait)}"
            )
        serializer = AuthTokenSerializer(data=request.data, context={"request": django_request})
        if not serializer.is_valid():
            if getattr(django_request, "axes_locked_out", False):
                serializer.is_valid(raise_exception=True)  # axes' own answer (lockout_response)
            throttle.count_failure(request)
            serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        limit = knox_settings.TOKEN_LIMIT_PER_USER
        if limit is not None and active_tokens(user).count() >= limit:
            raise Conflict(
                f"You already have {limit} active tokens, the most allowed: "
                "revoke one first (GET /api/v1/auth/tokens/)."
            )
        instance, token = AuthToken.objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        user_logged_in.send(sender=user.__class__, request=django_request, user=user)
        return Response({"token": token, "expiry": instance.expiry})


@extend_schema(responses={200: TOKEN_LISTING}, description="Your active API tokens.")
@api_view(["GET"])
def token_list(request):
    current = request.auth if isinstance(request.auth, AuthToken) else None
    tokens = active_tokens(request.user).order_by("-created")
    return Response([_describe(token, current) for token in tokens])


@extend_schema(
    responses={204: None, 404: OpenApiResponse(description="No such token of yours")},
    description="Revoke one of your API tokens (it stops working at once).",
)
@api_view(["DELETE"])
def token_revoke(request, token_id: str):
    deleted, _ = AuthToken.objects.filter(user=request.user, token_key=token_id).delete()
    if not deleted:
        raise Http404
    return Response(status=status.HTTP_204_NO_CONTENT)


# --- web page -----------------------------------------------------------------------------------
@login_required
def token_page(request):
    tokens = active_tokens(request.user).order_by("-created")
    return render(
        request,
        "registration/tokens.html",
        {"tokens": tokens, "token_days": knox_settings.TOKEN_TTL.days},
    )


@login_required
@require_POST
def token_page_revoke(request, token_id: str):
    deleted, _ = AuthToken.objects.filter(user=request.user, token_key=token_id).delete()
    if not deleted:
        raise Http404
    messages.success(request, "Token revoked: it no longer works.")
    return redirect("api-tokens")


# --- a new password revokes every token ---------------------------------------------------------
@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _note_password_change(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._password_changed = stored is not None and stored != instance.password


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _revoke_tokens_after_password_change(sender, instance, created, **kwargs):
    if getattr(instance, "_password_changed", False):
        AuthToken.objects.filter(user=instance).delete()
        instance._password_changed = False
