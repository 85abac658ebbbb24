"""What the words around a name or a claim decide (docs/drift.md): a product with
its version."""

from __future__ import annotations

from synapse_git.drift.paths import find_paths


def test_a_product_with_its_version_is_no_file() -> None:
    text = "Old runtimes (io.js 1.8, Bun.js v1) are tested; the entry is server.js 8080."
    assert find_paths(text) == ["server.js"]
