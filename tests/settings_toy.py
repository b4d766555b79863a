"""The project's settings with the toy system installed: one INSTALLED_APPS line, after the
systems (tests/test_toy_system.py runs the shared system test kit under it)."""

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.toy_system"]  # noqa: F405
