"""Web pages of the archive app."""

urlpatterns: list = []
