"""API v1 routes of the characters app, included under /api/v1/ by config/urls.py."""

from rest_framework.routers import SimpleRouter

from characters import api

router = SimpleRouter()
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/characters", api.CharacterViewSet, basename="api-character"
)

# TIMEMASTER advancement routes are in systems/timemaster/api_urls.py.
urlpatterns: list = router.urls
