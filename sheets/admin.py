"""The admin for operators: sheet renders, to see what failed and why (view-only: a render is
requested and retried in the app)."""

from __future__ import annotations

from django.contrib import admin

from characters.admin import ViewOnlyAdmin
from sheets.models import SheetRender


@admin.register(SheetRender)
class SheetRenderAdmin(ViewOnlyAdmin):
    list_display = ("id", "kind", "system", "campaign", "character", "revision", "status", "error")
    list_filter = ("status", "kind", "system")
    search_fields = ("campaign__name", "character__name", "error")
