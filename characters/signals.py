"""What the characters app tells the layers above it, which it may not import (pyproject's layers).

``finalized``: a draft became a character (services.finalize), sent inside its transaction with
``character``; the campaigns app tells the live feed (issue 44: the owner's open draft page)."""

from __future__ import annotations

from django.dispatch import Signal

finalized = Signal()
