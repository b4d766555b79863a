"""API v1 routes of the ttk_missions app, included under /api/v1/ by config/urls.py."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from systems.time_to_kill import api

urlpatterns: list = [
    path("campaigns/<chid:campaign_pk>/ttk-runs/", api.RunListView.as_view(), name="api-ttk-runs"),
    path("ttk-runs/<chid:pk>/events/", api.EventsView.as_view(), name="api-ttk-run-events"),
    path("ttk-runs/<chid:pk>/abandon/", api.AbandonView.as_view(), name="api-ttk-run-abandon"),
    path("ttk-runs/<chid:pk>/gm-state/", api.GMStateView.as_view(), name="api-ttk-run-gm-state"),
    path("ttk-runs/<chid:pk>/player-state/", api.PlayerStateView.as_view(), name="api-ttk-run-player-state"),
]
