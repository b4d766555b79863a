"""Production settings pass Django's deployment checks; a missing secret key fails loudly."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_manage(env_overrides, *args):
    dropped = ("DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_check_deploy_is_clean_with_production_values(tmp_path):
    result = run_manage(
        {
            "DEBUG": "0",
            "SECRET_KEY": "k" * 20 + "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1",
            "ALLOWED_HOSTS": "dossier.example.org",
            "DOSSIER_VAR_DIR": str(tmp_path),
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_without_a_secret_key_refuses_to_start(tmp_path):
    result = run_manage({"DEBUG": "0", "DOSSIER_VAR_DIR": str(tmp_path)}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_malformed_rate_limit_refuses_to_start_and_names_its_variable(tmp_path):
    result = run_manage(
        {"DEBUG": "1", "DOSSIER_VAR_DIR": str(tmp_path), "RATE_LIMIT_SIGNUP": "5/fortnight"}, "check"
    )
    assert result.returncode != 0
    assert "RATE_LIMIT_SIGNUP='5/fortnight'" in result.stderr
