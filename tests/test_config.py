"""Where the data lives and what `config.toml` may say (docs/store.md, docs/recall.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from synapse_git import settings
from synapse_git.errors import BadInput


def test_synapse_data_wins() -> None:
    env = {"SYNAPSE_DATA": "/srv/synapse", "XDG_DATA_HOME": "/xdg"}
    assert settings.data_dir(env) == Path("/srv/synapse")


def test_xdg_data_home_comes_next() -> None:
    assert settings.data_dir({"XDG_DATA_HOME": "/xdg"}) == Path("/xdg/synapse")


def test_home_is_the_fallback() -> None:
    expected = Path.home() / ".local" / "share" / "synapse"
    assert settings.data_dir({}) == expected
    # Empty values count as unset, as they do for XDG variables.
    assert settings.data_dir({"SYNAPSE_DATA": "", "XDG_DATA_HOME": ""}) == expected


def test_a_tilde_is_expanded() -> None:
    assert settings.data_dir({"SYNAPSE_DATA": "~/notes"}) == Path.home() / "notes"


def test_load_reads_the_data_folder_from_the_environment(isolated_store: Path) -> None:
    loaded = settings.load()
    assert loaded.data_dir == isolated_store
    assert loaded.db_path == isolated_store / "memory.db"
    assert loaded.budget(None).name == "balanced"


def test_config_toml_sets_the_default_budget_and_caps(isolated_store: Path) -> None:
    (isolated_store / "config.toml").write_text(
        'budget = "lean"\ninstructions = "be brief"\n[budgets.full]\npage_bytes = 9000\n'
    )
    loaded = settings.load()
    assert loaded.budget(None).name == "lean"
    assert loaded.budget("full").page_bytes == 9000
    assert loaded.instructions == "be brief"


@pytest.mark.parametrize(
    "text",
    [
        'budget = "huge"',
        "[budgets.lean]\npage_bytes = 2",  # a page must hold any character
        "[budgets.lean]\nspeed = 3",
        "not toml at all = = =",
    ],
)
def test_a_bad_config_is_bad_input(isolated_store: Path, text: str) -> None:
    (isolated_store / "config.toml").write_text(text)
    with pytest.raises(BadInput, match=r"config\.toml"):
        settings.load()


def test_an_unknown_budget_name_is_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown budget 'huge'"):
        settings.Config(data_dir=Path("/x")).budget("huge")
