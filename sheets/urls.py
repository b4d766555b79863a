"""Web pages of the sheets app (filled in by its issue)."""

urlpatterns: list = []
