"""Every builder's Player field starts with the owner's name (and Time to Kill's Campaign field with
the campaign's), so a finished sheet never prints "Player —" because nobody typed it (issue 30,
finding 2)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters import services
from characters.models import Character
from characters.views import WIZARDS
from tests import system_kit

#: system -> the builder step whose form holds the Player field (the step its builder links the
#: engine's "player" field to), for every installed system with a builder
PLAYER_STEP = {key: WIZARDS[key].step_of("player") for key in system_kit.installed_keys() if key in WIZARDS}


@pytest.fixture
def draft_in(make_user):
    def make(system, **user_fields):
        owner = make_user(f"owner-{system}")
        for key, value in user_fields.items():
            setattr(owner, key, value)
        owner.save()
        campaign = system_kit.make_campaign(owner, system, name=f"A {system} campaign")
        return services.create_draft(campaign, owner, choices={"name": "Nobody yet"})

    return make


def _value(page: str, name: str) -> str | None:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert tag is not None, f"no {name} field"
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else None


@pytest.mark.parametrize("system", sorted(PLAYER_STEP))
def test_the_player_field_starts_with_the_owners_username(draft_in, client, system):
    draft = draft_in(system)
    client.force_login(draft.owner)
    page = client.get(reverse("character-wizard-step", args=[draft.pk, PLAYER_STEP[system]])).content.decode()
    assert _value(page, "player") == f"owner-{system}"


def test_a_full_name_is_preferred_to_the_username(draft_in, client):
    draft = draft_in("d6", first_name="Alice", last_name="Marsh")
    client.force_login(draft.owner)
    page = client.get(reverse("character-wizard-step", args=[draft.pk, "identity"])).content.decode()
    assert _value(page, "player") == "Alice Marsh"


def test_a_typed_player_name_is_kept(draft_in, client):
    draft = draft_in("d6")
    services.update_draft(draft, {"player": "Sam"})
    client.force_login(draft.owner)
    page = client.get(reverse("character-wizard-step", args=[draft.pk, "identity"])).content.decode()
    assert _value(page, "player") == "Sam"


def test_a_ninja_built_in_the_pages_prints_its_player_and_campaign(draft_in, client):
    draft = draft_in("time_to_kill")
    client.force_login(draft.owner)
    url = reverse("character-wizard-step", args=[draft.pk, "abilities"])
    page = client.get(url).content.decode()
    assert _value(page, "campaign") == "A time_to_kill campaign"
    abilities = re.findall(r'<select[^>]*name="([a-z_]+)"', page)
    form = {
        **dict.fromkeys(abilities, "0"),
        "name": "Tsuru",
        "player": _value(page, "player"),
        "campaign": _value(page, "campaign"),
    }
    assert client.post(url, form).status_code == 302
    assert client.post(reverse("character-wizard-step", args=[draft.pk, "review"])).status_code == 302
    ninja = Character.objects.get(pk=draft.pk)
    header = services.system_of(ninja).sheet(ninja.build).fields["header"]
    assert (header["player"], header["campaign"]) == ("owner-time_to_kill", "A time_to_kill campaign")
