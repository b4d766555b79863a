"""Every page of the site, for every role, in a real browser (issue 21, defects 2, 3, 5 and 7, and
axe-core on every page).

The page list comes from the URL conf (not a hand list): every named, non-API route is filled in
with the demo's objects (``manage.py seed_demo``, one campaign per system) and visited by the game
master, a player and an observer on a 390 px phone. On each page that answers:
- the page is no wider than the viewport (7);
- every ``button.link`` reads as a link: its text contrasts with what is behind it (3);
- campaign tabs, where shown, mark exactly one tab as the current page, visibly (5);
- axe-core (the copy inside the axe-playwright-python wheel, injected into the page: no CDN) finds
  no serious or critical violation, at 390 px and again at 1280 px (the same page, resized);
and the builder's steps show the campaign tabs (5). At 1280 px, no word in a table cell is broken
across lines (2).
"""

from __future__ import annotations

import re
import time
from io import StringIO
from pathlib import Path

import axe_playwright_python
import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from playwright.sync_api import expect

from campaigns.models import Campaign, Membership, Role

PHONE = 390
LAPTOP = 1280

# axe-core's own file, from the installed package (its version is the wheel's).
AXE_SCRIPT = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
# The WCAG 2.x A and AA rules; serious and critical violations only: rule, what it wants, the
# first few elements it found.
AXE_RUN = """async () => {
  const results = await axe.run(document, {
    resultTypes: ['violations'],
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']},
  });
  return results.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `axe ${v.impact} ${v.id} (${v.help}): ` +
      v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
}"""


def resize(page, width: int) -> None:
    """The same page at another width, once its resize handlers ran (two animation frames)."""
    page.set_viewport_size({"width": width, "height": 800})
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


AXE_SECONDS = [0.0]  # what axe costs the walk, printed at its end (never asserted)


def axe_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    started = time.perf_counter()
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate(AXE_RUN)
    AXE_SECONDS[0] += time.perf_counter() - started
    return found


# Which object a route's "pk" means, by the path segment before it.
PK_OWNER = {"campaigns": "campaign", "characters": "character", "ttk": "run", "conflicts": "conflict"}
# Which object each other URL keyword means.
KWARG_OWNER = {
    "campaign_pk": "campaign",
    "character_pk": "character",
    "mission_pk": "mission",
    "npc_pk": "npc",
    "encounter_pk": "encounter",
    "participant_pk": "participant",
    "invitation_pk": "invitation",
    "member_pk": "member",
    "entry_pk": "entry",
    "render_pk": "render",
    "code": "code",
    "number": "play_session",
    "note_pk": "note",
}

PAGE_CHECKS = """(viewport) => {
  const out = [];
  const width = document.documentElement.scrollWidth;
  if (width > viewport) out.push(`page is ${width} px wide on a ${viewport} px screen`);
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const behind = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  for (const b of document.querySelectorAll('button.link')) {
    if (!b.getClientRects().length) continue;
    const fg = lum(rgb(getComputedStyle(b).color)), bg = lum(behind(b));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < 4.5) out.push(`button.link "${b.textContent.trim()}" has contrast ${ratio.toFixed(2)}`);
    if (!getComputedStyle(b).textDecorationLine.includes('underline'))
      out.push(`button.link "${b.textContent.trim()}" is not underlined`);
  }
  const text = (document.querySelector('main') || document.body).innerText;
  // Codes and Python values a page must never show (defect 8).
  const internal = [
    /\\b[a-z][a-z0-9]*_[a-z0-9_]+\\b/g,  // codes: no_share, once_per_scene, sp_awarded
    /\\b\\d+d\\d+_[a-z]+\\b/g,  // 3d6_bonus
    /\\b(?:True|False)\\b/g,
    /(?:^|\\n)None(?=\\n|$)/g,
    /\\byou are (?:gm|player|observer)\\b/g,
    /(?:^|\\n)\\s*(?:roles?|skills|talent|background|attributes|abilities|aspects|benefits|kind|reason): /g,
    /\\bCM\\b/g,
  ];
  for (const pattern of internal)
    for (const m of text.matchAll(pattern)) out.push(`internal word: ${JSON.stringify(m[0].trim())}`);
  const tabs = document.querySelector('nav.tabs');
  if (tabs) {
    const current = tabs.querySelectorAll('[aria-current=page]');
    if (current.length !== 1) out.push(`${current.length} campaign tabs marked current (want 1)`);
    else {
      const other = [...tabs.querySelectorAll('a:not([aria-current])')][0];
      const a = getComputedStyle(current[0]), b = other && getComputedStyle(other);
      const same = k => a[k] === b[k];
      if (b && same('fontWeight') && same('color') && same('borderBottomWidth'))
        out.push('the current tab looks like the others');
    }
  }
  return out;
}"""

