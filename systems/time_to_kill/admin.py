"""The admin for operators: Time to Kill mission runs and their event logs, view-only (the log
is the mission; it changes only through the engine)."""

from __future__ import annotations

from django.contrib import admin

from characters.admin import ViewOnlyAdmin, ViewOnlyInline
from systems.time_to_kill.models import MissionEvent, MissionRun


class MissionEventInline(ViewOnlyInline):
    model = MissionEvent
    fields = ("seq", "by_role", "actor", "event", "created_at")
    readonly_fields = fields


@admin.register(MissionRun)
class MissionRunAdmin(ViewOnlyAdmin):
    list_display = ("title", "campaign", "ninja", "status", "outcome", "event_count", "updated_at")
    list_filter = ("status",)
    search_fields = ("title", "campaign__name", "ninja__name")
    inlines = [MissionEventInline]
