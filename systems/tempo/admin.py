"""The admin for operators: Tempo conflicts, their sides and events, view-only (a conflict
changes only through the engine)."""

from __future__ import annotations

from django.contrib import admin

from characters.admin import ViewOnlyAdmin, ViewOnlyInline
from systems.tempo.models import Conflict, ConflictEvent, Participant


class ParticipantInline(ViewOnlyInline):
    model = Participant
    fields = ("side", "character", "npc_name")
    readonly_fields = fields
    show_change_link = False


class ConflictEventInline(ViewOnlyInline):
    model = ConflictEvent
    fields = ("seq", "kind", "summary", "payload", "recorded_by", "created_at")
    readonly_fields = fields
    show_change_link = False


@admin.register(Conflict)
class ConflictAdmin(ViewOnlyAdmin):
    list_display = ("title", "campaign", "status", "created_by", "updated_at")
    list_filter = ("status",)
    search_fields = ("title", "campaign__name")
    inlines = [ParticipantInline, ConflictEventInline]
