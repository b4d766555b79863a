"""Time to Kill's demo campaign (``manage.py seed_demo``): two ninja, finished runs for the report,
and Kage's run under way.

The finished runs are played through the services like any run, each side choosing its moves, but
on scripted results (post_event's ``rng``), never the fair dice: a run that fails ends its ninja
(time-to-kill.md §B12), and a demo that rolled live could hand a player a dead ninja. Each script
brings the target stone out of the bag before the bag runs dry and gives every action die a 5, so
every run ends the same way on every seed: a victory, or a run the GM abandons (no ledger entry).
"""

from __future__ import annotations

import random
from typing import Any

from systems.time_to_kill import services as ttk
from systems.time_to_kill.engine import available_actions
from systems.time_to_kill.models import MissionRun

CAMPAIGN = ("Demo: Shadows over Edo", "", "A clan of ninja takes contracts in a city of secrets.")
CHARACTERS = ("Kage", "Yuki")  # alice's, bob's


def choices(name: str, player: str) -> dict:
    return {
        "name": name,
        "player": player,
        "campaign": CAMPAIGN[0],
        "abilities": {"stealth": "+", "awareness": "+", "athletics": "+"},
    }


class Scripted(random.Random):
    """The results of one demo run. Stone draws follow ``stones`` ("o" an ordinary stone, "t" the
    target), then ordinary; the Fate dice are always -1, 0, +1, 0 (placed in that order); each d6
    is a 5 (a "+" ability fails on a 1 only: every action succeeds). Anything else asked of it
    comes from a fixed seed."""

    FATES = (-1, 0, 1, 0)

    def __init__(self, stones: str):
        super().__init__(46)
        self.stones = list(stones)
        self.fates = 0

    def randrange(self, start, stop=None, step=1):  # type: ignore[override]
        if stop is None:  # a draw from a bag of ``start`` stones: the target is the last index
            return start - 1 if self.stones and self.stones.pop(0) == "t" else 0
        return super().randrange(start, stop, step)

    def choice(self, seq):  # type: ignore[override]
        if tuple(seq) == (-1, 0, 1):
            self.fates += 1
            return self.FATES[(self.fates - 1) % len(self.FATES)]
        return super().choice(seq)

    def randint(self, a: int, b: int) -> int:
        return 5 if (a, b) == (1, 6) else super().randint(a, b)


#: The finished runs: title, whose ninja (0 alice's Kage, 1 bob's Yuki), the stones in the bag,
#: the stones drawn in order, and whether it ends in victory (else the GM abandons it once its
#: script is drawn). The moves below draw two stones in preparation, then one at each turn's end
#: and one on each wait (even turns); the target drawn on a wait is acted on at once, drawn at a
#: turn's end it is in sight the next turn.
FINISHED: tuple[tuple[str, int, int, str, bool], ...] = (
    ("The Silk Warehouse", 1, 10, "oot", True),  # out at the end of turn 1: taken in turn 2
    ("The Bridge at Nihonbashi", 1, 10, "oooooot", True),  # out on turn 4's wait
    ("The Tea House", 0, 8, "ooot", True),  # out on turn 2's wait
    ("The Shogun's Map", 1, 12, "oooooo", False),  # the GM calls it off after turn 3
)
#: What each side chooses when it may, in order (a careful ninja: two preparation stones, one
#: reveal, scouts with Awareness on odd turns and waits until the target is in sight, then acts on
#: it with Stealth).
PLAYER_PREFERS = (
    "reroll",
    "act_objective",
    "scout",
    "wait",
    "prepare_draw",
    "end_preparation",
    "reveal_fate",
)
PLAYER_THEN = ("finish_reveals", "finish_shifts", "keep_roll", "act", "rush_downshift")
GM_PREFERS = ("roll_fates", "assign_fates", "narrate", "choose_fates", "end_turn", "declare_escape")
#: At most this many moves in one run (the scripts end theirs in far fewer).
MOVES = 200


