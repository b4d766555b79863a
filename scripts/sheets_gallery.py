"""`make sheets-gallery`: every sheet kind on both paper sizes, as PDFs and one PNG per page, with an
index page, in var/gallery/ (open var/gallery/index.html). For looking at the sheets as pictures.

    .venv/bin/python scripts/sheets_gallery.py [--dpi 110] [filter ...]

A filter keeps the cases whose id contains it (``character-tempo``, ``blank``, ``long`` ...).
The data: tests/sheets/samples.py (demo, longest accepted, empty). Nothing is fetched.
"""

from __future__ import annotations

import argparse
import html
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPERS = ("letter", "a4")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*")
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--out", default=str(ROOT / "var" / "gallery"))
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    import pypdfium2

    from sheets import rendering
    from tests.sheets import samples

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for case in samples.all_cases():
        if args.filters and not any(f in case.id for f in args.filters):
            continue
        for paper in PAPERS:
            name = f"{case.id}-{paper}"
            result = rendering.render_pdf(case.pages, title=name, author="Dossier gallery", paper=paper)
            (out / f"{name}.pdf").write_bytes(result.pdf)
            document = pypdfium2.PdfDocument(result.pdf)
            images = []
            for index in range(len(document)):
                image = document[index].render(scale=args.dpi / 72).to_pil()
                png = f"{name}-p{index + 1}.png"
                image.save(out / png)
                images.append(png)
            document.close()
            rows.append((case, paper, result.pages, images))
            print(f"{name}: {result.pages} page(s)")
    items = "\n".join(
        f"<section><h2>{html.escape(case.id)} · {paper} · {pages} page(s) (declared {case.declared_pages})"
        f' · <a href="{html.escape(case.id)}-{paper}.pdf">PDF</a></h2>'
        + "".join(f'<a href="{png}"><img src="{png}" alt="{png}"></a>' for png in images)
        + "</section>"
        for case, paper, pages, images in rows
    )
    (out / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Sheet gallery</title>"
        "<style>body{font:14px sans-serif;margin:1em}img{width:420px;border:1px solid #999;margin:4px}"
        "section{display:inline-block;vertical-align:top;margin:0 1em 1em 0}h2{font-size:13px}</style>"
        f"<h1>Sheet gallery ({len(rows)} documents)</h1>{items}",
        encoding="utf-8",
    )
    print(f"open {out / 'index.html'}")


if __name__ == "__main__":
    main()
