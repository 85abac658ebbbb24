"""Reciprocal rank fusion: the one way two or more orders of the same items become one."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

Item = TypeVar("Item", bound=Hashable)


def fuse(orders: Iterable[Sequence[Item]], k: int) -> dict[Item, float]:
    """Each item's summed 1 / (k + rank) over the orders it appears in (ranks from 1).
    A larger `k` flattens the difference between the top places."""
    score: dict[Item, float] = {}
    for order in orders:
        for rank, item in enumerate(order, start=1):
            score[item] = score.get(item, 0.0) + 1.0 / (k + rank)
    return score
