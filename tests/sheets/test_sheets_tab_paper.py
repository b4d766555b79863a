"""The Sheets tab: the print pickers start on the paper the group prints on (a campaign setting the GM
changes), and the recent prints say which paper each print is, in a table that reads on a phone
(issue 30, finding 5)."""

from __future__ import annotations

import re

from campaigns.models import Campaign
from sheets.models import SheetRender


def _selected(page: str) -> set[str]:
    return set(re.findall(r'<option value="(\w+)" selected>', page))


def test_the_gm_sets_the_paper_and_the_pickers_start_on_it(world, party, client):
    client.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/settings/"
    form = client.get(url).content.decode()
    assert 'name="print_paper"' in form
    response = client.post(
        url,
        {
            "print_paper": "a4",
            "group_time_zone": "UTC",
            "hopeless_reroll_rounds": "1",
            "corps_present_year": "7192",
            "helpless_defender_result": "C",
            "shields_against_missiles": "on",
            "critical_check_willpower": "current",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Campaign.objects.get(pk=world.campaign.pk).paper == "a4"
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/sheets/").content.decode()
    assert _selected(page) == {"a4"}
    # a print asked for without a paper is on the campaign's
    client.post(
        f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "character", "character": party["player"].pk}
    )
    assert SheetRender.objects.get(character=party["player"]).snapshot["paper"] == "a4"


def test_a_player_cannot_change_the_paper(world, client):
    client.force_login(world.users["player"])
    response = client.post(f"/campaigns/{world.campaign.pk}/settings/", {"print_paper": "a4"})
    assert response.status_code == 403
    assert Campaign.objects.get(pk=world.campaign.pk).paper == "letter"


def test_recent_prints_name_their_paper_in_a_labelled_table(world, party, client):
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    for paper in ("letter", "a4"):
        client.post(url, {"kind": "character", "character": party["player"].pk, "paper": paper})
    page = client.get(url).content.decode()
    table = page[page.index('data-testid="recent-prints"') :]
    table = table[: table.index("</table>")]
    assert "<caption>Recent prints</caption>" in table and '<th scope="col">Paper</th>' in table
    assert table.count('<td data-label="Paper">A4</td>') == 1
    assert table.count('<td data-label="Paper">Letter</td>') == 1
    assert "<th></th>" not in table


def test_the_settings_page_shown_again_after_a_refused_webhook_keeps_the_paper_picker(world, client):
    """The settings page a webhook form's refusal goes back to is the same form as the page itself
    (since issue 44, finding 8, by a redirect to it rather than a 400 page drawn at /webhooks/)."""
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/webhooks/",
        {"webhook-kind": "generic", "webhook-url": "not a url"},
        follow=True,
    )
    assert response.redirect_chain[0][1] == 302
    page = response.content.decode()
    assert 'name="print_paper"' in page and "Enter a valid URL." in page


def _print_both_papers(client, url, character):
    for paper in ("letter", "a4"):
        client.post(url, {"kind": "character", "character": character.pk, "paper": paper})


def _table(page: str, testid: str) -> str:
    part = page[page.index(f'data-testid="{testid}"') :]
    return part[: part.index("</table>")]


def test_recent_prints_keep_the_latest_per_paper_and_fold_the_older_ones(world, party, client):
    """Every revision was printed on A4 and Letter and the list filled with both for each revision
    (issue 44, finding 10): the latest print of each sheet on each paper is listed, the rest folded
    in a <details> (a keyboard reaches and opens its summary)."""
    from characters.models import Character

    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    harry = party["player"]
    for revision in (1, 2, 3):
        Character.objects.filter(pk=harry.pk).update(revision=revision)
        _print_both_papers(client, url, harry)
    assert SheetRender.objects.filter(character=harry).count() == 6
    page = client.get(url).content.decode()
    latest = _table(page, "recent-prints")
    assert latest.count("<tr><td") == 2
    assert latest.count('<td data-label="Revision">3</td>') == 2
    assert (
        latest.count('<td data-label="Paper">A4</td>')
        == latest.count('<td data-label="Paper">Letter</td>')
        == 1
    )
    older = page[page.index('<details class="older-prints" data-testid="older-prints">') :]
    older = older[: older.index("</details>")]
    assert "<summary>Older prints (4)</summary>" in older
    assert older.count("<tr><td") == 4 and '<td data-label="Revision">3</td>' not in older


def test_one_print_per_paper_has_nothing_to_fold(world, party, client):
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    _print_both_papers(client, url, party["player"])
    page = client.get(url).content.decode()
    assert _table(page, "recent-prints").count("<tr><td") == 2
    assert 'data-testid="older-prints"' not in page


def test_the_prints_list_costs_the_same_queries_however_many_prints(world, party, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from characters.models import Character

    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    harry = party["player"]
    _print_both_papers(client, url, harry)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for revision in range(2, 8):
        Character.objects.filter(pk=harry.pk).update(revision=revision)
        _print_both_papers(client, url, harry)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)
