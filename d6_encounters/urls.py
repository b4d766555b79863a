"""Web pages of the d6_encounters app."""

urlpatterns: list = []
