from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from campaigns import tokens, views
from characters.urls import CharacterIdConverter
from kernel.abuse import LoginThrottle, limit_failed_logins

# One id converter for the whole site (18 digits: longer ids are a 404, not an overflow).
register_converter(CharacterIdConverter, "id")

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        limit_failed_logins(LoginThrottle)(views.LoginView.as_view()),
        name="login",
    ),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("accounts/tokens/", tokens.token_page, name="api-tokens"),
    path("accounts/tokens/<str:token_id>/revoke/", tokens.token_page_revoke, name="api-token-page-revoke"),
    path("campaigns/", views.campaign_list, name="campaign-list"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/<id:pk>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<id:pk>/settings/", views.campaign_settings, name="campaign-settings"),
    path("campaigns/<id:pk>/members/", views.campaign_members, name="campaign-members"),
    path("campaigns/<id:pk>/invitations/", views.invitation_create, name="invitation-create"),
    path(
        "campaigns/<id:pk>/invitations/<id:invitation_pk>/revoke/",
        views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("campaigns/<id:pk>/members/<id:member_pk>/role/", views.member_role, name="member-role"),
    path("campaigns/<id:pk>/members/<id:member_pk>/remove/", views.member_remove, name="member-remove"),
    path("campaigns/<id:pk>/dice/", views.dice, name="campaign-dice"),
    path("campaigns/<id:pk>/dice/log/", views.dice_log, name="campaign-dice-log"),
    path("campaigns/<id:pk>/dice/<id:roll_pk>/reveal/", views.dice_reveal, name="campaign-dice-reveal"),
    path("join/<str:code>/", views.join, name="join"),
]

from campaigns.table import fair_views, sheet_rolls  # noqa: E402

urlpatterns += [
    path("campaigns/<id:pk>/dice/fair/", fair_views.fair_dice_page, name="campaign-dice-fair"),
    path("campaigns/<id:pk>/dice/fair/seed/", fair_views.fair_dice_seed, name="campaign-dice-fair-seed"),
    path(
        "campaigns/<id:pk>/dice/fair/verifier/",
        fair_views.fair_dice_verifier,
        name="campaign-dice-fair-verifier",
    ),
    path(
        "campaigns/<id:pk>/dice/fair/rotate/", fair_views.fair_dice_rotate, name="campaign-dice-fair-rotate"
    ),
    path("campaigns/<id:pk>/dice/by-hand/", fair_views.dice_by_hand, name="campaign-dice-by-hand"),
    path("characters/<id:pk>/roll/", sheet_rolls.roll_page, name="character-roll"),
    path("campaigns/<id:pk>/webhooks/", fair_views.webhook_add, name="campaign-settings-webhook-add"),
    path(
        "campaigns/<id:pk>/webhooks/<id:hook_pk>/<str:action>/",
        fair_views.webhook_change,
        name="campaign-settings-webhook-change",
    ),
]

from campaigns.table import live_views  # noqa: E402

urlpatterns += [path("campaigns/<id:pk>/live/", live_views.live_feed, name="campaign-live")]

from campaigns import npc_views, report_views  # noqa: E402

urlpatterns += [
    path("campaigns/<id:pk>/report/", report_views.campaign_report, name="campaign-report"),
    path("campaigns/<id:pk>/npcs/", npc_views.npc_list, name="npc-list"),
    path("campaigns/<id:pk>/npcs/<id:npc_pk>/", npc_views.npc_detail, name="npc-detail"),
    path("campaigns/<id:pk>/npcs/<id:npc_pk>/reveal/", npc_views.npc_reveal, name="npc-reveal"),
    path("campaigns/<id:pk>/npcs/<id:npc_pk>/delete/", npc_views.npc_delete, name="npc-delete"),
]

from campaigns.chronicle import play_session_views as psv  # noqa: E402

# Play sessions (issue 50): named by their number in the campaign, never by a database id; notes
# by their random id.
PLAY_SESSION = "campaigns/<id:pk>/play-sessions/<int:number>/"
urlpatterns += [
    path("campaigns/<id:pk>/play-sessions/", psv.play_session_list, name="play-session-list"),
    path("campaigns/<id:pk>/play-sessions/start/", psv.play_session_start, name="play-session-start"),
    path(PLAY_SESSION, psv.play_session_detail, name="play-session-detail"),
    path(f"{PLAY_SESSION}edit/", psv.play_session_edit, name="play-session-edit"),
    path(f"{PLAY_SESSION}end/", psv.play_session_end, name="play-session-end"),
    path(f"{PLAY_SESSION}notes/", psv.note_add, name="play-session-note-add"),
    path("campaigns/<id:pk>/notes/<id:note_pk>/edit/", psv.note_edit, name="play-session-note-edit"),
    path("campaigns/<id:pk>/notes/<id:note_pk>/delete/", psv.note_delete, name="play-session-note-delete"),
]

from campaigns.chronicle import views as chronicle_views  # noqa: E402

urlpatterns += [
    path(f"{PLAY_SESSION}recap/", chronicle_views.play_session_recap, name="play-session-recap"),
    path("campaigns/<id:pk>/timeline/", chronicle_views.campaign_timeline, name="campaign-timeline"),
]

# A game system's own pages (its missions, its dice-page actions) are in systems/<system>/urls.py.

from campaigns.chronicle import search_views  # noqa: E402

# Search (issue 50, part 5): one box per campaign, in the campaign's tabs.
urlpatterns += [path("campaigns/<id:pk>/search/", search_views.campaign_search, name="campaign-search")]
