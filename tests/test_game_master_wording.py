"""The pages call the person running the game "game master" (or GM); no message says "CM", which a new
group meets nowhere else (issue 30, finding 10)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CM = re.compile(r"\bCM('s)?\b")
CODE = ("systems", "characters", "campaigns", "sheets", "archive", "templates")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_text_a_user_can_read_says_cm():
    hits = []
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), str(path))
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                text = node.value if isinstance(node, ast.Constant) and id(node) not in docs else None
                if isinstance(text, str) and CM.search(text):
                    hits.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
        for path in (ROOT / folder).rglob("*.html"):
            text = re.sub(r"{#.*?#}|{% comment %}.*?{% endcomment %}", "", path.read_text(), flags=re.S)
            hits += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in CM.finditer(text)]
    assert hits == []
