"""A campaign's pages show their times in the group's time zone (issue 50: "under way since 18:13"
read in UTC for a group in New York).

The zone is activated where a page finds its campaign (``campaigns.access.get_membership``,
``characters.access.get_character_for_user``: every campaign page passes through one of them), and
only for pages: the API keeps UTC, whoever asks, so a client reads one offset everywhere.
``TimeZonePerRequestMiddleware`` marks a request as a page and deactivates the zone when the
request ends, so a thread that serves the next request never carries the last campaign's zone.
What is rendered outside a request (the live feed's lines, in the stream's own loop) uses
``timezone.override(campaign.zone)`` itself.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import tzinfo

from django.utils import timezone

_page: ContextVar[bool] = ContextVar("dossier_page_request", default=False)


def show_times_in(zone: tzinfo) -> None:
    """On a page (not the API, not a job), show this request's times in ``zone``."""
    if _page.get():
        timezone.activate(zone)


class TimeZonePerRequestMiddleware:
    """Marks a page request (see the module's docstring) and resets the time zone at its end."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _page.set(not request.path_info.startswith("/api/"))  # under a URL prefix too
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            _page.reset(token)
            timezone.deactivate()
