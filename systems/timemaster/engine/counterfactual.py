"""Which mistake mattered: a closed mission's significance check worked out again without lines.

timemaster-play.md §2.4 and timemaster-characters.md §6.1-§6.2, rulings 2-4 of rules/README.md.
The counterfactuals use the same roll and the same rules as the real check: the only thing that
changes is the mistakes total. Nothing here is stored; the GM's audit asks for it each time from
the stored outcome and tally, so it can never disagree with them.

- ``without_each_line``: for every counting tally line, the verdict, pool, share and each agent's
  award had that line alone not happened, and whether that alone changes the verdict.
- ``smallest_rescue``: the fewest lines whose removal together would have kept history intact
  (roll > mistakes total). A completed mission always has one: with no mistakes the check cannot
  fail. Among equally few lines it removes the least significance (the nearest history to what
  happened); among those it keeps the earlier lines and names the later ones.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import refuse

from .significance import _award, counting_entries, significance_check, split_pool

RULE = "timemaster-play.md §2.4; timemaster-characters.md §6.1-§6.2, rulings 2-4"


def outcome_without(outcome: dict[str, Any], mistakes_total: int) -> dict[str, Any]:
    """The verdict, pool, split and awards of this closed mission had its mistakes totalled
    ``mistakes_total`` instead: the same roll, the same agents with the same standing."""
    check = outcome.get("check") or {}
    if not outcome.get("success"):
        verdict = "mission_failed"
    else:
        verdict = (
            "history_changed"
            if significance_check(mistakes_total, check["roll"])["history_changed"]
            else "history_intact"
        )
    pool = max(0, outcome["significance"] - mistakes_total) if verdict == "history_intact" else 0
    share, remainder = split_pool(pool, outcome["agents_count"])
    awards = []
    for given in outcome["awards"]:
        award = _award(verdict, share, given["status"])
        awards.append({"agent": given["agent"], **award})
    return {
        "mistakes_total": mistakes_total,
        "verdict": verdict,
        "history_changed": verdict == "history_changed",
        "difference": difference(mistakes_total, check.get("roll")) if outcome.get("success") else None,
        "pool": pool,
        "share": share,
        "remainder": remainder,
        "awards": awards,
    }


def difference(mistakes_total: int, roll: int | None) -> int | None:
    """The one number a GM reads for how the check fell (§6.2 step 4): mistakes total - roll, the
    difference looked up on the Historical Changes Chart when history changed (0 or more), below
    0 when it stayed intact. None when no check was made. Every page, chart and table that shows
    it calls it "Difference"."""
    if roll is None:
        return None
    return mistakes_total - roll


def to_other_verdict(mistakes_total: int, roll: int | None) -> int | None:
    """The points of mistakes that would have turned the check the other way (changed when
    roll <= total): to take away when history changed (difference + 1), to add when it stayed
    intact (-difference). Said in words ("20 fewer points"), never under a name of its own."""
    gap = difference(mistakes_total, roll)
    if gap is None:
        return None
    return gap + 1 if gap >= 0 else -gap


def _checked(outcome: Any, tally: Any) -> list[dict[str, Any]]:
    if not isinstance(outcome, dict) or "verdict" not in outcome or "awards" not in outcome:
        raise refuse("outcome", "Only a closed mission's outcome can be worked out again.", RULE)
    if not isinstance(tally, list):
        raise refuse("tally", "The tally must be a list of lines.", RULE)
    lines = counting_entries({"tally": tally})
    if sum(line["rating"] for line in lines) != outcome["mistakes_total"]:
        raise refuse(
            "tally",
            "This tally does not add up to the outcome's mistakes total.",
            RULE,
        )
    if outcome.get("success") and not (outcome.get("check") or {}).get("roll"):
        raise refuse("outcome", "A completed mission's outcome must hold its significance roll.", RULE)
    return lines


def without_each_line(outcome: dict[str, Any], tally: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each counting line (reversals and reversed lines do not count), the outcome had that
    line alone not been tallied, with ``changes_verdict`` and ``changes_awards`` marked."""
    lines = _checked(outcome, tally)
    total = outcome["mistakes_total"]
    actual = {a["agent"]: a["regular"] for a in outcome["awards"]}
    result = []
    for line in lines:
        other = outcome_without(outcome, total - line["rating"])
        result.append(
            {
                "line": line["id"],
                "kind": line["kind"],
                "rating": line["rating"],
                **other,
                "changes_verdict": other["verdict"] != outcome["verdict"],
                "changes_awards": any(a["regular"] != actual.get(a["agent"]) for a in other["awards"]),
            }
        )
    return result


def smallest_rescue(outcome: dict[str, Any], tally: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The fewest counting lines whose removal keeps history intact, with the outcome it gives.

    None when there was no check (the mission was not completed as briefed); an empty set when
    history stayed intact. History stays intact when the kept lines total less than the roll, so
    this keeps as many lines as fit under ``roll - 1`` (at most 999): a small subset-sum over the
    kept total, exact, not a search over sets of removed lines."""
    lines = _checked(outcome, tally)
    if not outcome.get("success"):
        return None
    roll = outcome["check"]["roll"]
    if outcome["verdict"] == "history_intact":
        return {"lines": [], "removed_significance": 0, **outcome_without(outcome, outcome["mistakes_total"])}
    keep = _most_lines_under(lines, roll - 1)
    removed = [line for index, line in enumerate(lines) if index not in keep]
    kept_total = sum(lines[index]["rating"] for index in keep)
    return {
        "lines": [line["id"] for line in removed],
        "removed_significance": sum(line["rating"] for line in removed),
        **outcome_without(outcome, kept_total),
    }


def _most_lines_under(lines: list[dict[str, Any]], limit: int) -> set[int]:
    """Indexes of the most lines whose ratings total at most ``limit``; among those, the largest
    total (so the least significance is removed); among those, the earlier lines are kept."""
    # reach[i][k]: bitmask of the totals 0..limit that some k of the first i lines add up to.
    full = (1 << (limit + 1)) - 1
    reach: list[list[int]] = [[1]]
    for line in lines:
        before = reach[-1]
        now = [*before, 0]
        for count in range(1, len(now)):
            now[count] |= (before[count - 1] << line["rating"]) & full
        reach.append(now)
    final = reach[-1]
    count = max(k for k, mask in enumerate(final) if mask)
    total = final[count].bit_length() - 1
    keep: set[int] = set()
    # Back from the last line: a line is removed whenever the lines before it can still make the
    # same count and total without it, so the earlier lines are the ones kept.
    for index in range(len(lines) - 1, -1, -1):
        earlier = reach[index]
        if count < len(earlier) and (earlier[count] >> total) & 1:
            continue
        keep.add(index)
        total -= lines[index]["rating"]
        count -= 1
    return keep
