"""Pages of the chronicle (issue 50, parts 3 and 4): a session's recap as a printable handout, and
the campaign's timeline. Thin: campaigns/chronicle/recap.py reads the record for each reader; access
through campaigns.access (a non-member gets 404)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns import charts
from campaigns.access import get_campaign_for_user
from campaigns.chronicle import play_sessions, recap


@login_required
@require_GET
def play_session_recap(request, pk, number):
    """The one-page handout of an ended session's recap ("Previously on…"), for this reader."""
    campaign, membership = get_campaign_for_user(request.user, pk)
    session = play_sessions.by_number(campaign, number)
    if session is None:
        raise Http404("No such play session.")
    context = {
        "campaign": campaign,
        "membership": membership,
        "session": session,
        "recap": recap.recap(session, request.user, membership) if not session.is_open else None,
    }
    return render(request, "campaigns/recap_handout.html", context)


@login_required
@require_GET
def campaign_timeline(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    audience = "gm" if membership.is_gm else "player"
    context = {
        "campaign": campaign,
        "membership": membership,
        "months": recap.calendar(campaign, request.user, membership),
        "tracks": [
            charts.for_page(chart, audience)
            for chart in recap.system_tracks(campaign, request.user, membership)
        ],
    }
    return render(request, "campaigns/timeline.html", context)
