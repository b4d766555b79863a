"""Real PDFs from the real templates, read back with pypdf; the fetcher refuses everything but assets."""

from __future__ import annotations

from pathlib import Path

import pytest

from characters.systems import get_system
from sheets import rendering
from tests.sheets.conftest import BUILDERS, pdf_metadata, pdf_text

#: An installed system's folder (its sheet_assets/ may be read, nothing else in it).
SYSTEM_FOLDER = Path(__file__).resolve().parents[2] / "systems" / "time_to_kill"

HOSTILE_NAMES = [
    '<img src="http://127.0.0.1:1/x">',
    '<link rel="stylesheet" href="file:///etc/passwd">',
    "<style>@import url(http://127.0.0.1:1/y);</style>",
]


def render_one(system: str, name: str, revision: int = 3, paper: str = "letter"):
    sheet = get_system(system).sheet(BUILDERS[system](name=name))
    page = rendering.SheetPage(sheet, campaign="Time Corps", character=name, revision=revision)
    return rendering.render_pdf([page], title=f"{name} sheet", author="Dossier test", paper=paper)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_timemaster_sheet_is_one_page_with_its_values_and_footer(paper):
    result = render_one("timemaster", "Harry Adams", revision=7, paper=paper)
    pages, text = pdf_text(result.pdf)
    assert pages == result.pages == 1
    assert "Harry Adams" in text
    assert "Strength" in text and "72" in text  # make_build assigns STR 72
    assert "Paranormal Memory" in text
    assert "revision 7" in text
    assert "page 1 of 1" in text
    assert "Time Corps" in text


def test_the_pdf_carries_title_and_author():
    meta = pdf_metadata(render_one("timemaster", "Harry Adams").pdf)
    assert meta.title == "Harry Adams sheet"
    assert meta.author == "Dossier test"


@pytest.mark.parametrize("system", ["timemaster", "time_to_kill", "tempo", "d6"])
def test_every_system_sheet_fits_one_page_with_a_long_name(system):
    long_name = "Bartholomew " * 8 + "Fortescue-Smythe"
    result = render_one(system, long_name.strip())
    pages, text = pdf_text(result.pdf)
    assert pages == 1
    assert "Fortescue-Smythe" in text
    assert result.fetcher.refused == []


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("system", ["timemaster", "d6"])
def test_a_hostile_name_prints_as_text_and_fetches_nothing(system, name):
    result = render_one(system, name)
    _, text = pdf_text(result.pdf)
    flat = "".join(text.split())
    assert "".join(name.split()) in flat  # the markup itself is on the page, as text
    assert result.fetcher.refused == []  # nobody even asked for the URLs
    assert not any("127.0.0.1" in url or "passwd" in url for url in result.fetcher.served)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:1/x",
        "https://example.com/font.ttf",
        "file:///etc/passwd",
        "data:text/css,body{}",
        f"{rendering.STYLESHEET.as_uri()}/../../../settings.py",
        (rendering.ASSETS_DIR.parent / "models.py").as_uri(),
        "ftp://127.0.0.1/x",
        # A system's folder: only its sheet_assets/, never its code or a way out of the folder.
        (SYSTEM_FOLDER / "models.py").as_uri(),
        (SYSTEM_FOLDER / "sheet_assets").as_uri() + "/../models.py",
        (SYSTEM_FOLDER / "templates" / "sheets" / "time_to_kill.html").as_uri(),
    ],
)
def test_the_fetcher_refuses_everything_but_sheet_assets(url):
    fetcher = rendering.SheetAssetFetcher()
    with pytest.raises(rendering.RefusedURL):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_the_fetcher_serves_the_sheet_stylesheet():
    fetcher = rendering.SheetAssetFetcher()
    response = fetcher.fetch(rendering.STYLESHEET.as_uri())
    assert b"@page" in response.read()


def test_the_fetcher_serves_an_installed_systems_sheet_assets_found_by_convention():
    folder = SYSTEM_FOLDER / "sheet_assets"
    assert folder.resolve() in rendering.system_asset_dirs()
    fetcher = rendering.SheetAssetFetcher()
    assert b"@page time_to_kill" in fetcher.fetch((folder / "sheet.css").as_uri()).read()
    assert b"<svg" in fetcher.fetch((folder / "marks" / "circle.svg").as_uri()).read()
    assert fetcher.refused == []


def test_a_bundle_is_one_document_with_a_page_per_character():
    pages = []
    for index, system in enumerate(["timemaster", "tempo", "d6", "time_to_kill"]):
        name = f"Agent {index}"
        sheet = get_system(system).sheet(BUILDERS[system](name=name))
        pages.append(rendering.SheetPage(sheet, campaign="Mixed", character=name, revision=index + 1))
    result = rendering.render_pdf(pages, title="Bundle", author="Dossier")
    count, text = pdf_text(result.pdf)
    assert count == 4
    for index in range(4):
        assert f"Agent {index}" in text
        assert f"revision {index + 1}" in text
    assert "page 4 of 4" in text


