"""API v1 routes of the toy system, included under /api/v1/ through the registry
(characters.registry.url_modules: the app's ``api_urls`` by the folder's convention)."""

from django.urls import re_path

from . import api

urlpatterns: list = [
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/toy-contests/$",
        api.ToyContestList.as_view(),
        name="api-toy-contests",
    ),
]
