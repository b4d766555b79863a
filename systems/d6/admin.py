"""The admin for operators: D6 encounters, their participants and events, view-only (an
encounter changes only through the engine)."""

from __future__ import annotations

from django.contrib import admin

from characters.admin import ViewOnlyAdmin, ViewOnlyInline
from systems.d6.models import Encounter, EncounterEvent, Participant


class ParticipantInline(ViewOnlyInline):
    model = Participant
    fields = ("key", "kind", "name", "character", "character_revision")
    readonly_fields = fields
    show_change_link = False


class EncounterEventInline(ViewOnlyInline):
    model = EncounterEvent
    fields = ("seq", "type", "payload", "recorded_by", "created_at")
    readonly_fields = fields
    show_change_link = False


@admin.register(Encounter)
class EncounterAdmin(ViewOnlyAdmin):
    list_display = ("name", "campaign", "method", "status", "event_count", "updated_at")
    list_filter = ("status", "method")
    search_fields = ("name", "campaign__name")
    inlines = [ParticipantInline, EncounterEventInline]
