"""manage.py export_campaign and import_campaign."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from campaigns.models import Campaign
from tests.archive.test_round_trip import campaign_rows


def test_export_then_import_from_the_command_line_gives_an_equal_campaign(world, full_campaign, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(full_campaign.pk), "-o", str(path), stderr=StringIO())
    out = StringIO()
    call_command("import_campaign", str(path), "--gm", "gm", stdout=out)
    copy = Campaign.objects.order_by("-id").first()
    assert f"as campaign {copy.pk}" in out.getvalue()
    assert campaign_rows(copy) == campaign_rows(full_campaign)


def test_export_writes_to_standard_output(world, full_campaign):
    out = StringIO()
    call_command("export_campaign", str(full_campaign.pk), stdout=out)
    assert json.loads(out.getvalue())["campaign"]["name"] == "Time Corps"


def test_without_gm_the_archives_first_gm_runs_the_copy(world, full_campaign, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(full_campaign.pk), "-o", str(path), stderr=StringIO())
    call_command("import_campaign", str(path), stdout=StringIO())
    copy = Campaign.objects.order_by("-id").first()
    assert copy.memberships.get(role="gm").user == world.users["gm"]


def test_a_refused_file_lists_its_problems_and_creates_nothing(world, full_campaign, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(full_campaign.pk), "-o", str(path), stderr=StringIO())
    document = json.loads(path.read_text())
    document["format_version"] = 7
    path.write_text(json.dumps(document))
    before = Campaign.objects.count()
    with pytest.raises(CommandError, match=r"format_version: Version 7 is newer"):
        call_command("import_campaign", str(path), "--gm", "gm")
    assert Campaign.objects.count() == before


def test_a_20_mb_file_is_refused_by_its_size(world, tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (20 * 1000 * 1000))
    with pytest.raises(CommandError, match="limited to 8 MB"):
        call_command("import_campaign", str(path), "--gm", "gm")


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.json", "--gm", "gm"], "Cannot read"),
        (["{path}", "--gm", "nobody"], "no account called 'nobody'"),
    ],
)
def test_command_line_mistakes_are_clear(world, full_campaign, tmp_path, args, message):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(full_campaign.pk), "-o", str(path), stderr=StringIO())
    with pytest.raises(CommandError, match=message):
        call_command("import_campaign", *[a.format(path=path) for a in args])


def test_export_of_a_missing_campaign_is_clear(db):
    with pytest.raises(CommandError, match="no campaign with id 999"):
        call_command("export_campaign", "999")


def test_the_administrators_import_restores_every_member(world, full_campaign, tmp_path):
    """manage.py is trusted: an account that plays with nobody of the archive may still run the copy."""
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(full_campaign.pk), "-o", str(path), stderr=StringIO())
    call_command("import_campaign", str(path), "--gm", "outsider", stdout=StringIO())
    copy = Campaign.objects.order_by("-id").first()
    assert copy.memberships.get(user=world.users["outsider"]).role == "gm"
    assert copy.memberships.count() == 5
