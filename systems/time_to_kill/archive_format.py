"""How Time to Kill's records sit in a campaign archive beside its sections (SystemApp.archive_format).

``RUN``: the reference kind of a mission run (``"ttk_run:0"``: the first record of ``ttk_runs``).
``SPOTS``: a ninja's ``mission_result`` entry names the run it finished (``payload.mission``), and
the build's ``missions[].mission`` and ``death.mission`` do too.
``OLD_IDS``: for the format's version 2 -> 3 step, the old run id -> position that version 2 shows.
"""

from __future__ import annotations

from typing import Any

from archive.problems import join
from archive.references import Change, Spots, as_id, changed_field

RUN = "ttk_run"
SECTION = "ttk_runs"


def _build(build: Any, change: Change, path: str) -> Any:
    """The ledger's build: missions[].mission and death.mission name the run (mission_result)."""
    if not isinstance(build, dict):
        return build
    build = dict(build)
    if isinstance(build.get("missions"), list):
        build["missions"] = [
            changed_field(summary, "mission", RUN, change, join(join(path, "missions"), index))
            for index, summary in enumerate(build["missions"])
        ]
    if "death" in build:
        build["death"] = changed_field(build["death"], "mission", RUN, change, join(path, "death"))
    return build


SPOTS = Spots(payload_field="mission", payload_kind=RUN, entry_kinds=("mission_result",), build=_build)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _item(items: Any, index: Any) -> Any:
    if isinstance(items, list) and isinstance(index, int) and not isinstance(index, bool):
        return items[index] if 0 <= index < len(items) else None
    return None


def OLD_IDS(document: dict[str, Any]) -> dict[str, dict[int, int]]:  # noqa: N802 (a hook's name)
    """Old run id -> position: the run's result entry names the run in its payload."""
    found: dict[int, int] = {}
    characters = _list(document.get("characters"))
    for position, run in enumerate(_list(document.get(SECTION))):
        ninja = _item(characters, run.get("ninja")) if isinstance(run, dict) else None
        entry = _item(ninja.get("ledger"), run.get("result_entry")) if isinstance(ninja, dict) else None
        payload = entry.get("payload") if isinstance(entry, dict) else None
        old = as_id(payload.get("mission")) if isinstance(payload, dict) else None
        if old is not None:
            found.setdefault(old, position)
    return {RUN: found}
