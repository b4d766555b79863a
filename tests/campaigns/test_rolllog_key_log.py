"""The roll log's first key on a new install is normal: making it is logged at INFO, not WARNING
(make run printed a WARNING the first time the dice page was used)."""

from __future__ import annotations

import logging

import pytest

from campaigns.table import rolllog


@pytest.fixture
def fresh_key_file(settings, tmp_path):
    settings.DICE_LOG_KEY = ""
    settings.DICE_LOG_KEY_FILE = str(tmp_path / "var" / "dice-log.key")
    rolllog.signing_key.cache_clear()
    yield tmp_path / "var" / "dice-log.key"
    rolllog.signing_key.cache_clear()


def test_making_the_first_key_is_logged_at_info(fresh_key_file, caplog):
    caplog.set_level(logging.DEBUG, logger="campaigns.table.rolllog")
    rolllog.signing_key()
    assert fresh_key_file.exists()
    made = [
        r
        for r in caplog.records
        if r.name == "campaigns.table.rolllog" and "made a new key" in r.getMessage()
    ]
    assert [r.levelno for r in made] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_existing_key_is_read_without_a_word(fresh_key_file, caplog):
    rolllog.signing_key()
    first = rolllog.public_key_hex()
    rolllog.signing_key.cache_clear()
    caplog.clear()
    caplog.set_level(logging.DEBUG, logger="campaigns.table.rolllog")
    assert rolllog.public_key_hex() == first
    assert not [r for r in caplog.records if r.name == "campaigns.table.rolllog"]
