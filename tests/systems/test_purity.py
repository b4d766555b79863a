import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, os, sys
os.environ.pop("DJANGO_SETTINGS_MODULE", None)
import characters.systems as systems
from characters.systems import dice, base
loaded = [systems.get_system(key).key for key in ("timemaster", "time_to_kill", "tempo", "d6")]
frameworks = ("django", "rest_framework", "celery", "weasyprint")
forbidden = sorted(m for m in sys.modules if m.split(".")[0] in frameworks)
print(json.dumps({"loaded": loaded, "forbidden": forbidden}))
"""


def test_importing_every_engine_never_imports_django():
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout)
    assert result["loaded"] == ["timemaster", "time_to_kill", "tempo", "d6"]
    assert result["forbidden"] == []
