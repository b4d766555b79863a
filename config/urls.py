from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from campaigns import api as campaigns_api
from campaigns import api_npcs as campaigns_api_npcs
from campaigns import tokens
from campaigns.chronicle import api_play_sessions as campaigns_api_play_sessions
from campaigns.chronicle import api_search as campaigns_api_search
from campaigns.table import api_fair as campaigns_api_fair
from campaigns.table import api_rolls
from campaigns.table import sheet_rolls as campaigns_sheet_rolls
from characters import registry
from config import health, metrics

router = SimpleRouter()
router.register("campaigns", campaigns_api.CampaignViewSet, basename="campaign")
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/members", campaigns_api.MembershipViewSet, basename="member"
)
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/invitations",
    campaigns_api.InvitationViewSet,
    basename="invitation",
)
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/missions", campaigns_api.MissionViewSet, basename="mission"
)
router.register(r"campaigns/(?P<campaign_pk>[0-9]{1,18})/rolls", api_rolls.RollViewSet, basename="roll")
router.register(r"campaigns/(?P<campaign_pk>[0-9]{1,18})/npcs", campaigns_api_npcs.NPCViewSet, basename="npc")
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/play_sessions",
    campaigns_api_play_sessions.PlaySessionViewSet,
    basename="api-play-session",
)
router.register(
    r"campaigns/(?P<campaign_pk>[0-9]{1,18})/notes",
    campaigns_api_play_sessions.NoteViewSet,
    basename="api-note",
)

api_v1 = [
    path("auth/token/", tokens.TokenCreateView.as_view(), name="api-token"),
    path("auth/tokens/", tokens.token_list, name="api-token-list"),
    path("auth/tokens/<str:token_id>/", tokens.token_revoke, name="api-token-revoke"),
    path("me/", campaigns_api.me, name="api-me"),
    path("systems/", campaigns_api.systems, name="api-systems"),
    path("invitations/accept/", campaigns_api.accept_invitation, name="api-accept-invitation"),
    *router.urls,
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/fair-dice/$",
        campaigns_api_fair.proof_document,
        name="api-fair-dice",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/fair-dice/my-seed/$",
        campaigns_api_fair.my_seed,
        name="api-fair-dice-seed",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/fair-dice/rotate/$",
        campaigns_api_fair.rotate,
        name="api-fair-dice-rotate",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/rolls-by-hand/$",
        campaigns_api_fair.by_hand,
        name="api-roll-by-hand",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/search/$",
        campaigns_api_search.campaign_search,
        name="api-search",
    ),
    re_path(
        r"^characters/(?P<pk>[0-9]{1,18})/rolls/$",
        campaigns_sheet_rolls.character_rolls,
        name="api-character-rolls",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/webhooks/$",
        campaigns_api_fair.webhook_list,
        name="api-webhooks",
    ),
    re_path(
        r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/webhooks/(?P<hook_pk>[0-9]{1,18})/$",
        campaigns_api_fair.webhook_detail,
        name="api-webhook",
    ),
    path("", include("characters.api_urls")),
    path("", include("sheets.api_urls")),
    # Each installed game system's API (systems/<system>/api_urls.py), found through the registry:
    # the URL conf names no system.
    *(path("", include(module)) for module in registry.url_modules("api_urls")),
    path("", include("archive.api_urls")),
]

# Swagger UI's start-up script comes from a URL of its own (the split view), so scripts stay 'self'
# only; its page and widgets set inline styles, so this one page allows them (django-csp).
swagger_ui = csp_update({"style-src": ["'unsafe-inline'"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", swagger_ui, name="api-docs"),
    path("admin/", admin.site.urls),
    path("", include("characters.urls")),
    path("", include("sheets.urls")),
    # Each installed game system's pages (systems/<system>/urls.py), found through the registry.
    *(path("", include(module)) for module in registry.url_modules("urls")),
    path("", include("archive.urls")),
    path("", include("campaigns.urls")),
]

handler400 = "campaigns.views.bad_request"
handler403 = "campaigns.views.forbidden"
handler404 = "campaigns.views.not_found"
handler500 = "campaigns.views.server_error"
