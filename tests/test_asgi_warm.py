"""The ASGI entry builds the URL conf's reverse tables before the first request (config/asgi.py):
built lazily, they were built by every thread of the first busy second at once."""

from __future__ import annotations

import os
import subprocess
import sys

CHECK = (
    "import config.asgi\n"
    "from django.urls import get_resolver\n"
    "from django.utils.translation import get_language\n"
    "resolver = get_resolver()\n"
    "print(resolver._populated, get_language() in resolver._reverse_dict)\n"
)


def test_the_asgi_entry_builds_the_reverse_tables_before_any_request():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-2:] == ["True", "True"], done.stdout
