"""Model fields that read back whatever an older Dossier stored.

Before the input boundary (kernel/input_boundary.py), a JSON string with a lone surrogate
(``"\\udc00"``) could be stored: SQLite keeps the escape in the JSON text, and from then on every
page, API answer, export or PDF that showed the row failed to encode it (HTTP 500). This field
decodes such rows with U+FFFD (the replacement character) in place of each lone surrogate, so
every read path (pages, API, exports, sheets, tasks) gets valid text without knowing about it.
``manage.py find_bad_text --fix`` repairs the rows themselves.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import models

#: A JSON \\u escape of a surrogate: the only way stored JSON text can hold a lone one.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def replace_lone_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [replace_lone_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {replace_lone_surrogates(key): replace_lone_surrogates(item) for key, item in value.items()}
    return value


class ReadSafeJSONField(models.JSONField):
    """Django's JSONField that never hands out a lone surrogate (see the module docstring).

    The column is the same as JSONField's, so it deconstructs as one: no migration.
    """

    def from_db_value(self, value, expression, connection):
        decoded = super().from_db_value(value, expression, connection)
        if isinstance(value, str) and SURROGATE_ESCAPE.search(value):
            return replace_lone_surrogates(decoded)
        return decoded

    def deconstruct(self):
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs


#: Random ids are drawn from [PUBLIC_ID_MIN, PUBLIC_ID_MAX): above any id a table numbered one by
#: one before it switched (so no clash with older rows), within JavaScript's exact integers and
#: the 18 digits the URL patterns take.
PUBLIC_ID_MIN = 2**40
PUBLIC_ID_MAX = 2**53


def random_public_id() -> int:
    """A primary key that says nothing about other rows (docs/secrets.md, "No gaps").

    Tables holding rows that some members may not see (secret and conflict rolls, NPCs the GM has
    not revealed) take their ids from here instead of a sequence: with numbered ids, a player who
    sees rows 7 and 9 would know that row 8 exists. Two ids collide with a chance of about n²/2⁵⁴
    for n rows (under one in a million for 100,000 rows); the insert then fails like any other
    integrity error and changes nothing.
    """
    return PUBLIC_ID_MIN + secrets.randbelow(PUBLIC_ID_MAX - PUBLIC_ID_MIN)
