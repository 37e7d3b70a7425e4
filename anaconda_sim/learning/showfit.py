"""Fitting the reveal order of ``"learned"`` (its show table) and the equity
tables its betting reads, together (:func:`fit_show`), and the command that
regenerates the shipped ones: ``python -m anaconda_sim.learning.showfit``.

The order a seat shows is worth what the field's betting makes of it, and
the field's betting reads what the field's own orders show: each round of
the fit

1. deals ``situations`` situations at the order decision (those of
   :func:`~anaconda_sim.learning.exploitability`'s ``"order"`` with
   betting: the seat and its right neighbour pass, the seat keeps its best
   five) and values each of the 120 orders of the kept five in chips, on
   ``deals`` common deals against the field as it stands
   (:func:`order_values`);
2. fits the show table to these best responses, one own-strength bucket at
   a time (an order's score is the sum of the table's entries for what it
   shows after reveal rounds 2, 3 and 4, :mod:`~anaconda_sim.strategies.learned.show`;
   the softmax fit of :func:`~anaconda_sim.learning.tables.fit_weights`, from
   the table as it stands), and moves the field to it in the first round,
   then to the mean of the fitted tables so far (fictitious play: the
   best responses to the fields before are averaged, so that the orders
   settle where a plain best-response iteration swings between hiding and
   showing), or ``step`` of the way toward the fit when ``step`` is given;
3. re-estimates the equity tables from deals of the new field
   (:func:`~anaconda_sim.learning.estimate_equity`): what a rival's exposure
   means depends on the orders the field shows.

The tables are then settled with the orders fixed
(:func:`~anaconda_sim.learning.readfit.settle_tables`). The betting's
parameters are the shipped ones throughout (their fit is
:mod:`~anaconda_sim.learning.readfit`'s); the history records, per round,
what the field's order lost against the best one on that round's
situations before the move (in-sample: an upper estimate of the order's
exploitability) and what the fitted table's choice loses on them.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import shlex
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..checks import check_deals, check_int, check_players
from ..hands.evaluator import eval_cards
from ..strategies.learned.equitydata import EQUITY_FILE
from ..strategies.learned.params import (
    EXPOSURE_BUCKETS,
    OWN_BUCKETS,
    SHOW_ROUNDS,
    SHOW_SHAPE,
    shipped_read_params,
)
from ..strategies.learned.show import keep_prior, show_features, show_prior
from ..strategies.learned.showdata import SHOW_FILE
from ..strategies.learned.winprob import OWN_BUCKET
from ..strategies.spec import Strategy, get_strategy
from .equity import (
    EquityTables,
    estimate_equity,
    store_tables,
    stored_arrays,
    table_sizes,
    write_arrays,
)
from .exploit import situation_values
from .family import child_seed
from .readfit import reads_strategy, settle_tables
from .tables import fit_weights

__all__ = [
    "KEEP_MIN_SITUATIONS", "ORDER_TEMPERATURE", "DiscardData", "OrderData", "ShowFit",
    "best_show_scores", "candidate_orders", "discard_values", "fit_keep", "fit_show",
    "fit_table", "keep_choices", "keep_policy_values", "keep_regret", "main",
    "order_policy_values", "order_values", "policy_regret", "show_strategy",
]  # fmt: skip


@dataclasses.dataclass(frozen=True)
class ShowFit:
    """The result of :func:`fit_show`: the show table (flat), the equity
    tables estimated against the field that plays it, the betting it was
    fitted with, and one history row per round."""

    players: int
    show: np.ndarray
    temperature: float
    keep: np.ndarray
    tables: EquityTables
    betting: dict[str, float]
    history: list[dict[str, Any]]

    def strategy(self) -> Strategy:
        """The fitted ``"learned"`` strategy."""
        return show_strategy(self.betting, self.tables, self.show, self.temperature, self.keep)


def show_strategy(betting: dict[str, float], tables: EquityTables, show: np.ndarray,
                  temperature: float, keep: np.ndarray | None = None,
                  name: str = "learned-v2", keep_temperature: float = 0.0) -> Strategy:  # fmt: skip
    """``name`` (a board-reading built-in) with the betting ``betting``, its
    own equity ``tables``, its own show table ``show`` (flat), drawn at
    ``temperature``, and keep table ``keep`` (``None``:
    :func:`~anaconda_sim.strategies.learned.show.keep_prior`, the best five),
    drawn at ``keep_temperature`` (0: the five of best score)."""
    strategy = reads_strategy(betting, tables, name)
    keep = keep_prior() if keep is None else keep
    array = (float(temperature), *(float(x) for x in np.ravel(show)),
             *(float(x) for x in np.ravel(keep)), float(keep_temperature))  # fmt: skip
    return dataclasses.replace(strategy, show=array)


@dataclasses.dataclass(frozen=True)
class OrderData:
    """The order decision's best-response data (:func:`order_values`).

    Attributes
    ----------
    own : ndarray
        The own-strength bucket of each situation's kept five ``(situations,)``.
    features : ndarray
        The show features of its 120 orders ``(situations, 120, 24)``
        (:func:`~anaconda_sim.strategies.learned.show.show_features`).
    values : ndarray
        Their values in chips ``(situations, 120)``.
    candidates : ndarray
        Bools ``(situations, 120)``: one order of each way of showing the
        five the kernel draws among (a hidden card and what rounds 2 and 3
        show: :func:`candidate_orders`).
    """

    own: np.ndarray
    features: np.ndarray
    values: np.ndarray
    candidates: np.ndarray


def candidate_orders(orders: np.ndarray) -> np.ndarray:
    """Which of ``orders`` (rows of one five's reveal orders, the last card
    hidden) are candidates of :func:`~anaconda_sim.strategies.learned.show.order_shown`:
    the first order of each hidden card and each way of showing ranks after
    rounds 2 and 3 (the pair the first two show, if any; the group the first
    three show, if any, and its size). Orders of one class show the same
    buckets, so the kernel scores and draws each class once.

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> import itertools
    >>> orders = np.array(list(itertools.permutations(parse_cards("Qs Qh 9c 9d 2c"))))
    >>> int(candidate_orders(orders).sum())
    16
    """
    seen: set[tuple[int, ...]] = set()
    keep = np.zeros(len(orders), dtype=bool)
    for k, order in enumerate(np.asarray(orders).tolist()):
        ranks = [c >> 2 for c in order[:3]]
        pair2 = ranks[0] if ranks[0] == ranks[1] else -1
        top = max(ranks, key=lambda r: (ranks.count(r), r))
        size3 = ranks.count(top) if ranks.count(top) > 1 else 0
        key = (order[4], pair2, size3, top if size3 else -1)
        if key not in seen:
            seen.add(key)
            keep[k] = True
    return keep


def order_values(players: int, field: Strategy, situations: int, deals: int,
                 seed: int, indices: Sequence[int] | np.ndarray | None = None,
                 ) -> OrderData:  # fmt: skip
    """The order decision's best-response data against ``field``: the
    situations of :func:`~anaconda_sim.learning.exploitability`'s ``"order"``
    with betting (``situations`` of them, or those numbered ``indices``:
    :func:`~anaconda_sim.learning.exploit.stratified_situations`), every
    order valued on ``deals`` common deals each.

    Examples
    --------
    >>> data = order_values(3, "sensible", 2, 40, 1)
    >>> data.own.shape, data.features.shape, data.values.shape
    ((2,), (2, 120, 24), (2, 120))
    """
    numbers = list(range(situations)) if indices is None else [int(k) for k in indices]
    situations = len(numbers)
    own = np.empty(situations, dtype=np.int64)
    features = np.empty((situations, 120, SHOW_ROUNDS * EXPOSURE_BUCKETS))
    values = np.empty((situations, 120))
    candidates = np.empty((situations, 120), dtype=bool)
    for i, number in enumerate(numbers):
        orders, row = situation_values(field, players, "order", seed, number, deals, betting=True)
        five = np.asarray(orders[0], dtype=np.int64)
        own[i] = OWN_BUCKET[eval_cards(five, len(five))]
        features[i] = show_features(orders)
        values[i] = row
        candidates[i] = candidate_orders(orders)
    return OrderData(own, features, values, candidates)


def fit_table(show: np.ndarray, data: OrderData, temperature: float) -> np.ndarray:
    """The show table fitted to the best responses of ``data``, one own
    bucket at a time from its rows of ``show`` (a bucket with no situation
    keeps its rows): the softmax policy over each situation's candidates at
    ``temperature`` (the draw the kernel makes) of the greatest value
    (:func:`~anaconda_sim.learning.tables.fit_weights`)."""
    fitted = np.array(show, dtype=np.float64).reshape(OWN_BUCKETS, -1)
    for bucket in range(OWN_BUCKETS):
        rows = data.own == bucket
        if rows.any():
            fitted[bucket] = fit_weights(data.features[rows], data.values[rows], fitted[bucket],
                                         tau_end=temperature,
                                         available=data.candidates[rows])  # fmt: skip
    return fitted.ravel()


def policy_regret(show: np.ndarray, temperature: float, data: OrderData) -> float:
    """What the reveal order drawn from the show table ``show`` at
    ``temperature`` (the kernel's draw; 0: the first best) loses in the
    mean over the situations of ``data`` against each one's best order
    (chips)."""
    best = np.where(data.candidates, data.values, -np.inf).max(axis=1)
    return float(np.mean(best - order_policy_values(show, temperature, data)))


@dataclasses.dataclass(frozen=True)
class DiscardData:
    """The discard decision's best-response data (:func:`discard_values`):
    per situation, the 21 fives kept (each in the field's order of it), the
    features the keep table scores them by ``(situations, 21, 13)``: the
    own bucket of each five (one-hot) and its best show score under the
    show table, their values in chips ``(situations, 21)`` and their hand
    values ``(situations, 21)`` (the kernel's tie-break: ``None`` when not
    known, then ties go to the first five)."""

    features: np.ndarray
    values: np.ndarray
    strength: np.ndarray | None = None


def best_show_scores(fives: np.ndarray, show: np.ndarray) -> np.ndarray:
    """The best show score of each five (rows of ``fives``, ``(n, 5)``)
    under the show table ``show``: the score of the order
    :func:`~anaconda_sim.strategies.learned.show.order_shown` plays at
    temperature 0."""
    table = np.asarray(show).reshape(OWN_BUCKETS, -1)
    perms = np.array(list(itertools.permutations(range(5))))
    every = np.asarray(fives, dtype=np.int64)[:, perms]  # (n, 120, 5)
    features = show_features(every)
    own = np.array([OWN_BUCKET[eval_cards(f, 5)] for f in np.asarray(fives, dtype=np.int64)])
    return np.einsum("nkf,nf->nk", features, table[own]).max(axis=1)


def discard_values(players: int, field: Strategy, show: np.ndarray, situations: int,
                   deals: int, seed: int,
                   indices: Sequence[int] | np.ndarray | None = None,
                   ) -> DiscardData:  # fmt: skip
    """The discard decision's best-response data against ``field`` (which
    shows by ``show``): the situations of
    :func:`~anaconda_sim.learning.exploitability`'s ``"discard"`` with
    betting (``situations`` of them, or those numbered ``indices``), every
    discard valued on ``deals`` common deals each."""
    numbers = list(range(situations)) if indices is None else [int(k) for k in indices]
    situations = len(numbers)
    features = np.zeros((situations, 21, OWN_BUCKETS + 1))
    values = np.empty((situations, 21))
    strength = np.empty((situations, 21), dtype=np.int64)
    for i, number in enumerate(numbers):
        fives, row = situation_values(field, players, "discard", seed, number, deals,
                                      betting=True)  # fmt: skip
        strength[i] = [eval_cards(np.asarray(f, dtype=np.int64), 5) for f in fives]
        features[i, np.arange(21), OWN_BUCKET[strength[i]]] = 1.0
        features[i, :, OWN_BUCKETS] = best_show_scores(fives, show)
        values[i] = row
    return DiscardData(features, values, strength)


#: the temperature of the field's draw of its reveal order, unless a fit is
#: told another (``fit_show``, ``learn_field`` and their commands)
ORDER_TEMPERATURE = 0.3

#: a keep table's bucket entry is fitted only when at least this many
#: situations offer a five of that bucket; the others keep their entries
KEEP_MIN_SITUATIONS = 20


def fit_keep(keep: np.ndarray, data: DiscardData, *,
             min_situations: int = KEEP_MIN_SITUATIONS,
             temperature: float = 0.0) -> np.ndarray:  # fmt: skip
    """The keep table fitted to the discard's best responses (the softmax
    fit, annealed to a near-argmax policy, as the kernel's choice is the
    best five by the table, or to the softmax at ``temperature`` when it is
    above 0: the draw the kernel then makes), its show weight kept at 0 or
    more.

    No weight penalty: the entries are scores on one scale, and a penalty
    pulls them toward each other, which changes which five is kept. An own
    bucket that fewer than ``min_situations`` situations offer keeps its
    entry: the fit cannot place it from so few, and at six players the
    first rounds' fits swung the field's discard through such entries
    (in-sample losses of 0.30, 4.10, then 1.38 chips per deal).

    Examples
    --------
    >>> features = np.zeros((30, 21, OWN_BUCKETS + 1))
    >>> features[:, :20, 3] = 1.0  # every situation offers buckets 3 and 5
    >>> features[:, 20, 5] = 1.0
    >>> values = np.zeros((30, 21))
    >>> values[:, 20] = 1.0  # and keeping the bucket-5 five is best
    >>> fitted = fit_keep(keep_prior(), DiscardData(features, values))
    >>> bool(fitted[5] - fitted[3] > 2.0), float(fitted[7])  # bucket 7 unseen: kept
    (True, 7.0)
    """
    start = np.asarray(keep, dtype=np.float64)
    if temperature > 0:
        fitted = fit_weights(data.features, data.values, start, l2=0.0, tau_end=temperature)
    else:
        fitted = fit_weights(data.features, data.values, start, l2=0.0)
    offered = data.features[:, :, :OWN_BUCKETS].any(axis=1).sum(axis=0)
    rare = offered < min_situations
    fitted[:OWN_BUCKETS][rare] = start[:OWN_BUCKETS][rare]
    fitted[OWN_BUCKETS] = max(fitted[OWN_BUCKETS], 0.0)
    return fitted


def keep_choices(keep: np.ndarray, data: DiscardData) -> np.ndarray:
    """The five the kernel keeps in each situation of ``data`` under the keep
    table ``keep``: the best score, ties to the higher hand value (then the
    first), as :func:`~anaconda_sim.strategies.learned.show.discard_shown`."""
    scores = data.features @ np.asarray(keep, dtype=np.float64)
    top = scores == scores.max(axis=1, keepdims=True)
    if data.strength is None:
        return np.argmax(top, axis=1)
    return np.argmax(np.where(top, data.strength, -1), axis=1)


def keep_regret(keep: np.ndarray, data: DiscardData, temperature: float = 0.0) -> float:
    """What the five the keep table picks (drawn at ``temperature``, its
    expected value) loses against each situation's best (chips, in the mean
    over the situations of ``data``)."""
    worth = keep_policy_values(keep, temperature, data)
    return float(np.mean(data.values.max(axis=1) - worth))


def keep_policy_values(keep: np.ndarray, temperature: float, data: DiscardData) -> np.ndarray:
    """Each situation's value (chips) of the five the keep table keeps: at
    ``temperature`` 0 the five :func:`keep_choices` names, above it the
    expected value of the kernel's draw (weights ``exp((score - best) /
    temperature)``): ``(situations,)``.

    Examples
    --------
    >>> features = np.zeros((1, 21, OWN_BUCKETS + 1))
    >>> features[0, :, 0] = 1.0
    >>> values = np.zeros((1, 21))
    >>> values[0, 0] = 21.0  # one five worth 21 chips, the others nothing, all scored alike
    >>> data = DiscardData(features, values)
    >>> keep_policy_values(keep_prior(), 0.0, data).tolist(), keep_policy_values(
    ...     keep_prior(), 0.5, data).round(6).tolist()
    ([21.0], [1.0])
    """
    if temperature <= 0:
        rows = np.arange(len(data.values))
        return np.asarray(data.values[rows, keep_choices(keep, data)], dtype=np.float64)
    scores = data.features @ np.asarray(keep, dtype=np.float64)
    return _drawn_values(scores, data.values, temperature)


def _drawn_values(scores: np.ndarray, values: np.ndarray, temperature: float) -> np.ndarray:
    """Each row's expected value of a choice drawn with weight ``exp((score -
    best) / temperature)`` (a choice scored ``-inf`` is never drawn; its
    value must still be finite): ``(rows,)`` from ``scores`` and ``values``
    ``(rows, choices)``."""
    weights = np.exp((scores - scores.max(axis=1, keepdims=True)) / temperature)
    weights /= weights.sum(axis=1, keepdims=True)
    return np.asarray((weights * values).sum(axis=1))


def order_policy_values(show: np.ndarray, temperature: float, data: OrderData) -> np.ndarray:
    """Each situation's expected value (chips) of the reveal order drawn from
    the show table ``show`` at ``temperature`` (the kernel's draw over its
    candidates; 0: the first best): ``(situations,)``."""
    table = np.asarray(show).reshape(OWN_BUCKETS, -1)
    scores = np.einsum("skf,sf->sk", data.features, table[data.own])
    scores = np.where(data.candidates, scores, -np.inf)
    rows = np.arange(len(scores))
    if temperature <= 0:
        return np.asarray(data.values[rows, np.argmax(scores, axis=1)], dtype=np.float64)
    return _drawn_values(scores, np.where(data.candidates, data.values, 0.0), temperature)


def fit_show(
    players: int,
    *,
    rounds: int = 12,
    situations: int = 400,
    deals: int = 300,
    table_deals: int = 100_000,
    settle: int = 1,
    step: float | None = None,
    temperature: float = ORDER_TEMPERATURE,
    discard_situations: int = 200,
    seed: int = 2026,
    log: Any = None,
) -> ShowFit:
    """Fit the show table and the equity tables at ``players`` seats (module
    docstring): ``rounds`` rounds of ``situations`` situations valued on
    ``deals`` deals each, the tables re-estimated on ``table_deals`` deals
    after each and settled ``settle`` times at the end. ``log`` (a
    callable) is told each round.

    Examples
    --------
    >>> fit = fit_show(2, rounds=1, situations=3, deals=20, table_deals=200, settle=1,
    ...                discard_situations=2, seed=1)
    >>> fit.show.shape, len(fit.history)
    ((288,), 1)
    """
    players = check_players(players)
    check_int(rounds, "rounds", low=1)
    check_int(situations, "situations", low=2)
    check_deals(deals, low=2)
    check_deals(table_deals)
    check_int(settle, "settle", low=0)
    check_int(discard_situations, "discard_situations", low=0)
    if not 0.0 <= temperature < 10.0:
        raise ValueError(f"temperature={temperature!r} must be in [0, 10): the order's draw "
                         "(0: the order of best score)")  # fmt: skip
    seed = check_int(seed, "seed", fix="give seed as an int")
    if step is not None and not 0.0 < step <= 1.0:
        raise ValueError(f"step={step!r} must be in (0, 1] (how far the field moves toward the "
                         "fit) or None (the mean of the fits so far)")  # fmt: skip
    betting = shipped_read_params(players)
    show = show_prior()
    keep = keep_prior()
    # the first tables: the shipped field (its betting and tables) showing the prior's orders
    shipped = dataclasses.replace(get_strategy("learned", **betting),
                                  show=(temperature, *show, *keep))  # fmt: skip
    tables = estimate_equity(players, shipped, deals=table_deals, seed=child_seed(seed, 0))
    history: list[dict[str, Any]] = []
    for r in range(rounds):
        began = time.perf_counter()
        field = show_strategy(betting, tables, show, temperature, keep)
        data = order_values(players, field, situations, deals, child_seed(seed, 1, r))
        before = policy_regret(show, temperature, data)
        fitted = fit_table(show, data, temperature)
        rate = 1.0 if r == 0 else (1.0 / (r + 1) if step is None else step)
        keep_before = keep_after = math.nan
        if discard_situations:
            # the discard's best response, against the same field
            discards = discard_values(players, field, show, discard_situations, deals,
                                      child_seed(seed, 3, r))  # fmt: skip
            fitted_keep = fit_keep(keep, discards)
            keep_before = keep_regret(keep, discards)
            keep_after = keep_regret(fitted_keep, discards)
            keep = keep + rate * (fitted_keep - keep)
        show = show + rate * (fitted - show)
        tables = estimate_equity(players, show_strategy(betting, tables, show, temperature, keep),
                                 deals=table_deals, seed=child_seed(seed, 2, r))  # fmt: skip
        row = {"round": r, "field_regret": before,
               "fit_regret": policy_regret(fitted, temperature, data),
               "moved_regret": policy_regret(show, temperature, data),
               "discard_field_regret": keep_before, "discard_fit_regret": keep_after,
               "seconds": round(time.perf_counter() - began, 1)}  # fmt: skip
        history.append(row)
        if log is not None:
            log(f"players={players} round {r}: the field's order lost {before:.3f} chips per "
                f"deal on its situations, the fitted table's {row['fit_regret']:.3f}")  # fmt: skip
    final = tables
    if settle:
        final = _settle(players, betting, tables, show, temperature, keep, settle, table_deals,
                        seed)  # fmt: skip
    return ShowFit(players, show, temperature, keep, final, betting, history)


def _settle(players: int, betting: dict[str, float], tables: EquityTables, show: np.ndarray,
            temperature: float, keep: np.ndarray, iterations: int, table_deals: int,
            seed: int) -> EquityTables:  # fmt: skip
    """:func:`~anaconda_sim.learning.readfit.settle_tables` with the field
    showing ``show``."""
    def field(t: EquityTables) -> Strategy:
        return show_strategy(betting, t, show, temperature, keep)

    return settle_tables(players, betting, tables, iterations, table_deals, seed, field=field)


def main(argv: list[str] | None = None) -> int:
    """Fit show tables and the equity tables read with them, table size by size.

    Each table size is fitted (:func:`fit_show`) and written as soon as it is
    done, the show table to ``--show-out`` and the equity tables to
    ``--tables-out`` (the other sizes in the files are kept), so an
    interrupted run loses no finished size. The defaults are a work folder,
    ``show-fit/``: the package's ``show.npz`` and ``equity.npz`` are what
    ``"learned-v2"`` plays, so they change only when named."""
    parser = argparse.ArgumentParser(prog="python -m anaconda_sim.learning.showfit",
                                     description=main.__doc__.splitlines()[0])  # type: ignore[union-attr]  # fmt: skip
    work = Path("show-fit")
    parser.add_argument("--show-out", type=Path, default=work / Path(SHOW_FILE).name,
                        help=f"(default show-fit/show.npz; the package's {SHOW_FILE} is "
                        "read by learned-v2)")  # fmt: skip
    parser.add_argument("--tables-out", type=Path, default=work / Path(EQUITY_FILE).name,
                        help=f"(default show-fit/equity.npz; the package's {EQUITY_FILE} is "
                        "learned-v2's)")  # fmt: skip
    parser.add_argument("--players", default="2,3,4,5,6,7", help="table sizes (comma list)")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--situations", type=int, default=400)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--table-deals", type=int, default=100_000)
    parser.add_argument("--settle", type=int, default=1)
    parser.add_argument("--step", type=float, default=None,
                        help="how far the field moves toward each fit after the first round "
                        "(default: to the mean of the fits so far)")  # fmt: skip
    parser.add_argument("--temperature", type=float, default=ORDER_TEMPERATURE,
                        help="the temperature of the field's draw of its order")  # fmt: skip
    parser.add_argument("--discard-situations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    sizes = table_sizes(parser, args.players)
    command = (f"python -m anaconda_sim.learning.showfit --players {shlex.quote(args.players)} "
               f"--rounds {args.rounds} --situations {args.situations} --deals {args.deals} "
               f"--table-deals {args.table_deals} --settle {args.settle} "
               f"--temperature {args.temperature:g} "
               f"--discard-situations {args.discard_situations} "
               + ("" if args.step is None else f"--step {args.step:g} ")
               + f"--seed {args.seed}")  # fmt: skip
    for players in sizes:
        fit = fit_show(players, rounds=args.rounds, situations=args.situations, deals=args.deals,
                       table_deals=args.table_deals, settle=args.settle, step=args.step,
                       temperature=args.temperature,
                       discard_situations=args.discard_situations, seed=args.seed,
                       log=print)  # fmt: skip
        model = {"players": players, "command": command, "history": fit.history,
                 "betting": fit.betting, "field": fit.strategy().spec()}  # fmt: skip
        shows = stored_arrays(args.show_out)
        shows[f"show_{players}"] = fit.show.reshape(SHOW_SHAPE)
        shows[f"temperature_{players}"] = np.array(fit.temperature)
        shows[f"keep_{players}"] = fit.keep
        shows[f"model_{players}"] = np.array(json.dumps(model))
        write_arrays(args.show_out, shows)
        store_tables(args.tables_out, players, fit.tables, command)
        print(f"players={players}: written to {args.show_out} and {args.tables_out}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
