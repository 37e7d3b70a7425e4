"""The betting search: a coordinate search over one seat's betting
parameters against a population field, in complete deals with the button
rotating, on common random numbers (:func:`coordinate_search`,
:func:`betting_search`; step 3 of :mod:`~anaconda_sim.learning.fit`), and
the paired gain of a deviating seat (:func:`deviation_gain`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..sim.simulator import simulate
from ..strategies.learned.params import (
    BET_NAMES,
    READ_BET_NAMES,
    READ_RANGES,
)
from .family import as_strategy, child_seed, one_strategy

__all__ = ["betting_search", "coordinate_search", "deviation_gain", "population_nets",
           "read_steps"]


#: betting thresholds the search multiplies and divides by _FACTOR, their
#: ranges (a bet or raise threshold above 1 never bets), and the bluff step
_THRESHOLDS = tuple(n for n in BET_NAMES if n != "bluff")
_FACTOR = 1.25
_RANGE = {"bet": (0.01, 1.01), "raise": (0.01, 1.01), "call": (0.05, 8.0)}
_BLUFF_STEP = 0.05
#: the search keeps a change whose paired gain exceeds this many standard errors
_KEEP_Z = 2.0


# ---------------------------------------------------------------- betting --
def seat_nets(players: int, seat0: Any, field_strategy: Any, deals: int, seed: int,
               stranger: Any = None, stranger_seat: int = 0) -> np.ndarray:  # fmt: skip
    """Seat 0's net chips per deal, the button rotating, the others playing
    the field (seat ``stranger_seat`` playing ``stranger``, if given)."""

    seats = [seat0] + [field_strategy] * (players - 1)
    if stranger is not None:
        seats[stranger_seat] = stranger
    result = simulate(players, seats, deals, seed=seed, records=True, progress=False)
    records = result.records
    assert records is not None
    nets: np.ndarray = records.loc[records["seat"] == 0, "net"].to_numpy(dtype=np.float64)
    return nets


def population_nets(players: int, seat0: Any, field_strategy: Any, deals: int, seed: int,
                    strangers: Sequence[str] = ()) -> np.ndarray:  # fmt: skip
    """Seat 0's net chips per deal against the betting search's population
    field: ``deals`` deals with every other seat playing ``field_strategy``,
    then, per stranger, ``deals`` deals in which one other seat plays it
    (seat 1, 2, ... in turn, an equal share each). The deals are fixed by
    ``seed``, so two calls with different ``seat0`` are paired deal by deal.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> sensible = get_strategy("sensible")
    >>> population_nets(3, sensible, sensible, 40, 1, ["call-down"]).shape
    (80,)
    """
    parts = [seat_nets(players, seat0, field_strategy, deals, seed)]
    for s, spec in enumerate(strangers):
        stranger = one_strategy(spec)
        shares = np.diff(np.linspace(0, deals, players).round().astype(int))
        for seat, share in enumerate(shares, start=1):
            if share > 0:
                parts.append(seat_nets(players, seat0, field_strategy, int(share),
                                        child_seed(seed, s + 1, seat), stranger, seat))  # fmt: skip
    return np.concatenate(parts)


def deviation_gain(players: int, deviant: Any, field_strategy: Any, deals: int,
                   seed: int) -> tuple[float, float]:  # fmt: skip
    """Mean and standard error of what one seat gains per deal by playing
    ``deviant`` instead of ``field_strategy`` in a field of
    ``field_strategy``: both on the same ``deals`` deals of ``seed``."""
    return _paired(seat_nets(players, deviant, field_strategy, deals, seed),
                   seat_nets(players, field_strategy, field_strategy, deals, seed))  # fmt: skip


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    d = a - b
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d)))


def learned_steps(params: dict[str, float]) -> list[tuple[str, float]]:
    """The learned family's betting steps: each threshold multiplied and
    divided by ``_FACTOR`` (within its range), the bluff frequency moved by
    ``_BLUFF_STEP``."""
    out = []
    for name in _THRESHOLDS:
        low, high = _RANGE[name.split("_")[0]]
        for factor in (1 / _FACTOR, _FACTOR):
            value = round(min(max(params[name] * factor, low), high), 6)
            if value != round(params[name], 6):
                out.append((name, value))
    out.extend(_bluff_steps(params))
    return out


#: the board-reading betting's steps: a margin moves by _MARGIN_STEP (within
#: its range), a call factor is multiplied and divided by _FACTOR, a bluff
#: frequency moves by _READ_BLUFF_STEP
_MARGIN_STEP = 0.1
_READ_BLUFF_STEP = 0.02


def read_steps(params: dict[str, float]) -> list[tuple[str, float]]:
    """The board-reading betting's steps (``"learned"``): each bet and raise
    margin moved by ``_MARGIN_STEP``, each call factor multiplied and
    divided by ``_FACTOR``, each bluff frequency moved by ``_READ_BLUFF_STEP``,
    all within the parameters' ranges.

    Examples
    --------
    >>> from anaconda_sim.strategies.learned.params import READ_DEFAULTS
    >>> len(read_steps(READ_DEFAULTS))
    22
    """
    out = []
    for name in READ_BET_NAMES:
        value = params[name]
        kind = name.split("_")[0]
        if kind in ("bet", "raise"):
            moves = [value - _MARGIN_STEP, value + _MARGIN_STEP]
        elif kind == "call":
            moves = [value / _FACTOR, value * _FACTOR]
        else:
            moves = [value - _READ_BLUFF_STEP, value + _READ_BLUFF_STEP]
        allowed = READ_RANGES[name]
        for move in moves:
            move = round(move, 6)
            if allowed.low <= move <= allowed.high and move != round(value, 6):
                out.append((name, move))
    return out


def sensible_steps(params: dict[str, float]) -> list[tuple[str, float]]:
    """``"sensible"``'s betting steps: each category threshold one category
    up and down (0 high card .. 9, which no hand reaches), the respect of
    exposed cards switched, the bluff frequency moved by ``_BLUFF_STEP``."""
    out = []
    for name in ("aggressive_at", "continue_early", "continue_late"):
        for delta in (-1.0, 1.0):
            if 0.0 <= params[name] + delta <= 9.0:
                out.append((name, params[name] + delta))
    out.append(("respect_exposed", 1.0 - params["respect_exposed"]))
    out.extend(_bluff_steps(params))
    return out


def _bluff_steps(params: dict[str, float]) -> list[tuple[str, float]]:
    out = []
    for delta in (-_BLUFF_STEP, _BLUFF_STEP):
        value = round(params["bluff"] + delta, 6)
        if 0.0 <= value <= 0.5:
            out.append(("bluff", value))
    return out


def coordinate_search(
    players: int,
    field_strategy: Any,
    make: Any,
    params: dict[str, float],
    candidates: list[tuple[str, float]],
    deals: int,
    seed: int,
    strangers: Sequence[str] = (),
) -> tuple[dict[str, float], list[str]]:
    """One pass of a coordinate search for one seat's best betting response:
    the response's parameters and the changes kept. ``make(params)`` is the
    seat's strategy with ``params``; each candidate ``(name, value)`` is
    paired against the response as it stands (the changes kept so far), so
    a change is kept only for what it adds, and only when its paired gain
    exceeds ``_KEEP_Z`` standard errors; every candidate plays the same
    deals of the population field (:func:`population_nets`)."""
    current = population_nets(players, make(params), field_strategy, deals, seed, strangers)
    response = dict(params)
    kept: list[str] = []
    for name, value in candidates:
        if name in kept:
            continue
        trial = {**response, name: value}
        nets = population_nets(players, make(trial), field_strategy, deals, seed, strangers)
        gain, se = _paired(nets, current)
        if gain > _KEEP_Z * se and gain > 0:
            response, current = trial, nets
            kept.append(name)
    return response, kept


def betting_search(
    players: int,
    params: dict[str, float],
    table: np.ndarray,
    deals: int,
    seed: int,
    strangers: Sequence[str] = (),
) -> tuple[dict[str, float], list[str]]:
    """One pass of the learned family's betting search against the field
    ``params`` with win table ``table`` (:func:`coordinate_search`)."""
    field_strategy = as_strategy(params, table)
    return coordinate_search(players, field_strategy, lambda p: as_strategy(p, table), params,
                             learned_steps(params), deals, seed, strangers)  # fmt: skip
