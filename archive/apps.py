from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "archive"

    def ready(self) -> None:
        # Archival sheets carry the character's export document (sheets/archival.py); sheets sits
        # below archive in the layers, so the archive hands it the document's maker.
        from archive.services import archival_document
        from sheets import archival

        archival.register(archival_document)
        # The export job listens for the services' requests (archive/signals.py).
        from archive import tasks  # noqa: F401
