"""Web pages of the sheets app: the print page of a campaign, a render's progress, its download."""

from django.urls import path

from sheets import views

urlpatterns = [
    path("campaigns/<int:campaign_pk>/sheets/", views.campaign_sheets, name="campaign-sheets"),
    path("sheets/<int:render_pk>/", views.render_page, name="sheet-render"),
    path("sheets/<int:render_pk>/status/", views.render_status, name="sheet-render-status"),
    path("sheets/<int:render_pk>/download/", views.download, name="sheet-download"),
]
