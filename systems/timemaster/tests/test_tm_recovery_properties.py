"""Properties of an agent's condition over time (recovery.py, timemaster-play.md §16-§17,
timemaster-characters.md §10 rules 14-15): whatever legal entries are folded, current Stamina and
Willpower stay between 0 and the Ability, marks between 0 and the boxes; and reversing every
entry of the ledger gives back the unhurt agent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.timemaster.engine import SYSTEM, advancement
from systems.timemaster.engine.condition import check_condition, condition_of
from systems.timemaster.engine.formulas import wound_count

from .helpers import make_build

AGENT = make_build()
ENTRY = st.one_of(
    st.builds(
        lambda s, w, p: {"kind": "damage_taken", "stamina": s, "wounds": w, "willpower": p},
        st.integers(0, 80),
        st.integers(0, 16),
        st.integers(0, 60),
    ),
    st.builds(lambda r: {"kind": "stamina_rested", "rounds": r}, st.integers(1, 40)),
    st.builds(
        lambda d, m: {"kind": "wounds_healed", "days": d, "medical_days": min(m, d)},
        st.integers(1, 9),
        st.integers(0, 9),
    ),
    st.builds(lambda h: {"kind": "willpower_slept", "hours": h}, st.integers(1, 12)),
    st.builds(lambda r: {"kind": "death_check", "roll": r}, st.integers(1, 100)),
    st.builds(lambda p: {"kind": "luck_spent", "points": p}, st.integers(1, 2)),
    st.just({"kind": "came_to"}),
    st.builds(
        lambda x: {"kind": "talent_used", "talent": "telepathic_probe", "extra_willpower": x},
        st.integers(0, 20),
    ),
    st.just({"kind": "critical_treated", "how": "medical"}),
)


def _fold(entries):
    """Apply each entry the engine accepts, skipping the refused ones; the ledger of accepted ones."""
    build, ledger = AGENT, []
    for number, entry in enumerate(entries, start=1):
        try:
            build = SYSTEM.apply(build, entry)
        except RuleError:
            continue
        ledger.append({**entry, "id": number})
    return build, ledger


@given(st.lists(ENTRY, max_size=25))
def test_the_condition_stays_in_bounds_whatever_legal_entries_are_folded(entries):
    build, _ = _fold(entries)
    c = condition_of(build)
    abilities = build["abilities"]
    assert 0 <= c["current_stamina"] <= abilities["STA"]
    assert 0 <= c["current_willpower"] <= abilities["WPR"]
    assert 0 <= c["wounds_marked"] <= wound_count(abilities["STA"])
    assert check_condition(build) == []
    assert not (c["dead"] and c["coma"])


@given(st.lists(ENTRY, max_size=15))
def test_reversing_the_whole_ledger_newest_first_gives_back_the_unhurt_agent(entries):
    build, ledger = _fold(entries)
    assert advancement.replay(AGENT, ledger) == build
    reversals = [
        {"kind": "reversal", "id": 1000 + n, "reverses": entry["id"], "reason": "undo"}
        for n, entry in enumerate(reversed(ledger))
    ]
    assert condition_of(advancement.replay(AGENT, ledger + reversals)) == condition_of(AGENT)
