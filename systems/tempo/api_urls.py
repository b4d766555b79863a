"""API v1 routes of the tempo_conflicts app, included under /api/v1/ by config/urls.py."""

from django.urls import re_path

from systems.tempo import api

ID = r"[0-9]{1,18}"  # ids beyond 64 bits are 404, not an overflow

urlpatterns: list = [
    re_path(
        rf"^characters/(?P<character_pk>{ID})/tempo-rolls/$",
        api.TempoRollView.as_view(),
        name="api-tempo-roll",
    ),
    re_path(
        rf"^campaigns/(?P<campaign_pk>{ID})/tempo/fate-refresh/$",
        api.FateRefreshView.as_view(),
        name="api-tempo-fate-refresh",
    ),
    re_path(
        rf"^campaigns/(?P<campaign_pk>{ID})/conflicts/$",
        api.ConflictListView.as_view(),
        name="api-tempo-conflicts",
    ),
    re_path(
        rf"^campaigns/(?P<campaign_pk>{ID})/conflicts/(?P<pk>{ID})/$",
        api.ConflictDetailView.as_view(),
        name="api-tempo-conflict",
    ),
    re_path(
        rf"^campaigns/(?P<campaign_pk>{ID})/conflicts/(?P<pk>{ID})/events/$",
        api.ConflictEventsView.as_view(),
        name="api-tempo-conflict-events",
    ),
]
