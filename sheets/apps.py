from django.apps import AppConfig


class SheetsConfig(AppConfig):
    name = "sheets"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The hook where revisions change: a character saved with a new revision gets its sheet
        # rendered in the background (sheets/prerender.py); characters knows nothing of sheets.
        from django.db.models.signals import post_save

        from characters.models import Character
        from sheets import prerender

        post_save.connect(prerender.character_saved, sender=Character, dispatch_uid="sheets-prerender")

        # A render done, failed or asked for reaches its readers' open pages (issue 44).
        from sheets import access
        from sheets.models import render_moved

        render_moved.connect(access.tell_readers, dispatch_uid="sheets-live")

        # The campaign page's "Waiting for you": sheets still rendering.
        from campaigns import pending
        from sheets.services import pending_renders

        if pending_renders not in pending.SOURCES:
            pending.SOURCES.append(pending_renders)

        # A play session's page lists the prints made during it (issue 50), as each reader may read them.
        from campaigns.chronicle import play_sessions
        from sheets.play_sessions import prints

        if prints not in play_sessions.SOURCES:
            play_sessions.SOURCES.append(prints)
