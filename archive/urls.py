"""Web pages of the archive app."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from archive import views

urlpatterns: list = [
    path("campaigns/import/", views.campaign_import, name="campaign-import"),
    path("campaigns/<chid:pk>/archive/", views.campaign_archive, name="campaign-archive"),
    path("campaigns/<chid:pk>/archive/export/", views.campaign_export, name="campaign-archive-export"),
    path("campaigns/<chid:pk>/archive/exports/", views.campaign_export_start, name="campaign-export-start"),
    path(
        "campaigns/<chid:pk>/archive/exports/<chid:export_pk>/",
        views.campaign_export_job,
        name="campaign-export-job",
    ),
    path(
        "campaigns/<chid:pk>/archive/exports/<chid:export_pk>/download/",
        views.campaign_export_download,
        name="campaign-export-download",
    ),
    path("campaigns/<chid:pk>/archive/characters/import/", views.character_import, name="character-import"),
    path(
        "campaigns/<chid:pk>/archive/characters/<chid:character_pk>/export/",
        views.character_export,
        name="character-export",
    ),
]
