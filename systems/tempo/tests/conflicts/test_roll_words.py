"""The dice log names the number a Tempo roll adds (issue 44, finding 12): a roll of a role rated
+8 read "rolled 3d6 with bonus dice +8", which a player took for eight bonus dice. The line now says
what was thrown and names the rating ("3d6 with 2 bonus dice, rating +8"), on the dice page, in the
log fragment and in the live feed's line, whether the roll is stored as Tempo's own kind or as the
fair dice's draw; every other roll keeps the platform's words."""

from __future__ import annotations

import random

import pytest

from campaigns.models import Roll
from campaigns.table import live, rolling
from systems.tempo import services
from systems.tempo.engine import roll as engine_roll

WORDS = {
    # (bonus, penalty, rating, modifier): the words between "rolled" and the faces
    (2, 0, 8, 0): "3d6 with 2 bonus dice, rating +8",
    (0, 1, 4, 0): "3d6 with 1 penalty die, rating +4",
    (0, 0, 0, 0): "3d6, rating +0",
    (1, 0, 6, -1): "3d6 with 1 bonus die, rating +6, modifier -1",
}


def tempo_roll(membership, *, bonus, penalty, rating, modifier, fair):
    request = {"rating": rating, "bonus_dice": bonus, "penalty_dice": penalty, "role": "Observer"}
    request.update(bonuses=[modifier] if modifier > 0 else [], penalties=[-modifier] if modifier < 0 else [])
    result = engine_roll.roll(random.Random(3), request, module="flashpoints")
    record = services._record_fair if fair else services._record
    return record(membership, result, character=None, purpose="Spot the tail")


@pytest.mark.parametrize("fair", [False, True], ids=["tempo-kind", "fair-draw"])
@pytest.mark.parametrize("shape", sorted(WORDS))
def test_a_tempo_roll_names_its_rating(world, tempo, client, shape, fair):
    bonus, penalty, rating, modifier = shape
    gm = world.tempo_membership["gm"]
    roll = tempo_roll(gm, bonus=bonus, penalty=penalty, rating=rating, modifier=modifier, fair=fair)
    assert roll.kind == ("tempo" if not fair else ("3d6_penalty" if penalty else "3d6_bonus"))
    line = f"rolled {WORDS[shape]}:"
    client.force_login(world.users["gm"])
    for part in ("", "log/"):
        page = client.get(f"/campaigns/{world.tempo.pk}/dice/{part}").content.decode()
        assert line in page, part
        assert f"bonus dice {rating:+d}" not in page
    assert line in live._line(roll, gm)


def test_other_rolls_keep_the_platforms_words(world, tempo, client):
    gm = world.tempo_membership["gm"]
    rolling.record_roll(gm, kind="d6", count=2, modifier=1, purpose="plain")
    rolling.record_roll(gm, kind="3d6_bonus", count=2, purpose="by the roller")
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.tempo.pk}/dice/").content.decode()
    assert "rolled d6 ×2 +1:" in page
    assert "rolled 3d6 with bonus dice ×2:" in page  # the roller's own kind: no rating to name
    assert Roll.objects.filter(campaign=world.tempo).count() == 2


def test_a_tempo_spend_reads_as_words_and_names_its_aspect():
    """A new-user walk read "The team spends edge for add scene aspect." on the conflict page."""
    from systems.tempo.services import summary_of

    state = {"sides": {"a": {"name": "The team"}, "b": {"name": "Stasi watchers"}}}
    added = {
        "type": "spend",
        "side": "a",
        "tier": "edge",
        "benefit": "add_scene_aspect",
        "aspect": "Forged pass",
    }
    assert summary_of(state, added) == "The team spends Edge to put a new aspect on the scene: “Forged pass”."
    offset = {"type": "spend", "side": "b", "tier": "advantage", "benefit": "offset_superiority", "offset": 2}
    assert summary_of(state, offset) == (
        "Stasi watchers spends Advantage to change the situation"
        " to cancel 2 points of the opponent's superiority."
    )
