"""The learned family as its learning sees it: a strategy from a parameter
vector (:func:`as_strategy`), its passive variant (the win table's field)
and the child seeds of a run (one stream per use of the run's seed)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..strategies.kinds import KIND_CALL_DOWN, KIND_LEARNED, KIND_SENSIBLE
from ..strategies.learned.params import (
    LEARNED_DEFAULTS,
    PARAM_NAMES,
)
from ..strategies.spec import get_strategy, parse_strategies

__all__ = ["as_strategy", "passive_variant"]


#: thresholds of a seat that never bets, raises or folds (the win table's field)
_PASSIVE = {**{f"bet_r{r}": 2.0 for r in range(5)}, **{f"raise_r{r}": 2.0 for r in range(5)},
            **{f"call_r{r}": 0.0 for r in range(5)}, "bluff": 0.0}  # fmt: skip


def as_strategy(params: dict[str, float], table: np.ndarray | None = None) -> Any:
    """The win-table family (``"learned-v1"``, what :func:`~.fit.learn` fits)
    with every parameter given, and its own win table if ``table`` is given."""
    import dataclasses

    strategy = get_strategy("learned-v1", **complete_params(params))
    if table is None:
        return strategy
    return dataclasses.replace(strategy, win_table=tuple(float(x) for x in table))


def passive_variant(strategy: Any) -> Any:
    """A strategy with ``strategy``'s card play that never bets, raises or
    folds (the field of the win table: every deal reaches the showdown)."""
    import dataclasses

    if strategy.kind == KIND_LEARNED:  # its own win table, if any, goes along unused
        card_play = {k: v for k, v in strategy.param_dict().items() if k in PARAM_NAMES}
        quiet = get_strategy("learned-v1", **{**card_play, **_PASSIVE})
        return dataclasses.replace(quiet, win_table=strategy.win_table)
    if strategy.kind == KIND_SENSIBLE:
        return get_strategy("call-down")  # the same card play, never folding
    if strategy.kind == KIND_CALL_DOWN or strategy.name == "random-pass":
        return strategy
    raise ValueError(
        f"no passive variant of strategy {strategy.spec()!r}; the win table is estimated for "
        "'learned', 'sensible', 'call-down' or 'random-pass' card play"
    )


def complete_params(params: dict[str, float]) -> dict[str, float]:
    unknown = set(params) - set(PARAM_NAMES)
    if unknown:
        raise ValueError(f"unknown learned parameter {sorted(unknown)[0]!r}")
    return {name: float(params.get(name, LEARNED_DEFAULTS[name])) for name in PARAM_NAMES}


def one_strategy(spec: str) -> Any:

    found = parse_strategies(spec)
    if len(found) != 1:
        raise ValueError(f"stranger {spec!r} names {len(found)} strategies; give one per item")
    return found[0]


def child_seed(seed: int, *parts: int) -> int:
    """A child seed of the run's seed (independent streams per use)."""
    state = np.random.SeedSequence([seed, *parts]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))
