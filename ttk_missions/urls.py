"""Web pages of the ttk_missions app."""

urlpatterns: list = []
