"""Web pages of the sheets app: the print page of a campaign, a render's progress, its download."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from sheets import views

urlpatterns = [
    path("campaigns/<chid:campaign_pk>/sheets/", views.campaign_sheets, name="campaign-sheets"),
    path("characters/<chid:character_pk>/sheet-box/", views.character_sheet_box, name="character-sheet-box"),
    path("sheets/<chid:render_pk>/", views.render_page, name="sheet-render"),
    path("sheets/<chid:render_pk>/status/", views.render_status, name="sheet-render-status"),
    path("sheets/<chid:render_pk>/download/", views.download, name="sheet-download"),
]
