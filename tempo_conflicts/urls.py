"""Web pages of the tempo_conflicts app."""

urlpatterns: list = []
