"""Characters with engine-made builds for the sheet tests, and a private MEDIA_ROOT."""

from __future__ import annotations

import io
import random

import pytest


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def timemaster_build(**changes):
    from systems.timemaster.tests.helpers import make_build

    return make_build(**changes)


def time_to_kill_build(name="Kage"):
    from characters.systems import get_system

    return get_system("time_to_kill").new_build({"name": name, "abilities": {}}, random.Random(0))


def tempo_build(name="Finn Marlowe"):
    from systems.tempo.tests.helpers import agent

    return agent(fate_points=2, name=name)


def d6_build(name="Ana"):
    from systems.d6.tests.helpers import build

    return build(name)


BUILDERS = {
    "timemaster": timemaster_build,
    "time_to_kill": time_to_kill_build,
    "tempo": tempo_build,
    "d6": d6_build,
}


@pytest.fixture
def make_character():
    from characters.models import Character

    def make(campaign, owner, name="Harry Adams", system=None, revision=1, **build_changes):
        system = system or campaign.system
        build = BUILDERS[system](name=name, **build_changes)
        return Character.objects.create(
            campaign=campaign,
            owner=owner,
            system=system,
            module="flashpoints" if system == "tempo" else "",
            name=name,
            status="active",
            build=build,
            creation_build=build,
            revision=revision,
        )

    return make


@pytest.fixture
def party(world, make_character):
    """The player's and the other player's agents in the TIMEMASTER campaign."""
    return {
        "player": make_character(world.campaign, world.users["player"], name="Harry Adams"),
        "other_player": make_character(
            world.campaign, world.users["other_player"], name="Mae Lin", revision=4
        ),
    }


@pytest.fixture
def ttk_world(world, make_character):
    """A Time to Kill campaign with the same personas (GM, player, other player, observer)."""
    from campaigns import services
    from campaigns.models import Membership, Role

    campaign = services.create_campaign(world.users["gm"], name="Night Work", system="time_to_kill")
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=world.users[name], role=role)
    make_character(campaign, world.users["player"], name="Kage")
    return campaign


def pdf_text(data: bytes) -> tuple[int, str]:
    """(page count, all text) of a PDF, read back with pypdf."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def pdf_metadata(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data)).metadata
