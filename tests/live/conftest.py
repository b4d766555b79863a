"""The Tempo fixtures, for the feed's conflict tests."""

from tests.tempo_conflicts.conftest import agent, make_tempo_agent, tempo  # noqa: F401
