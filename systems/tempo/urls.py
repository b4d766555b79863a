"""Web pages of the tempo_conflicts app."""

from django.urls import path

import characters.urls  # noqa: F401  (registers the 18-digit "chid" id converter used below)
from systems.tempo import views

urlpatterns: list = [
    path("characters/<chid:pk>/tempo/roll/", views.roll_panel, name="tempo-roll"),
    path("characters/<chid:pk>/tempo/fate/", views.fate_gain, name="tempo-fate-gain"),
    path("campaigns/<chid:pk>/conflicts/", views.conflict_list, name="tempo-conflict-list"),
    path("campaigns/<chid:pk>/conflicts/new/", views.conflict_new, name="tempo-conflict-new"),
    path("campaigns/<chid:pk>/tempo/fate-refresh/", views.fate_refresh, name="tempo-fate-refresh"),
    path("conflicts/<chid:pk>/", views.conflict_detail, name="tempo-conflict-detail"),
    path("conflicts/<chid:pk>/events/", views.conflict_event, name="tempo-conflict-event"),
]
