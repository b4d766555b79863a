"""API v1 search (issue 50, part 5): ``GET /api/v1/campaigns/{c}/search/?q=...``, what the asking
member may find in the campaign, grouped by kind (campaigns/chronicle/search.py). A snippet is plain text
with the matches' character ranges (``highlights``), never HTML. A query that cannot be searched
is a 400 naming ``q``; a non-member gets 404."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from campaigns.access import get_campaign_for_user
from campaigns.chronicle import search

#: The kinds a search answers, as (value, label) pairs (one "SearchKindEnum" in the schema).
SEARCH_KIND_CHOICES = [(kind, label) for kind, label, _ in search.KINDS]

HIT_FIELDS = {
    "title": serializers.CharField(),
    "url": serializers.CharField(help_text="The record's page (empty for a record without one)."),
    "meta": serializers.CharField(),
    "snippet": serializers.CharField(help_text="Plain text around the first match."),
    "highlights": serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[start, end) character ranges of the snippet that match the query.",
    ),
}
GROUP_FIELDS = {
    "kind": serializers.ChoiceField(choices=SEARCH_KIND_CHOICES),
    "label": serializers.CharField(),
    "results": inline_serializer("SearchHit", HIT_FIELDS, many=True),
    "more": serializers.BooleanField(help_text=f"More than {search.PER_KIND} matched: narrow the search."),
}


@extend_schema(
    parameters=[
        OpenApiParameter(
            "q",
            str,
            required=True,
            description=f"Words to find (at most {search.MAX_TERMS}, {search.MAX_QUERY} characters); "
            f"every word must match, the last one as the start of a word from {search.PREFIX_FROM} letters.",
        )
    ],
    responses=inline_serializer(
        "SearchResults",
        {"q": serializers.CharField(), "groups": inline_serializer("SearchGroup", GROUP_FIELDS, many=True)},
    ),
)
@api_view(["GET"])
def campaign_search(request, campaign_pk):
    """What the asking member may find in the campaign: notes, play sessions, missions and their
    published tally lines, NPCs, characters and the roll log, at most 20 of each kind."""
    campaign, membership = get_campaign_for_user(request.user, campaign_pk)
    try:
        query = search.parse(request.query_params.get("q"))
    except search.QueryProblem as problem:
        raise serializers.ValidationError({"q": [str(problem)]}) from None
    results = search.search(campaign, request.user, membership, query)
    return Response(
        {
            "q": query.text,
            "groups": [
                {
                    "kind": group.kind,
                    "label": group.label,
                    "results": [
                        {
                            "title": hit.title,
                            "url": hit.url,
                            "meta": hit.meta,
                            "snippet": hit.snippet.text,
                            "highlights": [list(mark) for mark in hit.snippet.marks],
                        }
                        for hit in group.hits
                    ],
                    "more": group.more,
                }
                for group in results.groups
            ],
        }
    )
