"""API v1 routes of TIMEMASTER, included under /api/v1/ through the registry (config/urls.py):
advancement, an agent's condition and attacks, and the Action Table checks of the dice roller."""

from django.urls import re_path

from systems.timemaster import api_advancement, api_checks, api_condition

urlpatterns: list = [
    *api_advancement.urlpatterns,
    *api_condition.urlpatterns,
    re_path(r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/checks/$", api_checks.roll_check, name="api-check"),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/checks/scores/(?P<character_pk>[0-9]{1,18})/$",
        api_checks.check_scores,
        name="api-check-scores",
    ),
]
