import json

from systems.tempo.engine import SYSTEM

from .helpers import SLOTS, agent


def test_the_agent_sheet_shows_aspects_with_anchors_in_slot_order():
    fields = SYSTEM.sheet(agent()).fields
    assert [row["slot"] for row in fields["aspects"]] == list(SLOTS)
    assert fields["aspects"][0] == {
        "slot": "primary",
        "label": "Primary",
        "text": "GOOD ENOUGH IS GOOD ENOUGH",
        "anchor": "his old sergeant",
        "anchor_required": True,
    }


def test_the_sheet_shows_every_role_with_rank_modifier_and_benefits():
    sheet = SYSTEM.sheet(agent())
    assert sheet.system == "tempo"
    assert sheet.template == "sheets/tempo.html"
    assert sheet.title == "Finn Marlowe"
    roles = {row["key"]: row for row in sheet.fields["roles"]}
    assert len(roles) == 8
    assert (roles["observer"]["rank_name"], roles["observer"]["modifier_text"]) == ("World Class", "+8")
    assert (roles["thief"]["rank_name"], roles["thief"]["modifier_text"]) == ("Untrained", "+0")
    assert [b["name"] for b in roles["observer"]["benefits"]] == ["Cold Read", "Elementary"]
    assert roles["scholar"]["benefits"][0]["label"] == "Great Mind — Soviet history"
    assert roles["thief"]["benefits"] == []


def test_the_sheet_carries_fate_points_campaign_aspect_and_the_distribution_check():
    fields = SYSTEM.sheet(agent(fate_points=2)).fields
    assert fields["fate_points"] == 2
    assert fields["campaign_aspects"] == ["TRUST NO ONE"]
    assert fields["distribution_line"] == "1 World Class, 2 Elite, 2 Seasoned, 2 Trained, 1 Untrained"
    assert fields["distribution_ok"] is True
    assert fields["complete"] is True


def test_the_sheet_marks_world_class_variants():
    build = agent()
    build["benefits"]["observer"] = [{"key": "cold_read_x2"}]
    row = next(r for r in SYSTEM.sheet(build).fields["roles"] if r["key"] == "observer")
    assert row["benefits"][0]["variant"] is True
    assert row["benefits"][0]["name"] == "Cold Read ×2"


def test_the_reference_panel_lists_bands_help_and_tempo_spends():
    reference = SYSTEM.sheet(agent()).fields["reference"]
    assert [b["range"] for b in reference["outcome_bands"]] == ["4 or less", "5–9", "10–14", "15–19", "20+"]
    assert [h["gives"] for h in reference["help"]] == ["no help", "lowest die", "middle die", "highest die"]
    assert len(reference["tempo_spends"]) == 6
    assert any("1 aspect from your own sheet" in line for line in reference["aspects"])


def test_the_sheet_is_plain_json():
    fields = SYSTEM.sheet(agent()).fields
    assert json.loads(json.dumps(fields)) == fields


def test_derive_lists_every_computed_value():
    derived = SYSTEM.derive(agent())
    assert derived["role_ratings"]["observer"] == 8
    assert derived["benefit_count"] == 4
    assert {s["benefit"] for s in derived["substitutions"]} == {"Gambler", "Great Mind"}
    assert derived["complete"] is True