BROKEN_WORDS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('main table th, main table td')) {
    for (const node of cell.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      // a word: what lies between spaces, hyphens and slashes (where lines may break)
      for (const m of node.textContent.matchAll(/[^\\s\\-\\/\u2010-\u2015]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


def routes(resolver=None, prefix=""):
    """(route with converters, URL name) for every named page route outside the API and admin."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith(("api/", "admin/")):
                yield from routes(entry, route)
        elif isinstance(entry, URLPattern) and entry.name and not route.startswith(("^", "api/", "admin/")):
            yield route, entry.name


def fill(route: str, objects: dict) -> str | None:
    """The route with its <...> parts filled from ``objects``; None when one is not there."""
    missing = False

    def value(match):
        nonlocal missing
        before, kwarg = match.string[: match.start()].rstrip("/").split("/")[-1], match.group(2)
        owner = PK_OWNER.get(before) if kwarg == "pk" else KWARG_OWNER.get(kwarg)
        found = objects.get(owner) if owner else objects.get(kwarg)
        if found is None:
            missing = True
            return ""
        return str(found)

    path = re.sub(r"<(?:(\w+):)?(\w+)>", value, route)
    return None if missing else "/" + path


def demo_objects() -> list[dict]:
    """For each demo campaign, the ids its routes are filled with (alice's character first)."""
    from campaigns.models import NPC, Invitation
    from characters import builder
    from characters.models import Character
    from characters.views import WIZARDS

    out = []
    for campaign in Campaign.objects.filter(name__startswith="Demo: ").order_by("pk"):
        hero = Character.objects.filter(campaign=campaign, owner__username="alice", status="active").first()
        draft = Character.objects.filter(campaign=campaign, status="draft").first()
        common = {
            "campaign": campaign.pk,
            "character": hero.pk,
            "entry": hero.entries.values_list("pk", flat=True).first(),
            "mission": campaign.missions.values_list("pk", flat=True).first(),
            "npc": NPC.objects.filter(campaign=campaign).values_list("pk", flat=True).first(),
            # the play in progress (made last: the demo's finished play comes before it)
            "run": campaign.ttk_runs.order_by("-pk").values_list("pk", flat=True).first(),
            "conflict": campaign.tempo_conflicts.order_by("-pk").values_list("pk", flat=True).first(),
            "encounter": campaign.d6_encounters.order_by("-pk").values_list("pk", flat=True).first(),
            "code": Invitation.objects.filter(campaign=campaign).values_list("code", flat=True).first(),
            # the demo's first played session and its GM's shared recap (issue 50)
            "play_session": 1,
            "note": campaign.notes.filter(visibility="shared")
            .order_by("created_at", "id")
            .values_list("pk", flat=True)
            .first(),
        }
        out.append(common)
        # every mission and encounter (a published tally and an open one, one being set up ...)
        out += [{**common, "mission": pk} for pk in campaign.missions.values_list("pk", flat=True)[1:]]
        others = campaign.d6_encounters.exclude(pk=common["encounter"]).values_list("pk", flat=True)
        out += [{**common, "encounter": pk} for pk in others]
        # every finished run and conflict too
        out += [
            {**common, "run": pk}
            for pk in campaign.ttk_runs.exclude(pk=common["run"]).values_list("pk", flat=True)
        ]
        others = campaign.tempo_conflicts.exclude(pk=common["conflict"]).values_list("pk", flat=True)
        out += [{**common, "conflict": pk} for pk in others]
        for step in builder.step_keys(WIZARDS[campaign.system]):  # the builder, on the campaign's draft
            out.append({**common, "character": draft.pk, "step": step})
    return out


@pytest.fixture
def demo(transactional_db):
    """The demo, plus an observer in every campaign, a draft, an NPC and an invitation in each."""
    from django.contrib.auth import get_user_model

    from campaigns import npc_services
    from campaigns import services as campaign_services
    from characters import services as character_services

    call_command("seed_demo", stdout=StringIO())
    carol = get_user_model().objects.create_user("carol", password="dossier-carol")
    gm = get_user_model().objects.get(username="gm")
    alice = get_user_model().objects.get(username="alice")
    for campaign in Campaign.objects.filter(name__startswith="Demo: "):
        Membership.objects.create(campaign=campaign, user=carol, role=Role.OBSERVER)
        character_services.create_draft(campaign, alice, choices={"name": "Half Done"})
        quick = {"quick": True} if campaign.system == "timemaster" else {}
        npc_services.create_npc(campaign, gm, {"name": "Informant", **quick})
        campaign_services.create_invitation(campaign, gm)
        if campaign.system == "d6":  # one encounter being set up: its participants have Remove buttons
            from systems.d6 import services as d6

            setup = d6.create_encounter(campaign, gm, name="Rooftop", method="once_per_scene")
            d6.add_npc(setup, {"name": "Sniper", "attributes": {"Perception": "4D", "Reflexes": "2D"}})


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"dossier-{username}")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


#: The pages each role's walk must at least reach: near what it reaches on the demo (108, 91 and 68
#: on 2026-12-06), together far above the 100 the walk asked for when it was one test. Split by
#: role so that the browser layer's processes share the walk (docs/testing.md).
LEAST_VISITED = {"gm": 100, "alice": 80, "carol": 60}


@pytest.mark.slow
@pytest.mark.parametrize("username", list(LEAST_VISITED))
def test_every_page_fits_a_phone_marks_its_tab_and_passes_axe_for_every_role(new_page, demo, username):
    paths = []
    for objects in demo_objects():
        for route, name in routes():
            if name == "character-wizard-step" and "step" not in objects:
                continue
            if name != "character-wizard-step" and "step" in objects:
                continue
            path = fill(route, objects)
            if path is not None and path not in paths:
                paths.append(path)
    assert len(paths) > 60, paths  # the URL conf really was walked

    problems: list[str] = []
    visited = 0
    seen: set[str] = set()  # the link-styled buttons met on the way
    page = new_page(PHONE, 800)
    log_in(page, username)
    for path in paths:
        # Ask first (same session): only pages this role may open are loaded in the browser.
        answer = page.context.request.get(path, max_redirects=0)
        if answer.status >= 500:
            problems.append(f"{username} {path}: answered {answer.status}")
            continue
        if answer.status != 200 or "text/html" not in (answer.headers.get("content-type") or ""):
            continue  # not this role's page (403/404), POST-only (405), a redirect, a download
        if not answer.text().lstrip().lower().startswith("<!doctype"):
            continue  # an htmx fragment (a panel), checked inside the page that holds it
        page.goto(path)
        visited += 1
        problems += [f"{username} {path}: {p}" for p in page.evaluate(PAGE_CHECKS, PHONE)]
        problems += [f"{username} {path} at {PHONE} px: {p}" for p in axe_problems(page)]
        resize(page, LAPTOP)
        problems += [f"{username} {path} at {LAPTOP} px: {p}" for p in axe_problems(page)]
        resize(page, PHONE)
        seen.update(page.locator("button.link:visible").all_inner_texts())
        if "/build/" in path and not page.locator("nav.tabs").count():
            problems.append(f"{username} {path}: the builder step has no campaign tabs")
    page.context.close()
    print(f"{username}: {len(paths)} paths, {visited} pages visited, axe-core took {AXE_SECONDS[0]:.0f} s")
    assert visited >= LEAST_VISITED[username], visited
    if username == "gm":
        assert "Remove" in seen and seen & {"Hide", "Show"}, seen  # the D6 and tally buttons were checked
    assert not problems, "\n".join(problems)


def test_no_word_in_a_table_cell_is_broken_on_a_laptop(new_page, demo):
    from characters.models import Character

    page = new_page(1280, 900)
    log_in(page, "gm")
    problems = []
    paths = [
        f"/characters/{c.pk}/" for c in Character.objects.filter(status="active", owner__username="alice")
    ]
    timemaster = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    paths += [f"/campaigns/{timemaster.pk}/missions/{m.pk}/" for m in timemaster.missions.all()]
    paths += [f"/ttk/{run.pk}/" for run in Campaign.objects.get(system="time_to_kill").ttk_runs.all()]
    for path in paths:
        page.goto(path)
        problems += [f"{path}: {word!r} is broken across lines" for word in page.evaluate(BROKEN_WORDS)]
    assert not problems, "\n".join(problems)
