"""The test harness itself: no test may open the user's real store."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import _REAL_DATA

from synapse_git import settings
from synapse_git.service import Synapse
from synapse_git.store import database


def test_every_test_gets_a_temporary_data_folder(isolated_store: Path) -> None:
    assert os.environ["SYNAPSE_DATA"] == str(isolated_store)
    assert settings.data_dir() == isolated_store
    assert not isolated_store.resolve().is_relative_to(_REAL_DATA)


def test_a_command_without_synapse_data_still_stays_in_a_temporary_folder(
    isolated_store: Path,
) -> None:
    assert not settings.data_dir({**os.environ, "SYNAPSE_DATA": ""}).is_relative_to(_REAL_DATA)


def test_opening_the_real_store_fails_the_test() -> None:
    with pytest.raises(pytest.fail.Exception, match="real store"):
        database.connect(_REAL_DATA / "memory.db")


def test_the_service_cannot_reach_the_real_store_either() -> None:
    svc = Synapse(settings.Config(data_dir=_REAL_DATA))
    # A write: `check` of a store that is not there no longer opens one.
    with pytest.raises(pytest.fail.Exception, match="real store"):
        svc.import_lines(['{"body": "x"}'])
