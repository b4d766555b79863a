"""API v1 routes of TIMEMASTER advancement, included under /api/v1/ by config/urls.py (the
check routes are in config/urls.py, beside the dice log's)."""

from systems.timemaster import api_advancement, api_condition

urlpatterns: list = [*api_advancement.urlpatterns, *api_condition.urlpatterns]
