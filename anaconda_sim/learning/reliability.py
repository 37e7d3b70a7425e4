"""How well an equity estimate is calibrated: predicted win probability
against the rate observed on fresh deals (:func:`calibration`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..checks import check_deals, check_int, check_players
from ..provenance import table_model
from ..sim.decisions import DecisionRows
from ..stats import Z95
from ..strategies.kinds import BOARD_READING, KIND_LEARNED
from ..strategies.learned.equitydata import shipped_equity, shipped_equity_model
from ..strategies.learned.fielddata import board_reading_sources
from ..strategies.learned.params import TABLE0, WIN_TABLE_SHAPE, WIN_TABLE_SIZE
from ..strategies.learned.reads import EQUITY_SIZE, RIVALS, equity_rows
from ..strategies.spec import Strategy, get_strategy
from .equity import EquityTables, for_each_rows

__all__ = ["ESTIMATES", "calibration"]

#: the estimates :func:`calibration` can check, and what each is
ESTIMATES = {
    "reads": "the board-reading equity estimate (own cards, what each active rival shows "
    "and did this deal, the rivals in, the round)",
    "win-table": "the product over the active rivals of the learned family's win table "
    "(own cards and what each shows; no betting read)",
}


def _win_table_estimate(rows: DecisionRows, table: np.ndarray) -> np.ndarray:
    """The win-table product of every decision, multiplied in seat order as
    :func:`~anaconda_sim.strategies.learned.winprob.win_probability` does."""
    table = table.reshape(WIN_TABLE_SHAPE)
    p = np.ones(rows.stage.size)
    for k in range(RIVALS):
        factor = table[rows.stage, rows.bucket, rows.exposures[:, k]]
        p = np.where(k < rows.rivals, p * factor, p)
    return p


def _cluster_se(frame: pd.DataFrame, observed: pd.Series) -> pd.Series:
    """The SE of each bin's observed rate (a ratio of sums over deals), with
    the decisions of one deal as one cluster: the decisions of a deal are
    not independent, so counting them as such would understate it."""
    per_deal = frame.groupby(["bin", "deal"], observed=True).agg(
        wins=("share", "sum"), n=("share", "size"))  # fmt: skip
    rate = observed.reindex(per_deal.index.get_level_values("bin")).to_numpy()
    residual = per_deal["wins"].to_numpy() - rate * per_deal["n"].to_numpy()
    grouped = pd.DataFrame({"bin": per_deal.index.get_level_values("bin"), "r2": residual**2,
                            "n": per_deal["n"].to_numpy()}).groupby("bin")  # fmt: skip
    clusters = grouped.size()
    total = grouped["n"].sum()
    var = grouped["r2"].sum() / total**2 * clusters / np.maximum(clusters - 1, 1)
    return np.sqrt(var)


def calibration(
    strategy: str | Strategy = "learned",
    players: int = 6,
    *,
    deals: int = 20_000,
    seed: int = 2027,
    estimate: str = "reads",
    tables: EquityTables | np.ndarray | None = None,
    bins: int = 10,
) -> pd.DataFrame:
    """A reliability table: an equity estimate's predicted probability of
    winning the pot, by bin, against the rate observed on fresh deals.

    Every seat plays ``strategy`` (with its betting, folds included) on
    ``deals`` deals; at every betting decision the estimate predicts the
    deciding seat's share of the pot at a showdown against the rivals active
    then, and the deal shows what it was (every seat's final hand: the kept
    five, or the best five of the seven held by a seat that folded before
    discarding). Decisions are binned by prediction; a calibrated estimate
    has ``observed`` within its CI of ``predicted`` in every bin.

    Parameters
    ----------
    strategy
        The field (every seat), a spec or a strategy.
    players
        Table size, 2 to 7.
    deals
        Fresh deals to check on.
    seed
        An int; the deals are :func:`~anaconda_sim.simulate`'s with this seed.
    estimate
        ``"reads"``: the board-reading estimate
        (:mod:`anaconda_sim.strategies.learned.reads`) with ``tables`` (default:
        the tables ``strategy``'s betting reads, for a board-reading
        ``"learned"`` or ``"learned-v2"``: its own, or those shipped with it
        for ``players``; for any other strategy ``"learned-v2"``'s shipped
        tables); ``"win-table"``: the product of
        the learned family's win table, what ``strategy`` (a learned one)
        bets on.
    tables
        ``"reads"`` only: an :class:`~anaconda_sim.learning.equity.EquityTables`
        or a flat equity array, instead of the shipped tables.
    bins
        Equal-width bins of the predicted probability on [0, 1].

    Returns
    -------
    pandas.DataFrame
        One row per bin that holds decisions: ``bin`` (its interval),
        ``decisions``, ``fraction`` (of all decisions), ``predicted`` (the mean
        prediction), ``observed`` (the mean share won), its ``se`` (deals as
        clusters), ``ci_low``, ``ci_high`` (95%) and ``gap`` (observed minus
        predicted). ``attrs`` name the model: the field, the estimate and
        where its tables came from.

    Examples
    --------
    >>> table = calibration("learned", 3, deals=300, seed=1)
    >>> list(table.columns)[:4]
    ['bin', 'decisions', 'fraction', 'predicted']
    >>> int(table["decisions"].sum()) > 0
    True
    """
    players = check_players(players)
    deals = check_deals(deals, low=2)
    seed = check_int(seed, "seed", fix="give seed as an int")
    bins = check_int(bins, "bins", low=1, high=1000)
    strategy = get_strategy(strategy)
    if estimate not in ESTIMATES:
        raise ValueError(
            f"estimate={estimate!r} is not one of {', '.join(map(repr, ESTIMATES))}"
        )
    if estimate == "win-table":
        if strategy.kind != KIND_LEARNED:
            raise ValueError(
                f"estimate='win-table' is the learned family's; strategy {strategy.spec()!r} "
                "has none: give a 'learned' strategy or estimate='reads'"
            )
        if tables is not None:
            raise ValueError("tables= is for estimate='reads'; the win table is the strategy's")
        win_table = strategy.param_array(players)[TABLE0 : TABLE0 + WIN_TABLE_SIZE].copy()
        source: Any = "the strategy's win table"
    else:
        if tables is None and strategy.name in BOARD_READING and strategy.equity:
            array, source = np.asarray(strategy.equity, dtype=np.float64), "the strategy's own"
        elif tables is None and strategy.name in BOARD_READING:
            # the tables this field's betting reads (its own field's, for "learned")
            shipped = board_reading_sources(strategy.name, players)
            array, source = shipped.equity, {"shipped": shipped.equity_model}
        elif tables is None:
            array = shipped_equity(players)
            source = {"shipped": shipped_equity_model(players)}
        elif isinstance(tables, EquityTables):
            array, source = tables.array(), {"given": tables.model}
        else:
            array = np.asarray(tables, dtype=np.float64)
            if array.shape != (EQUITY_SIZE,):
                raise ValueError(
                    f"tables has shape {array.shape}; an equity array has ({EQUITY_SIZE},) "
                    "slots (EquityTables.array())"
                )
            source = "given array"

    parts: list[pd.DataFrame] = []

    def collect(rows: DecisionRows) -> None:
        if estimate == "reads":
            u = np.empty(rows.stage.size)
            p = np.empty(rows.stage.size)
            equity_rows(array, rows.stage, rows.bucket, rows.rivals, rows.exposures,
                        rows.actions, u, p)  # fmt: skip
        else:
            p = _win_table_estimate(rows, win_table)
        parts.append(pd.DataFrame({"deal": rows.deal, "predicted": p, "share": rows.share}))

    for_each_rows(players, strategy, deals, seed, collect)
    frame = pd.concat(parts, ignore_index=True)
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.clip(np.searchsorted(edges, frame["predicted"].to_numpy(), side="right") - 1,
                    0, bins - 1)  # fmt: skip
    labels = [f"{edges[b]:.2f}-{edges[b + 1]:.2f}" for b in range(bins)]
    frame["bin"] = pd.Categorical.from_codes(index, categories=labels, ordered=True)
    grouped = frame.groupby("bin", observed=True)
    table = grouped.agg(decisions=("share", "size"), predicted=("predicted", "mean"),
                        observed=("share", "mean"))  # fmt: skip
    table["se"] = _cluster_se(frame, table["observed"])
    table.insert(1, "fraction", table["decisions"] / len(frame))
    table["ci_low"] = table["observed"] - Z95 * table["se"]
    table["ci_high"] = table["observed"] + Z95 * table["se"]
    table["gap"] = table["observed"] - table["predicted"]
    table = table.reset_index()
    table["bin"] = table["bin"].astype(str)
    table.attrs = table_model(
        "calibration", "calibration", players=players, rules="pagat", betting=True, seed=seed,
        value_unit="probability of winning the pot", strategy=strategy.spec(),
        estimate=estimate, estimate_definition=ESTIMATES[estimate], tables=source, deals=deals,
        decisions=len(frame),
        definition="at every betting decision of fresh deals in which every seat plays the "
        "strategy, the estimate's predicted probability of winning the pot against the rivals "
        "then active, against the seat's observed share of the pot at a showdown against them "
        "(final hands: the kept five, or the best five of the seven held)",
    )  # fmt: skip
    return table
