"""The archive's job requests, sent by the services and received by archive/tasks.py, so the
services queue a job without importing the task module (which imports the services)."""

from django.dispatch import Signal

#: A CampaignExport row was saved and its transaction committed (``export_id``): queue its job.
export_requested = Signal()
