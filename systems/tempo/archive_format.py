"""How Tempo's records sit in a campaign archive beside its sections (SystemApp.archive_format).

``SPOTS``: a fate point made by a roll names the roll in its payload (``roll``) and in its reason
("Roll <id>: <role>"); archive/references.py writes both as the roll's archive key.
"""

from __future__ import annotations

from archive.references import ROLL, Spots

SPOTS = Spots(payload_field="roll", payload_kind=ROLL, roll_in_reason=True)
