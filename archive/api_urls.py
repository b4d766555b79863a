"""API v1 routes of the archive app, included under /api/v1/ by config/urls.py."""

urlpatterns: list = []
