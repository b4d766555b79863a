"""Web pages of the characters app."""

from django.urls import path, register_converter


class CharacterIdConverter:
    """Database ids that fit a 64-bit integer (longer ones are a 404, not an overflow)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value):
        return int(value)

    def to_url(self, value):
        return str(value)


# Its own name: campaigns registers "id", and this module is imported before campaigns.urls.
register_converter(CharacterIdConverter, "chid")

from characters import advancement_views, views  # noqa: E402  (after the converter, like campaigns.urls)

urlpatterns: list = [
    path("campaigns/<chid:pk>/characters/", views.character_list, name="character-list"),
    path("campaigns/<chid:pk>/characters/new/", views.character_new, name="character-new"),
    path("characters/<chid:pk>/", views.character_detail, name="character-detail"),
    path("characters/<chid:pk>/build/<slug:step>/", views.character_wizard, name="character-wizard-step"),
    path("characters/<chid:pk>/history/", views.character_history, name="character-history"),
    path(
        "characters/<chid:pk>/entries/<chid:entry_pk>/revert/",
        views.entry_revert,
        name="character-entry-revert",
    ),
    path("characters/<chid:pk>/shop/", advancement_views.shop, name="character-shop"),
    path("characters/<chid:pk>/shop/buy/", advancement_views.shop_buy, name="character-shop-buy"),
    path("characters/<chid:pk>/shop/undo/", advancement_views.shop_undo, name="character-shop-undo"),
    path("characters/<chid:pk>/free-pick/", advancement_views.free_pick, name="character-free-pick"),
    path("characters/<chid:pk>/violations/new/", advancement_views.violation, name="character-violation"),
    path("characters/<chid:pk>/bonus/", advancement_views.bonus, name="character-bonus"),
]
