"""The admin for operators: campaigns, who is in them, missions, the dice log and NPCs.

Read-mostly: an operator may rename a campaign, fix a member's role or revoke an invitation; what
the rules engines check (settings, missions, NPC statistics) and the append-only records (the
significance tally, the dice log) are view-only.
"""

from __future__ import annotations

from django.contrib import admin

from campaigns.models import (
    NPC,
    Campaign,
    ClientSeed,
    DiceScope,
    Invitation,
    LiveEvent,
    LogLeaf,
    LogNode,
    Membership,
    Mission,
    Note,
    NoteMention,
    PlaySession,
    Roll,
    RollLog,
    RollProof,
    RollSeed,
    SearchEntry,
    SignificanceEntry,
    TreeHead,
    Webhook,
)
from characters.admin import ViewOnlyAdmin, ViewOnlyInline


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "role", "joined_at")
    readonly_fields = ("user", "joined_at")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "module", "created_by", "created_at")
    list_filter = ("system",)
    search_fields = ("name", "created_by__username")
    fields = ("name", "description", "system", "module", "settings", "created_by", "created_at")
    readonly_fields = ("system", "module", "settings", "created_by", "created_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request):
        return False  # a campaign is made in the app, with its GM and the settings of its system

    def has_delete_permission(self, request, obj=None):
        return False  # it would take its append-only ledgers with it


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "campaign", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("user__username", "campaign__name")
    fields = ("campaign", "user", "role", "joined_at")
    readonly_fields = ("campaign", "user", "joined_at")

    def has_add_permission(self, request):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "created_by", "created_at", "expires_at", "revoked_at", "uses", "max_uses")
    search_fields = ("campaign__name",)
    fields = ("campaign", "created_by", "created_at", "expires_at", "max_uses", "uses", "revoked_at")
    readonly_fields = ("campaign", "created_by", "created_at", "expires_at", "max_uses", "uses")

    def has_add_permission(self, request):
        return False


class SignificanceEntryInline(ViewOnlyInline):
    model = SignificanceEntry
    fields = ("kind", "rating", "description", "reverses", "after_close", "shown_to_players", "created_at")
    readonly_fields = fields


@admin.register(Mission)
class MissionAdmin(ViewOnlyAdmin):
    list_display = ("title", "campaign", "status", "significance_rating", "success", "published_at")
    list_filter = ("status",)
    search_fields = ("title", "campaign__name")
    inlines = [SignificanceEntryInline]


@admin.register(SignificanceEntry)
class SignificanceEntryAdmin(ViewOnlyAdmin):
    list_display = ("id", "mission", "kind", "rating", "reverses", "after_close", "recorded_by", "created_at")
    list_filter = ("kind", "after_close")
    search_fields = ("mission__title", "description")


@admin.register(Roll)
class RollAdmin(ViewOnlyAdmin):
    list_display = ("id", "campaign", "roller", "kind", "total", "secret", "created_at")
    list_filter = ("secret", "kind")
    search_fields = ("campaign__name", "purpose")
    list_select_related = ("campaign", "roller")


@admin.register(NPC)
class NPCAdmin(ViewOnlyAdmin):
    list_display = ("name", "campaign", "system", "revealed", "updated_at")
    list_filter = ("system", "revealed")
    search_fields = ("name", "campaign__name")


@admin.register(RollSeed)
class RollSeedAdmin(ViewOnlyAdmin):
    """Fair-dice seeds (docs/fair-dice.md); view only: an edit would make every roll under it fail."""

    list_display = ("campaign", "number", "commitment", "created_at", "rotated_at", "secret_released_at")
    search_fields = ("campaign__name",)
    list_select_related = ("campaign",)
    exclude = ("server_seed", "secret_key")  # not revealed to the table yet, so not on a screen either


@admin.register(DiceScope)
class DiceScopeAdmin(ViewOnlyAdmin):
    """A part of play's own fair-dice key (a Tempo conflict); view only, and the key not shown."""

    list_display = ("campaign", "label", "secret_commitment", "created_at", "closed_at", "secret_released_at")
    search_fields = ("campaign__name", "label")
    list_select_related = ("campaign",)
    exclude = ("secret_key",)


@admin.register(RollProof)
class RollProofAdmin(ViewOnlyAdmin):
    list_display = ("roll", "seed", "lane", "counter", "by_hand")
    list_filter = ("by_hand",)
    list_select_related = ("roll", "seed")


@admin.register(ClientSeed)
class ClientSeedAdmin(ViewOnlyAdmin):
    list_display = ("membership", "updated_at")
    list_select_related = ("membership",)


@admin.register(Webhook)
class WebhookAdmin(ViewOnlyAdmin):
    list_display = ("campaign", "kind", "url", "enabled", "failures", "created_at")
    list_filter = ("kind", "enabled")
    search_fields = ("campaign__name", "url")
    list_select_related = ("campaign",)
    exclude = ("secret",)


@admin.register(LiveEvent)
class LiveEventAdmin(ViewOnlyAdmin):
    """The live feed's events (campaigns/table/live.py): pointers to a roll or a play record's topic."""

    list_display = ("campaign", "kind", "roll", "topic", "created_at")
    list_filter = ("kind",)
    list_select_related = ("campaign",)
    raw_id_fields = ("roll",)


@admin.register(PlaySession)
class PlaySessionAdmin(ViewOnlyAdmin):
    """Play sessions (campaigns/chronicle/play_sessions.py): numbered within their campaign."""

    list_display = ("campaign", "number", "title", "date", "started_at", "ended_at")
    list_select_related = ("campaign",)


@admin.register(Note)
class NoteAdmin(ViewOnlyAdmin):
    """Session notes: who wrote what for whom; the text stays its readers' (a player's private note
    is its author's alone), so an operator sees the note's place, not its body."""

    list_display = ("campaign", "play_session", "author", "visibility", "created_at")
    list_filter = ("visibility",)
    list_select_related = ("campaign", "play_session", "author")
    exclude = ("body",)


@admin.register(NoteMention)
class NoteMentionAdmin(ViewOnlyAdmin):
    list_display = ("note", "kind", "target_id")
    list_filter = ("kind",)


@admin.register(RollLog)
class RollLogAdmin(ViewOnlyAdmin):
    """The roll logs (campaigns/table/rolllog.py): one append-only Merkle tree per campaign and audience."""

    list_display = ("campaign", "audience", "size")
    list_select_related = ("campaign",)


@admin.register(LogLeaf)
class LogLeafAdmin(ViewOnlyAdmin):
    list_display = ("log", "index", "roll_id", "kind")
    list_select_related = ("log",)
    exclude = ("salt",)  # a sealed leaf's salt would open its commitment


@admin.register(LogNode)
class LogNodeAdmin(ViewOnlyAdmin):
    list_display = ("log", "level", "index")
    list_select_related = ("log",)


@admin.register(TreeHead)
class TreeHeadAdmin(ViewOnlyAdmin):
    list_display = ("log", "size", "timestamp")
    list_select_related = ("log",)


@admin.register(SearchEntry)
class SearchEntryAdmin(ViewOnlyAdmin):
    """The search index (campaigns/chronicle/search_index.py): written by database triggers, read only."""

    list_display = ("campaign", "kind", "object_id", "audience")
    list_filter = ("kind", "audience")
    list_select_related = ("campaign",)
