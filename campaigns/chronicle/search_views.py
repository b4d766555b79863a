"""The campaign's search page (issue 50, part 5): one box over notes, play sessions, missions,
NPCs, characters and the roll log, each reader finding only what they may see
(campaigns/chronicle/search.py). A query that cannot be searched is a 400 page that says why."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.access import get_campaign_for_user
from campaigns.chronicle import search


@login_required
@require_GET
def campaign_search(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    raw = request.GET.get("q")
    context = {"campaign": campaign, "membership": membership, "q": raw or "", "results": None, "problem": ""}
    status = 200
    if raw is not None:
        try:
            context["results"] = search.search(campaign, request.user, membership, search.parse(raw))
        except search.QueryProblem as problem:
            context["problem"] = str(problem)
            status = 400
    return render(request, "campaigns/search.html", context, status=status)
