"""API v1 routes of the ttk_missions app, included under /api/v1/ by config/urls.py."""

urlpatterns: list = []
