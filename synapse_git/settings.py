"""Where the data lives and what `config.toml` says (docs/store.md); the three budgets
(docs/recall.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from synapse_git.data_folder import data_dir
from synapse_git.errors import BadInput, StoreError

MAX_BODY_BYTES = 1024 * 1024
MAX_SOURCE_BYTES = 4096
SOURCE_ALLOWANCE = 240
PROMPT_CHARS = 1_500
PROMPT_CHARS_LIMITS = (200, 20_000)


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
class DriftSettings:
    """When a file a memory names has changed a lot since the memory was written
    (docs/drift.md, changed): commits touching it, or lines added and removed by
    them; 0 turns that measure off."""

    changed_commits: int = 10
    changed_lines: int = 300


DRIFT_LIMITS = {"changed_commits": (0, 1_000_000), "changed_lines": (0, 1_000_000_000)}


@dataclass(frozen=True)
class Config:
    data_dir: Path
    default_budget: str = "balanced"
    budgets: dict[str, Budget] = field(default_factory=lambda: dict(BUDGETS))
    instructions: str | None = None
    # The most characters `synapse hook prompt` adds to a prompt (docs/hooks.md).
    prompt_chars: int = PROMPT_CHARS
    drift: DriftSettings = field(default_factory=lambda: DriftSettings())

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
        data = path.read_bytes()
    except FileNotFoundError:
        return config
    except NotADirectoryError:
        # SYNAPSE_DATA naming a file: "cannot read FILE/config.toml: Not a directory" left
        # the user to work out that the folder was the problem.
        raise StoreError(
            f"the data folder {base} is not a folder: a file stands where it (or a folder"
            " above it) goes"
        ) from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    import tomllib  # only when there is a config file: hooks start faster without it

    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not valid UTF-8 (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{path} is not valid TOML: {exc}") from None
    return _apply(config, doc, path)


# What each budget key may be: a page must hold any character (4 bytes), and a page
# or an answer larger than a whole memory (1 MiB) is never needed.
LIMITS = {
    "hits": (1, 1000),
    "hit_bytes": (4, MAX_BODY_BYTES),
    "response_chars": (4, 16 * MAX_BODY_BYTES),
    "page_bytes": (4, MAX_BODY_BYTES),
}
KEYS = ("budget", "budgets", "instructions", "prompt_chars", "drift")


def _apply(config: Config, doc: dict[str, Any], path: Path) -> Config:
    """`doc` checked key by key; a wrong key names itself and what it may be."""
    unknown = [key for key in doc if key not in KEYS]
    if unknown:
        raise BadInput(f"{path}: unknown key {unknown[0]!r}: the keys are {', '.join(KEYS)}")
    budgets = dict(config.budgets)
    tables = doc.get("budgets", {})
    if not isinstance(tables, dict):
        raise BadInput(f"{path}: budgets must be a table of [budgets.NAME] sections")
    for name, overrides in tables.items():
        if name not in budgets or not isinstance(overrides, dict):
            raise BadInput(f"{path}: [budgets.{name}] is not one of {', '.join(BUDGET_NAMES)}")
        for key, value in overrides.items():
            if key not in LIMITS:
                raise BadInput(
                    f"{path}: budgets.{name}.{key} is not a budget key: "
                    f"use one of {', '.join(LIMITS)}"
                )
            _whole(path, f"budgets.{name}.{key}", value, LIMITS[key])
        budgets[name] = replace(budgets[name], **overrides)
    default = doc.get("budget", config.default_budget)
    if not isinstance(default, str) or default not in budgets:
        raise BadInput(f"{path}: budget = {default!r} is not one of {', '.join(BUDGET_NAMES)}")
    instructions = doc.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise BadInput(f"{path}: instructions must be a string")
    prompt_chars = doc.get("prompt_chars", PROMPT_CHARS)
    low, high = PROMPT_CHARS_LIMITS
    if not isinstance(prompt_chars, int) or isinstance(prompt_chars, bool):
        raise BadInput(f"{path}: prompt_chars must be a whole number from {low} to {high}")
    if not low <= prompt_chars <= high:
        raise BadInput(f"{path}: prompt_chars = {prompt_chars}: use a number from {low} to {high}")
    drift = _drift(config.drift, doc.get("drift", {}), path)
    return replace(
        config,
        default_budget=default,
        budgets=budgets,
        instructions=instructions,
        prompt_chars=prompt_chars,
        drift=drift,
    )


def _whole(path: Path, name: str, value: object, limits: tuple[int, int]) -> None:
    low, high = limits
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise BadInput(f"{path}: {name} = {shown}: use a whole number from {low} to {high}")


def _drift(settings: DriftSettings, table: object, path: Path) -> DriftSettings:
    if not isinstance(table, dict):
        raise BadInput(f"{path}: drift must be a [drift] table")
    for key, value in table.items():
        if key not in DRIFT_LIMITS:
            raise BadInput(
                f"{path}: drift.{key} is not a drift key: use one of {', '.join(DRIFT_LIMITS)}"
            )
        _whole(path, f"drift.{key}", value, DRIFT_LIMITS[key])
    return replace(settings, **table)
