"""Where the data lives and what `config.toml` says (docs/store.md); the three budgets
(docs/recall.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from synapse_git.errors import BadInput, StoreError
from synapse_git.store.location import data_dir

MAX_BODY_BYTES = 1024 * 1024
MAX_SOURCE_BYTES = 4096
SOURCE_ALLOWANCE = 240


@dataclass(frozen=True)
class Budget:
    name: str
    hits: int
    hit_bytes: int
    response_chars: int
    page_bytes: int


BUDGETS: dict[str, Budget] = {
    "lean": Budget("lean", 5, 480, 4_000, 2_800),
    "balanced": Budget("balanced", 8, 1_200, 12_000, 6_000),
    "full": Budget("full", 20, 6_000, 60_000, 6_000),
}
BUDGET_NAMES = tuple(BUDGETS)


@dataclass(frozen=True)
class Config:
    data_dir: Path
    default_budget: str = "balanced"
    budgets: dict[str, Budget] = field(default_factory=lambda: dict(BUDGETS))
    instructions: str | None = None

    @property
    def db_path(self) -> Path:
        return self.data_dir / "memory.db"

    def budget(self, name: str | None) -> Budget:
        """The budget called `name` (the configured default when None)."""
        key = self.default_budget if name is None else name
        try:
            return self.budgets[key]
        except KeyError:
            raise BadInput(
                f"unknown budget {key!r}: choose one of {', '.join(BUDGET_NAMES)}"
            ) from None


def load(folder: Path | None = None) -> Config:
    """Read `config.toml` from the data folder; a missing file means the defaults."""
    base = data_dir() if folder is None else folder
    config = Config(data_dir=base)
    path = base / "config.toml"
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return config
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    import tomllib  # only when there is a config file: hooks start faster without it

    try:
        doc = tomllib.loads(raw)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path} is not valid TOML: {exc}") from None
    return _apply(config, doc, path)


def _apply(config: Config, doc: dict[str, Any], path: Path) -> Config:
    budgets = dict(config.budgets)
    for name, overrides in (doc.get("budgets") or {}).items():
        if name not in budgets or not isinstance(overrides, dict):
            raise BadInput(f"{path}: [budgets.{name}] is not one of {', '.join(BUDGET_NAMES)}")
        fields = {"hits", "hit_bytes", "response_chars", "page_bytes"}
        for key, value in overrides.items():
            if key not in fields or not isinstance(value, int) or value < 4:
                raise BadInput(f"{path}: budgets.{name}.{key}: use one of {sorted(fields)}, >= 4")
        budgets[name] = replace(budgets[name], **overrides)
    default = doc.get("budget", config.default_budget)
    if default not in budgets:
        raise BadInput(f"{path}: budget = {default!r} is not one of {', '.join(BUDGET_NAMES)}")
    instructions = doc.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise BadInput(f"{path}: instructions must be a string")
    return replace(config, default_budget=default, budgets=budgets, instructions=instructions)
