import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Each system's pure engine lives at systems/<system>/engine/; importing it (which imports the
# system app's package systems/<system>/__init__.py, kept empty) must not import Django.
ENGINES = sorted(
    f"systems.{path.parent.parent.name}.engine" for path in ROOT.glob("systems/*/engine/__init__.py")
)

PROBE = """
import importlib, json, os, sys
os.environ.pop("DJANGO_SETTINGS_MODULE", None)
for name in sys.argv[1:]:
    importlib.import_module(name)
import characters.systems as systems
from characters.systems import dice, base
loaded = [system.key for system in systems.all_systems()]  # found by the folders' convention
frameworks = ("django", "rest_framework", "celery", "weasyprint")
forbidden = sorted(m for m in sys.modules if m.split(".")[0] in frameworks)
print(json.dumps({"loaded": loaded, "forbidden": forbidden}))
"""


def test_importing_every_engine_never_imports_django():
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *ENGINES],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["loaded"] == sorted(engine.split(".")[1] for engine in ENGINES)
    assert result["forbidden"] == []


def test_every_system_package_keeps_its_init_empty_so_its_engine_stays_pure():
    inits = [ROOT / "systems" / "__init__.py", *ROOT.glob("systems/*/__init__.py")]
    assert "systems.time_to_kill.engine" in ENGINES
    assert [str(p.relative_to(ROOT)) for p in inits if p.read_text().strip()] == []


def test_engines_import_nothing_of_the_django_side():
    # A pure engine imports no Django and nothing of ours but the engine contract (characters.systems).
    ours = ("campaigns", "sheets", "archive", "config", "characters.models", "characters.services")
    offenders = []
    for engine in ENGINES:
        for path in (ROOT / engine.replace(".", "/")).rglob("*.py"):
            for line in path.read_text().splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] in ("import", "from"):
                    target = words[1]
                    top = target.split(".")[0]
                    if top in ("django", "rest_framework", "celery", "weasyprint") or target.startswith(ours):
                        offenders.append(f"{path.relative_to(ROOT)}: {line.strip()}")
                    if top == "systems" and not target.startswith(engine):
                        offenders.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert offenders == []
