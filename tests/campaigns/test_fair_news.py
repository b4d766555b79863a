"""Fair dice say one thing (issue 44, finding 5): the seed table and each roll's verdict use the
same words for what a roll waits for (its seed to be revealed; for a secret roll, also the seed's
secret key, or its scene's), every checker says it alike (the server, the stand-alone script), and
a member's pages list what they can check now, by seed and since when, so their browser can mark
what is new since their last visit, counted from the rolls they see only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.table import fairness, rolling
from characters.systems import fair_dice

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"
WAITS_FOR_SEED = (
    "waits for seed 1 to be revealed: the game master reveals it at the end of a session or mission"
)
WAITS_FOR_KEY = (
    "waits for seed 1's secret key: it comes out once every secret roll under the seed is shared "
    "and every closed mission published"
)


def _reasons(world, name="player"):
    m = world.membership[name]
    return [
        (v["verdict"], v["reason"])
        for v in fairness.verify_document(fairness.proof_document(world.campaign, m.user, m))
    ]


def test_each_roll_says_exactly_what_it_waits_for(world):
    """The old words were "pending (its seed is not revealed yet)" for a secret roll whose seed
    the table already showed as "seed revealed": it waited on the secret key."""
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d10", count=2)
    shared = rolling.record_roll(gm, kind="percent", secret=True)
    rolling.reveal_roll(gm, shared)
    rolling.record_roll(gm, kind="d6", secret=True)  # still the GM's: keeps seed 1's key in
    assert _reasons(world) == [
        ("pending", WAITS_FOR_SEED),
        (
            "pending",
            "waits for seed 1 to be revealed (the game master reveals it at the end of a session or "
            "mission), then for seed 1's secret key: it comes out once every secret roll under the "
            "seed is shared and every closed mission published",
        ),
        ("sealed", fair_dice.WHY_SEALED),
    ]
    fairness.rotate(gm)
    assert _reasons(world) == [("verified", ""), ("pending", WAITS_FOR_KEY), ("sealed", fair_dice.WHY_SEALED)]
    assert "not revealed yet" not in json.dumps(_reasons(world))


def test_the_script_gives_the_same_words(world, tmp_path):
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d10", count=2)
    shared = rolling.record_roll(gm, kind="percent", secret=True)
    rolling.reveal_roll(gm, shared)
    rolling.record_roll(gm, kind="d6", secret=True)
    fairness.rotate(gm)
    m = world.membership["player"]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(fairness.proof_document(world.campaign, m.user, m)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert f"pending ({WAITS_FOR_KEY})" in done.stdout


def test_a_scenes_secret_roll_waits_for_the_scenes_own_key():
    seed = {"server_seed": "ab" * 32}
    assert fair_dice.waits_for(3, "secret:x1", seed, {"secret_key": None}) == (
        "waits for its scene's secret key: it comes out once the scene is over and its secret rolls "
        "are shared"
    )
    assert fair_dice.waits_for(3, "secret:x1", seed, {"secret_key": "cd" * 32}) is None
    assert fair_dice.waits_for(3, "open:x1", {}, {}).startswith("waits for seed 3 to be revealed")


def test_the_seed_table_says_where_each_seed_stands_in_the_same_words(world, client):
    gm = world.membership["gm"]
    rolling.record_roll(world.membership["player"], kind="d6")
    rolling.record_roll(gm, kind="d6", secret=True)
    fairness.rotate(gm)  # seed 1 revealed, its key in (a secret roll is still the GM's); seed 2 in use
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/fair/").content.decode()
    table = page.split('class="seeds"')[1].split("</table>")[0]
    assert "Revealed: its open rolls can be checked. Its secret rolls wait for its secret key: " in table
    assert fair_dice.WHEN_KEY_OUT in table
    assert "In use: its rolls can be checked once it is revealed" in table
    assert "seed revealed" not in table and "secret key released" not in table


def _news(world, name):
    m = world.membership[name]
    return fairness.checkable_news(world.campaign, m.user, m)


def test_what_a_player_can_check_is_counted_from_the_rolls_they_see(world):
    gm, player = world.membership["gm"], world.membership["player"]
    assert _news(world, "player") == []
    rolling.record_roll(player, kind="d10")
    rolling.record_roll(player, kind="d6")
    assert _news(world, "player") == []  # nothing revealed yet
    secret = rolling.record_roll(gm, kind="d6", secret=True)
    seed = fairness.rotate(gm)
    assert _news(world, "player") == [{"seed": 1, "rolls": 2, "since": seed.rotated_at.isoformat()}]
    assert _news(world, "gm") == _news(world, "player")  # the GM's secret roll waits for the key
    rolling.reveal_roll(gm, secret)
    seed.refresh_from_db()
    assert seed.secret_released_at is not None
    assert _news(world, "player") == [
        {"seed": 1, "rolls": 1, "since": seed.secret_released_at.isoformat()},
        {"seed": 1, "rolls": 2, "since": seed.rotated_at.isoformat()},
    ]


def test_a_roll_the_player_cannot_see_counts_nowhere_for_them(world, client):
    """An unannounced secret roll under the same seed is not in the player's count, nor on their
    page's marker data; the GM's count has it once its key is out."""
    gm, player = world.membership["gm"], world.membership["player"]
    rolling.record_roll(player, kind="d10")
    hidden = rolling.record_roll(gm, kind="d1000", secret=True, announced=False)
    seed = fairness.rotate(gm)
    assert _news(world, "player") == [{"seed": 1, "rolls": 1, "since": seed.rotated_at.isoformat()}]
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    marker = page.split('id="fair-news"', 1)[1].split("</script>", 1)[0]
    assert json.loads(marker.split(">", 1)[1]) == _news(world, "player")
    assert (
        f'data-fair-news-key="dossier:fair-seen:{world.campaign.pk}:{world.users["player"].username}"' in page
    )
    rolling.reveal_roll(gm, hidden)
    assert sum(n["rolls"] for n in _news(world, "gm")) == 2
    assert sum(n["rolls"] for n in _news(world, "player")) == 2  # shared now: the player sees it
