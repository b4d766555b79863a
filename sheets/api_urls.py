"""API v1 routes of the sheets app, included under /api/v1/ by config/urls.py."""

from django.urls import path

from sheets import api

urlpatterns = [
    path("campaigns/<int:campaign_pk>/sheets/", api.request_sheet, name="api-sheet-request"),
    path("sheets/<int:render_pk>/", api.render_status, name="api-sheet-render"),
    path("sheets/<int:render_pk>/download/", api.download, name="api-sheet-download"),
]
