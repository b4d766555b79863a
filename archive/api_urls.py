"""API v1 routes of the archive app, included under /api/v1/ by config/urls.py."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from archive import api

urlpatterns = [
    path(
        "campaigns/<chid:campaign_pk>/characters/<chid:character_pk>/export/",
        api.export_character,
        name="api-character-export",
    ),
    path(
        "campaigns/<chid:campaign_pk>/characters/import/", api.import_character, name="api-character-import"
    ),
    path("campaigns/<chid:campaign_pk>/export/", api.export_campaign, name="api-campaign-export"),
    path(
        "campaigns/<chid:campaign_pk>/exports/", api.start_campaign_export, name="api-campaign-export-start"
    ),
    path(
        "campaigns/<chid:campaign_pk>/exports/<chid:export_pk>/",
        api.campaign_export_job,
        name="api-campaign-export-job",
    ),
    path(
        "campaigns/<chid:campaign_pk>/exports/<chid:export_pk>/download/",
        api.campaign_export_download,
        name="api-campaign-export-download",
    ),
    path("campaigns/import/", api.import_campaign, name="api-campaign-import"),
]
