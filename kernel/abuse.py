"""Limits that keep accounts and imports from being abused: rate limits and the login lockout answer.

Rates are DRF throttles (counted in the default cache, shared by every process), read from
settings.RATE_LIMITS when a request comes in. The web pages use the same throttle classes through
`throttle_web_post`, so a page and its API endpoint share one budget. A throttled API request gets
429 in the API's error shape with Retry-After (DRF and kernel/api.py); a throttled page gets a
readable 429 page with the same header. The login lockout itself is django-axes
(settings AXES_*): `lockout_response` is its answer, for the web login and the token endpoint.
"""

from __future__ import annotations

import math
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework import exceptions
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or X-Forwarded-For as far as PROXY_COUNT proxies vouch
    for it (DRF's NUM_PROXIES). The login lockout uses it too (AXES_CLIENT_IP_CALLABLE)."""
    return BaseThrottle().get_ident(request)


class SettingsRateThrottle(SimpleRateThrottle):
    """A throttle whose rate is settings.RATE_LIMITS[scope], read at request time."""

    scope = ""

    def get_rate(self) -> str | None:
        return settings.RATE_LIMITS.get(self.scope)

    def ident(self, request) -> str:
        return self.get_ident(request)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident(request)}


class PerAddressThrottle(SettingsRateThrottle):
    """Counted per client address: for requests made before anyone is logged in."""


class PerUserThrottle(SettingsRateThrottle):
    """Counted per logged-in user (by id), whichever way they authenticated."""

    def ident(self, request) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"user-{user.pk}"
        return self.get_ident(request)


class FailedLoginThrottle(PerAddressThrottle):
    """Failed logins per client address: successful ones never count, so a table of players behind
    one router, switching accounts all evening, is never stopped. Checked before a login is tried
    (``over``) and counted only when it fails (``count_failure``); the lockout per username and
    address (django-axes) stays the first line against guessing one player's password."""

    def over(self, request) -> int | None:
        """Seconds until this address may try again, or None."""
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return retry_after_seconds(self.wait())
        return None

    def count_failure(self, request) -> None:
        if self.over(request) is None:
            self.throttle_success()  # records this moment in the address's history


class LoginThrottle(FailedLoginThrottle):
    scope = "login"


class SignupThrottle(PerAddressThrottle):
    scope = "signup"


class TokenThrottle(FailedLoginThrottle):
    scope = "token"


class ImportThrottle(PerUserThrottle):
    scope = "archive-import"


def retry_after_seconds(wait: float | None) -> int:
    return max(1, math.ceil(wait or 0))


def too_many_requests_page(request: HttpRequest, retry_after: int, what: str) -> HttpResponse:
    minutes = max(1, math.ceil(retry_after / 60))
    response = render(
        request, "too_many_requests.html", {"what": what, "retry_after_minutes": minutes}, status=429
    )
    response["Retry-After"] = str(retry_after)
    return response


def over_the_limit(request, throttle_class: type[SettingsRateThrottle]) -> int | None:
    """Count this request against `throttle_class`: None if it may go on, else seconds to wait.

    For views that must check access first (a campaign a user is not in is a 404, never a 429)."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):
        return None
    return retry_after_seconds(throttle.wait())


def throttle_api(request, throttle_class: type[SettingsRateThrottle]) -> None:
    """over_the_limit for an API view: past the rate, DRF's 429 in the API's error shape."""
    wait = over_the_limit(request, throttle_class)
    if wait is not None:
        raise exceptions.Throttled(wait=wait)


def throttle_web_post(throttle_class: type[SettingsRateThrottle], what: str):
    """Count every POST to a page against `throttle_class`; past the rate, answer the 429 page."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                wait = over_the_limit(request, throttle_class)
                if wait is not None:
                    return too_many_requests_page(request, wait, what)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


FAILED_LOGINS = "failed to log in from this address"


def limit_failed_logins(throttle_class: type[FailedLoginThrottle]):
    """For the login page: past the rate of failed logins from this address, the 429 page saying
    so and when it ends; a POST that does not log anyone in (the form again) counts as a failure."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            throttle = throttle_class()
            wait = throttle.over(request)
            if wait is not None:
                return too_many_requests_page(request, wait, FAILED_LOGINS)
            response = view(request, *args, **kwargs)
            if response.status_code == 200:  # the form again, with its error: no one logged in
                throttle.count_failure(request)
            return response

        return wrapped

    return decorator


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE)."""
    retry_after = int(settings.AXES_COOLOFF_TIME.total_seconds())
    message = (
        "Too many failed logins for this username from this address. "
        f"Try again in {max(1, retry_after // 60)} minutes."
    )
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"status": 429, "detail": message, "errors": [{"field": "", "message": message}]}, status=429
        )
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
