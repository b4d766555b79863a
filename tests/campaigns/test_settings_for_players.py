"""Players read each campaign setting's value and one plain line of meaning; the notes on where the
rules leave a choice open are the game master's (issue 30, finding 9)."""

from __future__ import annotations

import pytest

from campaigns.models import Membership
from characters.systems import get_system
from tests import system_kit

SYSTEMS = tuple(system_kit.installed_keys())
#: Notes on the sources that only the GM should read
GM_NOTES = {
    "time_to_kill": "The author floats 20 to 30 but commits to nothing",
    "d6": "The chapter does not define the Wild Die",
}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_setting_has_a_plain_one_line_meaning(system):
    for spec in get_system(system).settings:
        assert spec.meaning and "\n" not in spec.meaning and len(spec.meaning) <= 110, spec.name
        assert spec.meaning.endswith("."), spec.name
        assert "_" not in spec.meaning, f"{spec.name}: a code, not words"


@pytest.mark.parametrize("system", sorted(GM_NOTES))
def test_players_see_the_meaning_and_the_gm_the_sourcing_note(system, make_user, client):
    gm, player = make_user("gm-s"), make_user("player-s")
    campaign = system_kit.make_campaign(gm, system, name="Settings")
    Membership.objects.get_or_create(campaign=campaign, user=player, defaults={"role": "player"})
    client.force_login(player)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert GM_NOTES[system] not in page
    for spec in get_system(system).settings:
        assert spec.meaning.replace("'", "&#x27;") in page
    client.force_login(gm)
    assert GM_NOTES[system] in client.get(f"/campaigns/{campaign.pk}/").content.decode()
