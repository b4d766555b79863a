"""Web pages of the d6_encounters app."""

from django.urls import path, register_converter

from characters.urls import CharacterIdConverter
from systems.d6 import views

# Our own name for the site's 18-digit id converter: this module may be imported before
# campaigns.urls registers "id".
register_converter(CharacterIdConverter, "d6id")

_ONE = "campaigns/<d6id:pk>/encounters/<d6id:encounter_pk>/"

urlpatterns: list = [
    path("campaigns/<d6id:pk>/encounters/", views.encounter_list, name="d6-encounter-list"),
    path(_ONE, views.encounter_detail, name="d6-encounter-detail"),
    path(_ONE + "panel/", views.encounter_panel, name="d6-encounter-panel"),
    path(_ONE + "participants/", views.participant_add, name="d6-encounter-add"),
    path(
        _ONE + "participants/<d6id:participant_pk>/remove/",
        views.participant_remove,
        name="d6-encounter-remove",
    ),
    path(_ONE + "start/", views.encounter_start, name="d6-encounter-start"),
    path(_ONE + "event/", views.encounter_event, name="d6-encounter-event"),
]