def _order(state: dict[str, Any], side: str) -> tuple[str, ...]:
    if side == "gm":
        return GM_PREFERS
    prepared = sum(1 for d in state["draws"] if d["when"] == "preparation")
    revealed = any(f["revealed"] for f in ((state.get("current") or {}).get("fates") or {}).values())
    scouting = state["turn"] % 2 == 1
    return (
        tuple(
            kind
            for kind in PLAYER_PREFERS
            if not (kind == "prepare_draw" and prepared >= 2)
            and not (kind == "reveal_fate" and revealed)
            and not (kind == "scout" and not scouting)
        )
        + PLAYER_THEN
    )


def _parameter(name: str, option: dict[str, Any], kind: str) -> Any:
    """The value of one parameter of an event (the first choice, the ability that fits)."""
    if "choices" in option:
        values = option["choices"]
        if name == "ability":
            best = "awareness" if kind == "scout" else "stealth"
            return best if best in values else values[0]
        if name == "objective":
            return kind == "act_objective"
        return values[0]
    if "permutation_of" in option:
        return dict(zip(option["keys"], option["permutation_of"], strict=True))
    if "subset_of" in option:
        return option["subset_of"][:1]
    if option.get("text") and not option.get("optional"):
        return "Lanterns along the canal."
    return None


def _pick(actions: list[dict[str, Any]], state: dict[str, Any], side: str) -> dict[str, Any] | None:
    """One event from the open actions, with its parameters chosen."""
    by_type = {a["type"]: a for a in actions}
    for kind in _order(state, side):
        wanted = "act" if kind in ("act_objective", "scout") else kind
        action = by_type.get(wanted)
        if action is None:
            continue
        options = action["options"]
        if kind == "act_objective" and True not in options.get("objective", {}).get("choices", []):
            continue
        event: dict[str, Any] = {"type": wanted}
        for name, option in options.items():
            value = _parameter(name, option, kind)
            if value is not None:
                event[name] = value
        return event
    return None


def _finish(run: MissionRun, users, gm, player, rng: Scripted, victory: bool) -> None:
    """Play a run through the services, each side choosing as above, on the run's script. A run
    meant to be abandoned is, once its script is drawn (before the target comes out)."""
    for _ in range(MOVES):
        run.refresh_from_db()
        if run.status == MissionRun.Status.OVER or (not victory and not rng.stones):
            break
        state = run.state
        for side, who, user in (("gm", "gm", users["gm"]), ("player", run.ninja_id_in_engine, player)):
            actions = available_actions(state, who)
            if actions:
                event = _pick(actions, state, side)
                if event is None:
                    break
                ttk.post_event(run, user, side, event, rng=rng)
                break
        else:
            break
    run.refresh_from_db()
    if run.status != MissionRun.Status.OVER:
        ttk.abandon_run(run, gm)


def play(campaign, gm, users, heroes, rng) -> None:
    """The finished runs (scripted: the same every time), then Kage's run under way: preparation
    done, this turn's Fates rolled (on the fair dice, as a GM's would be)."""
    if MissionRun.objects.filter(campaign=campaign).exists():
        return
    players = (users["alice"], users["bob"])
    for title, whose, stones, draws, victory in FINISHED:
        run = ttk.start_run(
            gm,
            ninja=heroes[whose].pk,
            title=title,
            mission_stones=stones,
            briefing={"brief": "A contract from the clan.", "victory_conditions": "Take the target unseen."},
        )
        _finish(run, users, gm, players[whose], Scripted(draws), victory)
    run = ttk.start_run(
        gm,
        ninja=heroes[0].pk,
        title="The Merchant's Ledger",
        briefing={"brief": "Steal the ledger from the merchant's strongroom before dawn."},
    )
    ttk.post_event(run, users["alice"], "player", {"type": "end_preparation"})
    ttk.post_event(run, users["gm"], "gm", {"type": "roll_fates"})
