"""API v1 routes of the d6_encounters app, included under /api/v1/ by config/urls.py."""

urlpatterns: list = []
