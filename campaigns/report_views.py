"""The campaign report: a campaign in pictures, drawn from the charts its game system supplies
through the registry (campaigns.charts; this page names no system). Every member may read it; what
each reader is shown is the system's to filter (a player: published results and their own agents)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns import charts
from campaigns.access import get_campaign_for_user


@login_required
@require_GET
def campaign_report(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk, need="member")
    audience = "gm" if membership.is_gm else "player"
    drawn = [
        charts.for_page(chart, audience)
        for chart in charts.campaign_charts(campaign, request.user, membership.is_gm)
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "charts": drawn,
        # a report whose every chart is still its empty sentence has nothing to print yet
        "printable": any(not chart.get("empty") for chart in drawn),
        "intro": charts.report_intro(campaign.system, membership.is_gm),
    }
    return render(request, "campaigns/report.html", context)
