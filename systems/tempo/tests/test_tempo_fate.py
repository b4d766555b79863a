import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError
from systems.tempo.engine import SYSTEM, fate
from systems.tempo.engine.roll import roll

from .helpers import agent

GAIN = {"kind": "fate_point_gained", "reason": "qualified_success_complication"}
SPEND = {"kind": "fate_point_spent", "reason": "make_aspect_apply", "aspect": "DOCKSIDE KID"}


def test_gaining_and_spending_move_the_balance():
    build = SYSTEM.apply(agent(), GAIN)
    assert build["fate_points"] == 1
    assert SYSTEM.apply(build, SPEND)["fate_points"] == 0


def test_apply_never_changes_its_input():
    build = agent(fate_points=2)
    SYSTEM.apply(build, SPEND)
    assert build["fate_points"] == 2


def test_spending_at_zero_is_refused():
    with pytest.raises(RuleError) as error:
        SYSTEM.apply(agent(fate_points=0), SPEND)
    assert error.value.violations[0].field == "fate_points"
    assert "has 0" in error.value.violations[0].message


def test_spending_more_points_than_banked_is_refused():
    with pytest.raises(RuleError):
        SYSTEM.apply(agent(fate_points=1), {**SPEND, "count": 2})


@pytest.mark.parametrize("reason", list(fate.FATE_GAIN_REASONS))
def test_every_gain_reason_is_accepted(reason):
    entry = {"kind": "fate_point_gained", "reason": reason, "aspect": "origin"}
    assert SYSTEM.apply(agent(), entry)["fate_points"] == 1


def test_a_penalty_die_pays_only_for_the_agents_own_aspect():
    entry = {"kind": "fate_point_gained", "reason": "penalty_die_from_own_aspect", "aspect": "NINJA"}
    with pytest.raises(RuleError):
        SYSTEM.apply(agent(), entry)
    ok = {**entry, "aspect": "GOOD ENOUGH IS GOOD ENOUGH"}
    assert SYSTEM.apply(agent(), ok)["fate_points"] == 1


def test_an_unknown_reason_is_refused():
    with pytest.raises(RuleError):
        SYSTEM.apply(agent(), {"kind": "fate_point_gained", "reason": "because"})


def test_a_gadgeteer_pays_nothing_for_kit_at_hand():
    entry = {"kind": "fate_point_spent", "reason": "tools_at_hand"}
    assert SYSTEM.apply(agent(fate_points=1), entry)["fate_points"] == 0
    benefits = {"diplomat": ["gambler"], "observer": ["cold_read", "elementary"], "technician": ["gadgeteer"]}
    roles = {**agent()["roles"], "technician": "elite", "scholar": "trained"}
    gadgeteer = agent(fate_points=1, roles=roles, benefits=benefits)
    with pytest.raises(RuleError) as error:
        SYSTEM.apply(gadgeteer, entry)
    assert "Gadgeteer" in error.value.violations[0].message


def test_the_rolls_aspect_uses_become_fate_entries():
    result = roll(
        random.Random(1),
        {
            "aspects": [
                {"aspect": "SHARP EYES", "source": "own", "use": "invoke"},
                {"aspect": "TRUST NO ONE", "source": "campaign", "use": "invoke"},
                {"aspect": "DOCKSIDE KID", "source": "own", "use": "trouble"},
            ]
        },
        module="flashpoints",
    )
    entries = fate.entries_for_roll(result)
    assert [e["kind"] for e in entries] == ["fate_point_spent", "fate_point_spent", "fate_point_gained"]
    build = agent(fate_points=2)
    for entry in entries:
        build = SYSTEM.apply(build, entry)
    assert build["fate_points"] == 1


def test_starting_points_and_refresh_default_to_zero():
    assert fate.starting_fate_points() == 0
    assert fate.refresh_entry(agent()) == {"kind": "fate_refresh", "amount": 0}


def test_a_refresh_tops_up_or_adds_as_the_campaign_says():
    build = agent(fate_points=1)
    assert fate.refresh_entry(build, {"fate_refresh": 3}) == {"kind": "fate_refresh", "amount": 2}
    assert fate.refresh_entry(build, {"fate_refresh": 3, "fate_refresh_mode": "add"})["amount"] == 3
    assert fate.refresh_entry(agent(fate_points=5), {"fate_refresh": 3})["amount"] == 0
    assert SYSTEM.apply(build, fate.refresh_entry(build, {"fate_refresh": 3}))["fate_points"] == 3


def test_a_veto_card_is_logged_on_the_agent():
    build = SYSTEM.apply(agent(), {"kind": "veto_card", "note": "the guard was not asleep"})
    assert build["veto_cards"] == [{"note": "the guard was not asleep"}]
    assert SYSTEM.sheet(build).fields["veto_cards"] == ["the guard was not asleep"]


def test_an_unknown_entry_kind_is_refused():
    with pytest.raises(RuleError):
        SYSTEM.apply(agent(), {"kind": "level_up"})


def test_reversing_a_gain_that_paid_for_a_later_spend_is_refused():
    entries = [{"id": 1, **GAIN}, {"id": 2, **SPEND}]
    assert SYSTEM.replay(agent(), entries)["fate_points"] == 0
    with pytest.raises(RuleError) as error:
        SYSTEM.replay(agent(), [*entries, {"id": 3, "kind": "reversal", "reverses": 1, "reason": "typo"}])
    assert error.value.violations[0].field == "ledger.2"


ENTRY = st.sampled_from(
    [
        GAIN,
        SPEND,
        {"kind": "fate_point_spent", "reason": "bonus_die_from_aspect", "aspect": "SHARP EYES", "count": 2},
        {"kind": "fate_point_gained", "reason": "accepted_offer", "count": 3},
        {"kind": "fate_refresh", "amount": 1},
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(ENTRY, max_size=12), st.data())
def test_the_balance_never_goes_below_zero_and_reversals_restore_it(entries, data):
    start = agent()
    build, ledger = start, []
    for i, entry in enumerate(entries):
        try:
            build = SYSTEM.apply(build, entry)
        except RuleError:
            assert build["fate_points"] < entry.get("count", 1)
            continue
        ledger.append({"id": i, **entry})
        assert build["fate_points"] >= 0
        assert SYSTEM.validate(build) == []
    assert SYSTEM.replay(start, ledger) == build
    if ledger:
        last = ledger[-1]
        undone = SYSTEM.replay(
            start, [*ledger, {"id": "r", "kind": "reversal", "reverses": last["id"], "reason": "x"}]
        )
        assert undone == SYSTEM.replay(start, ledger[:-1])
