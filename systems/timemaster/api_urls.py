"""API v1 routes of TIMEMASTER, included under /api/v1/ through the registry (config/urls.py):
advancement, an agent's condition and attacks, the Action Table checks of the dice roller, and
its actions on missions (tally, close, publish, after-action record, audit) on the paths of the
platform's missions API."""

from django.urls import re_path
from rest_framework.routers import SimpleRouter

from systems.timemaster import api_advancement, api_checks, api_condition, api_missions

router = SimpleRouter()
# basename "mission": the routes keep their names (mission-tally, mission-close ...).
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/missions", api_missions.MissionViewSet, basename="mission"
)

urlpatterns: list = [
    *router.urls,
    *api_advancement.urlpatterns,
    *api_condition.urlpatterns,
    re_path(r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/checks/$", api_checks.roll_check, name="api-check"),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/checks/scores/(?P<character_pk>[0-9]{1,18})/$",
        api_checks.check_scores,
        name="api-check-scores",
    ),
]
