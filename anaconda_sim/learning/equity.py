"""The board-reading equity estimate, estimated by simulating a field
(:func:`estimate_equity`).

The estimate (:mod:`anaconda_sim.strategies.learned.reads`) has two tables,
each estimated on deals of its own, every seat playing the field's strategy
with its betting (folds included) and every decision a row
(:func:`~anaconda_sim.sim.decisions.decision_rows`):

1. The **factor table**, from the first ``deals`` deals: for every decision
   and every rival active at it, whether the seat's final hand beat the
   rival's (a tie half), tallied by stage, own bucket, the rival's exposure
   bucket and its action class. Each entry is shrunk toward the same cell
   with the action classes pooled, by ``prior`` pseudo-pairs, and that one
   toward 1/2 by one pseudo-pair: a cell seldom seen keeps the pooled rate,
   never a 0 or 1 by chance.
2. The **curve table**, from ``deals`` more: the decisions' factor means
   ``u`` binned in :data:`~anaconda_sim.strategies.learned.reads.CURVE_POINTS`
   bins by stage and number of rivals, each bin's observed share of the pot
   shrunk toward the plain product ``u ** rivals`` by ``prior`` pseudo-decisions,
   then made non-decreasing in ``u`` (pool-adjacent-violators, weighted by
   the bins' counts).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..checks import check_deals, check_int, check_players
from ..sim.decisions import DecisionRows, decision_rows
from ..sim.logged import LoggedChunk, play_logged
from ..strategies.learned.reads import (
    ACTION_CLASSES,
    CURVE_POINTS,
    CURVE_SHAPE,
    EQUITY_SIZE,
    FACTOR_SHAPE,
    FACTOR_SIZE,
    RIVALS,
    equity_rows,
)
from ..strategies.spec import Strategy, get_strategy
from .family import child_seed

__all__ = ["EquityTables", "estimate_equity", "for_each_rows", "stored_arrays", "table_sizes",
           "write_arrays"]


@dataclass(frozen=True)
class EquityTables:
    """The two tables of the equity estimate and what is behind each entry.

    Attributes
    ----------
    factor : ndarray
        :data:`~anaconda_sim.strategies.learned.reads.FACTOR_SHAPE`.
    curve : ndarray
        :data:`~anaconda_sim.strategies.learned.reads.CURVE_SHAPE`.
    pairs : ndarray
        Decision-and-rival pairs behind each factor entry (its shape).
    decisions : ndarray
        Decisions behind each curve point (its shape).
    model : dict
        How they were estimated: players, the field, deals, seed, prior.
    """

    factor: np.ndarray
    curve: np.ndarray
    pairs: np.ndarray
    decisions: np.ndarray
    model: dict[str, Any] = field(default_factory=dict)

    def array(self) -> np.ndarray:
        """The flat float64 array the kernels read (:data:`EQUITY_SIZE`
        slots: the factor table, then the curve table).

        Examples
        --------
        >>> tables = estimate_equity(2, "sensible", deals=200, seed=1)
        >>> tables.array().shape
        (4176,)
        """
        return np.concatenate([self.factor.ravel(), self.curve.ravel()]).astype(np.float64)


def for_each_rows(players: int, strategy: Any, deals: int, seed: int,
                  consume: Callable[[DecisionRows], Any]) -> int:  # fmt: skip
    """Play ``deals`` deals of a field playing ``strategy`` at ``players``
    seats (:func:`~anaconda_sim.sim.logged.play_logged`) and hand the
    decisions of each chunk to ``consume``; returns the deals played."""
    field_strategies = [get_strategy(strategy)] * players

    def rows_of(chunk: LoggedChunk) -> None:
        consume(decision_rows(chunk))

    return play_logged(players, field_strategies, deals, seed, rows_of)


def _factor_index(rows: DecisionRows) -> tuple[np.ndarray, np.ndarray]:
    """The factor cell of every (decision, active rival) pair and its beats."""
    active = np.arange(RIVALS)[None, :] < rows.rivals[:, None]
    cell = (rows.stage[:, None] * FACTOR_SHAPE[1] + rows.bucket[:, None]) * FACTOR_SHAPE[2]
    cell = (cell + rows.exposures) * ACTION_CLASSES + rows.actions
    return cell[active], rows.beats[active]


def _pool_adjacent_violators(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence closest to ``y`` in weighted least squares."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for value, weight in zip(y, w, strict=True):
        blocks.append([float(value), float(weight), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            total = w1 + w2
            blocks.append([(m1 * w1 + m2 * w2) / total, total, c1 + c2])
    return np.concatenate([np.full(int(c), m) for m, _, c in blocks])


def estimate_equity(
    players: int,
    strategy: str | Strategy = "learned",
    *,
    deals: int = 100_000,
    seed: int = 2026,
    prior: float = 10.0,
) -> EquityTables:
    """The equity estimate's tables for a field of ``strategy`` at ``players``
    seats, from ``deals`` deals for each table (module docstring).

    Examples
    --------
    >>> tables = estimate_equity(3, "sensible", deals=300, seed=1)
    >>> tables.factor.shape, tables.curve.shape
    ((6, 12, 8, 6), (6, 6, 20))
    >>> bool((np.diff(tables.curve, axis=2) >= 0).all())
    True
    """
    players = check_players(players)
    deals = check_deals(deals)
    seed = check_int(seed, "seed", fix="give seed as an int")
    if not (isinstance(prior, (int, float)) and 0 < prior < 1e9):
        raise ValueError(f"prior={prior!r} must be a positive number of pseudo-observations")
    strategy = get_strategy(strategy)

    wins = np.zeros(FACTOR_SIZE, dtype=np.float64)
    pairs = np.zeros(FACTOR_SIZE, dtype=np.float64)

    def tally_factor(rows: DecisionRows) -> None:
        cell, beats = _factor_index(rows)
        wins[:] += np.bincount(cell, weights=beats, minlength=FACTOR_SIZE)
        pairs[:] += 2 * np.bincount(cell, minlength=FACTOR_SIZE)

    for_each_rows(players, strategy, deals, child_seed(seed, 1), tally_factor)
    shape = FACTOR_SHAPE
    pooled = (wins.reshape(shape).sum(axis=3) / 2 + 0.5) / (pairs.reshape(shape).sum(axis=3) / 2
                                                           + 1.0)  # fmt: skip
    factor = (wins.reshape(shape) / 2 + prior * pooled[..., None]) / (
        pairs.reshape(shape) / 2 + prior)  # fmt: skip

    tables = np.concatenate([factor.ravel(), np.full(EQUITY_SIZE - FACTOR_SIZE, 0.5)])
    curve_size = int(np.prod(CURVE_SHAPE))
    sums = np.zeros(curve_size, dtype=np.float64)
    counts = np.zeros(curve_size, dtype=np.float64)

    def tally_curve(rows: DecisionRows) -> None:
        u = np.empty(rows.stage.size)
        p = np.empty(rows.stage.size)
        equity_rows(tables, rows.stage, rows.bucket, rows.rivals, rows.exposures, rows.actions,
                    u, p)  # fmt: skip
        point = np.minimum((u * CURVE_POINTS).astype(np.int64), CURVE_POINTS - 1)
        cell = (rows.stage * RIVALS + rows.rivals - 1) * CURVE_POINTS + point
        sums[:] += np.bincount(cell, weights=rows.share, minlength=curve_size)
        counts[:] += np.bincount(cell, minlength=curve_size)

    for_each_rows(players, strategy, deals, child_seed(seed, 2), tally_curve)
    centres = (np.arange(CURVE_POINTS) + 0.5) / CURVE_POINTS
    rivals = np.arange(1, RIVALS + 1)[None, :, None]
    plain = np.broadcast_to(centres[None, None, :] ** rivals, CURVE_SHAPE)
    sums3, counts3 = sums.reshape(CURVE_SHAPE), counts.reshape(CURVE_SHAPE)
    raw = (sums3 + prior * plain) / (counts3 + prior)
    curve = np.empty(CURVE_SHAPE)
    for stage in range(CURVE_SHAPE[0]):
        for k in range(CURVE_SHAPE[1]):
            curve[stage, k] = _pool_adjacent_violators(raw[stage, k], counts3[stage, k] + prior)
    model = {"players": players, "field": strategy.spec(), "deals": deals, "seed": seed,
             "prior": float(prior)}  # fmt: skip
    return EquityTables(factor, curve, (pairs.reshape(shape) / 2).astype(np.int64),
                        counts3.astype(np.int64), model)  # fmt: skip


def table_sizes(parser: argparse.ArgumentParser, text: str) -> list[int]:
    """The table sizes of a ``--players`` comma list (a usage error if not)."""
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        parser.error(f"--players {text!r} must be a comma list of table sizes")


def stored_arrays(path: Path) -> dict[str, np.ndarray]:
    """The arrays of the npz file at ``path`` (none if there is no file): the
    table sizes a command keeps when it writes others."""
    if not path.exists():
        return {}
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to ``path`` as a compressed npz, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
    os.replace(partial, path)


def store_tables(path: Path, players: int, tables: EquityTables, command: str) -> None:
    """Write the tables of ``players`` seats, with their model and the
    ``command`` that made them, into the npz file at ``path`` (the other
    table sizes in it are kept; whole or not at all)."""
    arrays = stored_arrays(path)
    arrays[f"factor_{players}"] = tables.factor
    arrays[f"curve_{players}"] = tables.curve
    arrays[f"model_{players}"] = np.array(json.dumps({**tables.model, "command": command}))
    write_arrays(path, arrays)


def main(argv: list[str] | None = None) -> int:
    """Estimate equity tables against a field: ``python -m anaconda_sim.learning.equity OUT``.

    Each table size is estimated against ``--field`` at that size and
    written as soon as it is done (the other sizes already in the file are
    kept), so an interrupted run loses no finished size. The shipped tables
    are fitted with the betting that reads them
    (``python -m anaconda_sim.learning.readfit``)."""
    parser = argparse.ArgumentParser(prog="python -m anaconda_sim.learning.equity",
                                     description=main.__doc__.splitlines()[0])  # type: ignore[union-attr]  # fmt: skip
    parser.add_argument("out", type=Path, help="the npz file to write")
    parser.add_argument("--players", default="2,3,4,5,6,7", help="table sizes (comma list)")
    parser.add_argument("--deals", type=int, default=200_000, help="deals per table")
    parser.add_argument("--field", default="learned", help="the field's strategy")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    sizes = table_sizes(parser, args.players)
    # the settings that make the numbers (where they are written does not)
    command = (f"python -m anaconda_sim.learning.equity --players {shlex.quote(args.players)} "
               f"--deals {args.deals} --field {shlex.quote(args.field)} --seed {args.seed}")
    for players in sizes:
        tables = estimate_equity(players, args.field, deals=args.deals, seed=args.seed)
        store_tables(args.out, players, tables, command)
        print(f"players={players}: {tables.model['deals']:,} deals per table -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
