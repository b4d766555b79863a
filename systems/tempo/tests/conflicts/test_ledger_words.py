"""Tempo's fate points read as sentences on a character's history, not reason codes (issue 46 walk:
the demo's history page showed gm_complication and bonus_die_from_aspect)."""

from __future__ import annotations

import re

from systems.tempo.ledger_words import sentence


def test_fate_point_entries_read_as_sentences_without_codes():
    lines = [
        sentence("fate_point_gained", {"reason": "gm_complication"}, ""),
        sentence("fate_point_gained", {"reason": "accepted_offer", "count": 2}, ""),
        sentence("fate_point_spent", {"reason": "bonus_die_from_aspect", "aspect": "flashpoint_1"}, ""),
        sentence("fate_refresh", {"amount": 3}, ""),
        sentence("fate_refresh", {"amount": 0}, ""),
    ]
    assert lines[0].startswith("Gained a fate point. The GM brought")
    assert lines[1].startswith("Gained 2 fate points. Accepted")
    assert lines[2].startswith("Spent a fate point on flashpoint 1. A bonus die")
    assert lines[3] == "Fate refresh: 3 fate points more." and lines[4] == "Fate refresh: none due."
    for line in lines:
        assert not re.search(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b", line), line
    assert sentence("something_else", {}, "") == ""
