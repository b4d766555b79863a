from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaigns import services
from campaigns.models import Membership, Role
from campaigns.table import rolling


def test_the_creator_becomes_the_gm(world):
    assert world.membership["gm"].role == Role.GM


def test_the_last_gm_cannot_step_down_or_leave(world):
    gm = world.membership["gm"]
    with pytest.raises(ValidationError):
        services.change_role(world.campaign, gm.pk, Role.PLAYER)
    with pytest.raises(ValidationError):
        services.remove_member(world.campaign, gm.pk)
    assert Membership.objects.get(pk=gm.pk).role == Role.GM


def test_a_gm_may_step_down_once_there_is_another(world):
    services.change_role(world.campaign, world.membership["player"].pk, Role.GM)
    services.change_role(world.campaign, world.membership["gm"].pk, Role.PLAYER)
    assert Membership.objects.filter(campaign=world.campaign, role=Role.GM).count() == 1


def test_an_invitation_joins_as_player_once(world):
    invitation = services.create_invitation(world.campaign, world.users["gm"], max_uses=1)
    member = services.accept_invitation(world.users["outsider"], invitation.code)
    assert member.role == Role.PLAYER
    again = services.accept_invitation(world.users["outsider"], invitation.code)
    assert again.pk == member.pk


def test_an_expired_invitation_is_refused(world):
    invitation = services.create_invitation(world.campaign, world.users["gm"])
    invitation.expires_at = timezone.now() - timedelta(seconds=1)
    invitation.save()
    with pytest.raises(ValidationError, match="expired"):
        services.accept_invitation(world.users["outsider"], invitation.code)


def test_an_invitation_used_up_is_refused(world, make_user):
    invitation = services.create_invitation(world.campaign, world.users["gm"], max_uses=1)
    services.accept_invitation(world.users["outsider"], invitation.code)
    with pytest.raises(ValidationError, match="used"):
        services.accept_invitation(make_user("late"), invitation.code)


def test_the_roll_log_is_append_only(world, rng):
    roll = rolling.record_roll(world.membership["player"], kind="d6", rng=rng)
    roll.total = 99
    with pytest.raises(ValueError):
        roll.save()
    with pytest.raises(ValueError):
        roll.delete()


def test_only_a_gm_rolls_in_secret(world, rng):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        rolling.record_roll(world.membership["player"], kind="d6", secret=True, rng=rng)


def test_campaign_settings_start_at_the_systems_defaults(world):
    from characters.systems import get_system

    for campaign in (world.campaign, world.elsewhere):
        assert campaign.settings == get_system(campaign.system).default_settings()
