"""Web pages of the ttk_missions app."""

from django.urls import path

import characters.urls  # noqa: F401  (registers "chid": ids that fit 64 bits, longer ones 404)
from systems.time_to_kill import views

urlpatterns: list = [
    path("campaigns/<chid:pk>/ttk/", views.run_list, name="ttk-run-list"),
    path("ttk/<chid:pk>/", views.run_page, name="ttk-run"),
    path("ttk/<chid:pk>/panel/", views.run_panel, name="ttk-run-panel"),
    path("ttk/<chid:pk>/move/", views.run_move, name="ttk-run-move"),
    path("ttk/<chid:pk>/abandon/", views.run_abandon, name="ttk-run-abandon"),
    path("ttk/<chid:pk>/history/", views.run_history, name="ttk-run-history"),
]
