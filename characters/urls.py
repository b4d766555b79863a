"""Web pages of the characters app (filled in by its issue)."""

urlpatterns: list = []
