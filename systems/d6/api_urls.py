"""API v1 routes of the d6_encounters app, included under /api/v1/ by config/urls.py."""

from django.urls import re_path

from systems.d6 import api

_ENC = r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/d6-encounters/"
_ONE = _ENC + r"(?P<pk>[0-9]{1,18})/"

urlpatterns: list = [
    re_path(_ENC + r"$", api.EncounterList.as_view(), name="api-d6-encounter-list"),
    re_path(_ONE + r"$", api.EncounterDetail.as_view(), name="api-d6-encounter-detail"),
    re_path(_ONE + r"start/$", api.EncounterStart.as_view(), name="api-d6-encounter-start"),
    re_path(_ONE + r"participants/$", api.ParticipantList.as_view(), name="api-d6-participant-list"),
    re_path(
        _ONE + r"participants/(?P<participant_pk>[0-9]{1,18})/$",
        api.ParticipantDetail.as_view(),
        name="api-d6-participant-detail",
    ),
    re_path(_ONE + r"events/$", api.EventList.as_view(), name="api-d6-event-list"),
]
