"""API v1 routes of the tempo_conflicts app, included under /api/v1/ by config/urls.py."""

urlpatterns: list = []
