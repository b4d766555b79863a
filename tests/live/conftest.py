"""The Tempo fixtures, for the feed's conflict tests."""

from systems.tempo.tests.conflicts.conftest import agent, make_tempo_agent, tempo  # noqa: F401
