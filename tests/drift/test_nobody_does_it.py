"""A clause denying that anyone does a thing to X (`_typos.toml is a leftover nobody
reads`, `Nothing reads settings/legacy.py any more`) against a clause where
something does it to X: the same verb, X's whole name right after it
(docs/drift.md, conflicts). A pronoun (`nothing checks it`) names nothing; a
place after X (`in tests`) says where; another name is another thing."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Spell check: the typos configuration is .typos.toml; "
            "_typos.toml is a leftover nobody reads.",
            "Spell check: typos reads _typos.toml at the root.",
        ),
        (
            "Nothing reads settings/legacy.py any more.",
            "The worker reads settings/legacy.py at startup.",
        ),
        ("Nobody calls build_index() now.", "The CLI calls build_index() on every start."),
        (
            "tools/gen_docs.py is dead code nothing imports.",
            "The docs build imports tools/gen_docs.py.",
        ),
    ],
)
def test_nobody_doing_it_contradicts_something_doing_it(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Dependency order does not matter; nothing checks it.", "CI checks them with cargo sort."),
        ("_typos.toml is a leftover nobody reads.", "typos reads .typos.toml at the root."),
        (
            "The old .eslintrc.json is a leftover nothing loads.",
            "The lint job loads .eslintrc.json from the root.",
        ),
        ("Nothing calls build_index() in tests.", "The CLI calls build_index() on every start."),
        ("Nobody runs the benchmarks.", "The nightly job runs the benchmarks/ folder."),
        ("Nobody reads the old changelog.", "The release script reads the changelog."),
    ],
)
def test_look_alikes_of_nobody_doing_it_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