def test_the_blank_fate_record_sheet_is_marked_for_the_gm():
    from systems.time_to_kill.engine import fate_record_sheet_data

    page = rendering.SheetPage(fate_record_sheet_data(None), campaign="Night Work")
    result = rendering.render_pdf([page], title="Fate Record Sheet", author="Dossier")
    pages, text = pdf_text(result.pdf)
    assert pages == 1
    for box in ("Opposition", "Concealment", "Terrain", "Circumstance"):
        assert box in text
    assert "GM ONLY" in text.upper()


#: Values each system's filled sheet must print (from the engine-made builds in conftest.BUILDERS).
KEY_VALUES = {
    "timemaster": ["Strength", "72", "Trainee/0", "Paranormal Memory", "Telepathic Probe", "Boston"],
    "time_to_kill": ["Armed", "Stealth", "alive", "Failure, no roll", "Budget"],
    "tempo": ["GOOD ENOUGH IS GOOD ENOUGH", "his old sergeant", "Observer", "+8", "TRUST NO ONE", "KESTREL"],
    "d6": ["Perception", "search", "3D", "brawling", "4D", "-5D", "Bash"],
}
LONG_NAME = "Maximilian Alexander Theodore Fitzgerald-Montgomery the Third of Lower Saxony"


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("system", sorted(KEY_VALUES))
def test_each_filled_sheet_is_one_page_with_its_key_values_on_either_paper(system, paper):
    result = render_one(system, LONG_NAME, revision=5, paper=paper)
    pages, text = pdf_text(result.pdf)
    flat = " ".join(text.split())
    assert pages == result.pages == 1
    for value in KEY_VALUES[system]:
        assert value in text, value
    assert "Lower Saxony" in flat  # the long name wraps, it is not cut off
    assert "revision 5" in flat and "page 1 of 1" in flat


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_fate_record_sheet_is_one_page_on_either_paper(paper):
    from systems.time_to_kill.engine import fate_record_sheet_data

    page = rendering.SheetPage(fate_record_sheet_data(None), campaign="Night Work")
    result = rendering.render_pdf([page], title="Fate Record Sheet", author="Dossier", paper=paper)
    pages, text = pdf_text(result.pdf)
    # Numbered turn rows to write in: 21 on Letter, 24 on A4 (the page is 18 mm taller), and under
    # them two lines for the GM's notes.
    last = "24" if paper == "a4" else "21"
    assert pages == 1 and last in text.split() and "Failure, no roll" in text


def test_a_bundle_lays_out_each_page_once():
    """The footer is a string, not a running element: WeasyPrint re-made the previous page for
    every new running element, so a bundle's layout cost twice the pages."""
    import weasyprint.layout.page as page_layout

    made = []
    original = page_layout.remake_page

    def counting(*args, **kwargs):
        made.append(args[0])
        return original(*args, **kwargs)

    pages = [
        rendering.SheetPage(
            get_system("d6").sheet(BUILDERS["d6"](name=f"Agent {i}")), "Mixed", f"Agent {i}", 1
        )
        for i in range(4)
    ]
    page_layout.remake_page = counting
    try:
        result = rendering.render_pdf(pages, title="Bundle", author="Dossier")
    finally:
        page_layout.remake_page = original
    assert result.pages == 4
    assert len(made) == 4


@pytest.mark.parametrize(
    ("case_id", "faces"),
    [
        ("character-timemaster-demo", 3),
        ("character-time_to_kill-demo", 2),
        ("character-tempo-demo", 3),
        ("character-d6-demo", 2),
        ("fate_record-time_to_kill-demo", 2),
    ],
)
def test_a_sheet_embeds_only_its_own_faces(case_id, faces):
    """Every face a sheet uses is subset, compressed and embedded in each PDF (a cost per render):
    the footer is set in the system's text face and TIMEMASTER's typed values in one Courier weight,
    so no face is embedded for a few words alone."""
    import re

    from tests.sheets import samples

    case = samples.cases_by_id()[case_id]
    document = rendering._layout(
        case.pages,
        title="t",
        author="t",
        paper="letter",
        rendered_at=None,
        fetcher=rendering.SheetAssetFetcher(),
    )
    pdf = document.write_pdf(uncompressed_pdf=True)
    names = {name.split(b"+")[-1] for name in re.findall(rb"/BaseFont\s*/([A-Za-z0-9+_-]+)", pdf)}
    assert len(names) == faces, sorted(names)
    assert not any(b"Inter" in name for name in names) or case.system == "tempo"
