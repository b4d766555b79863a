"""The admin for operators: characters and their advancement ledger, to look at, never to edit.

A build changes only through its engine (which bumps the revision), and the ledger is
append-only (a mistake is undone by a reversing entry, in the app), so both are view-only here.
``ViewOnlyAdmin`` is shared by the other apps' admin modules (this is the lowest Django app).
"""

from __future__ import annotations

from django.contrib import admin

from characters.models import AdvancementEntry, Character


class ViewOnlyAdmin(admin.ModelAdmin):
    """Shows rows and their fields; no add, change or delete (rows the app writes through its
    engines and services, or append-only records)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ViewOnlyInline(admin.TabularInline):
    extra = 0
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Character)
class CharacterAdmin(ViewOnlyAdmin):
    list_display = ("name", "system", "status", "campaign", "owner", "revision", "updated_at")
    list_filter = ("system", "status")
    search_fields = ("name", "owner__username", "campaign__name")
    list_select_related = ("campaign", "owner")


@admin.register(AdvancementEntry)
class AdvancementEntryAdmin(ViewOnlyAdmin):
    list_display = (
        "id",
        "character",
        "kind",
        "reverses",
        "mission",
        "recorded_by",
        "revision_after",
        "created_at",
    )
    list_filter = ("kind",)
    search_fields = ("character__name", "reason")
    list_select_related = ("character", "reverses", "mission", "recorded_by")
