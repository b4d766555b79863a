"""The campaign's dice scopes (docs/fair-dice.md): each part of play that only some members see (a
Tempo conflict) numbers its rolls in lanes of its own and keeps its secret rolls under a secret key
of its own. One object per scope: its label (random, no database id; the lanes of the proofs in
``fair_dice`` name it), its secret key and commitment, and when it was made, closed and its key
released. A scope's key travels once released, never before (format version 4, as the seeds'
do: archive/sections/fair_dice.py); a restored scope without its key keeps its secret rolls
unverifiable for good and rolls on under a scope of its own (fairness.live_scope). Comes after
the systems' sections, which may open a scope for each of their records (an older file without
this section keeps the scopes they open, with new keys), and before ``fair_dice``.
"""

from __future__ import annotations

import re

from archive import timestamps
from archive.problems import Checker, Problem, join
from archive.sections.fair_dice import HEX64
from campaigns.models import DiceScope

KEY = "fair_dice_scopes"
#: A scope's label (a Tempo conflict's ``dice_scope`` names it too: systems/tempo/archive.py).
LABEL = re.compile(r"[a-z0-9-]{1,40}")
MAX_SCOPES = 100_000


def export(campaign, refs) -> list[dict]:
    return [
        {
            "label": s.label,
            "secret_key": s.secret_key if s.secret_released_at and s.secret_key else None,
            "secret_commitment": s.secret_commitment,
            "created_at": timestamps.iso(s.created_at),
            "closed_at": timestamps.iso(s.closed_at),
            "secret_released_at": timestamps.iso(s.secret_released_at),
        }
        for s in DiceScope.objects.filter(campaign=campaign).order_by("created_at", "label")
    ]


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_SCOPES):
        return check.problems
    labels: set[str] = set()
    for index, scope in enumerate(data):
        path = join(KEY, index)
        if not check.obj(scope, path, ("label", "secret_key", "secret_commitment")):
            continue
        label = scope.get("label")
        if not isinstance(label, str) or not LABEL.fullmatch(label):
            check.add(join(path, "label"), "must be 1-40 of a-z, 0-9 and -.")
        elif label in labels:
            check.add(join(path, "label"), "is given to two scopes.")
        else:
            labels.add(label)
        if not isinstance(scope.get("secret_commitment"), str) or not HEX64.match(scope["secret_commitment"]):
            check.add(join(path, "secret_commitment"), "must be 64 lower-case hexadecimal digits.")
        key = scope.get("secret_key")
        if key is not None and (not isinstance(key, str) or not HEX64.match(key)):
            check.add(join(path, "secret_key"), "must be 64 lower-case hexadecimal digits, or null.")
        for key in ("created_at", "closed_at", "secret_released_at"):
            timestamps.check(check, scope, key, path)
    return check.problems


def load(campaign, data, refs) -> None:
    # The file's scopes replace the ones a system's section opened for its records just now.
    DiceScope.objects.filter(campaign=campaign, label__in=[s["label"] for s in data]).delete()
    made = DiceScope.objects.bulk_create(
        [
            DiceScope(
                campaign=campaign,
                label=scope["label"],
                # a key not released when the file was written stays out for good ("")
                secret_key=(scope.get("secret_key") or "") if scope.get("secret_released_at") else "",
                secret_commitment=scope["secret_commitment"],
                closed_at=timestamps.parse(scope.get("closed_at")),
                secret_released_at=(
                    timestamps.parse(scope.get("secret_released_at")) if scope.get("secret_key") else None
                ),
            )
            for scope in data
        ],
        batch_size=1000,
    )
    timestamps.restore_created_at(DiceScope, made, [s.get("created_at") for s in data])
