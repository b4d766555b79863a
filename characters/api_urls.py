"""API v1 routes of the characters app, included under /api/v1/ by config/urls.py."""

urlpatterns: list = []
