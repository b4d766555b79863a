"""API v1 routes of the sheets app, included under /api/v1/ by config/urls.py."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from sheets import api

urlpatterns = [
    path("campaigns/<chid:campaign_pk>/sheets/", api.request_sheet, name="api-sheet-request"),
    path("sheets/<chid:render_pk>/", api.render_status, name="api-sheet-render"),
    path("sheets/<chid:render_pk>/download/", api.download, name="api-sheet-download"),
]
