"""Computing work units: every hand of a unit analysed by the analysis functions.

A unit's table is the analysis tables of its hands, one under the other,
with the grid coordinates in front (long format: one row per hand and
choice). The analysis of a hand is exactly the direct call
``equity(hand, players, opponents=..., deals=..., seed=hand_seed)`` (or
``pass_values`` ...), so any row can be reproduced from its ``hand_seed``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .. import analysis
from ..cards import SUIT_SYMBOLS, SUITS
from ..hands.classes import hand_classes, representative, sample_hands
from ..hands.evaluator import CATEGORY_COLUMNS
from ..stats import Z95
from ..strategies.spec import Strategy, parse_strategies
from .spec import DEFAULT_HERO, Slot, SweepSpec, Unit, derive_seed

__all__ = ["COORDINATES", "compute_unit", "hand_seed", "slot_hand", "summarize_classes"]

#: the columns in front of every result row, with their dtypes
COORDINATES: dict[str, str] = {
    "unit": "int64",
    "kind": "str",
    "rules": "str",
    "players": "int64",
    "opponents": "str",
    "target_deals": "Int64",
    "target_precision": "float64",
    "seed": "int64",
    "hand_class": "str",
    "class_id": "Int64",
    "sample": "Int64",
    "hand": "str",
    "hand_seed": "int64",
}


_ASCII_SUITS = str.maketrans({s: a for s, a in zip(SUIT_SYMBOLS, SUITS, strict=True)})


def slot_hand(slot: Slot, seed: int) -> str:
    """The hand a slot plays: explicit, the class representative, or a class sample.

    Sample ``j`` of a class is drawn with a seed derived from the base seed,
    the class and ``j`` only, so the same hands play at every grid point.
    """

    if slot.hand is not None:
        return slot.hand
    if slot.sample is None:
        return representative(int(slot.hand_class))  # type: ignore[arg-type]
    sample_seed = derive_seed(seed, "class sample", slot.hand_class, slot.sample)
    return sample_hands(int(slot.hand_class), 1, seed=sample_seed)[0]  # type: ignore[arg-type]


def hand_seed(unit: Unit, slot: Slot) -> int:
    """The seed of one hand's analysis: base seed + grid point + the hand's identity."""
    who: list[Any] = ["hand", slot.hand] if slot.hand is not None else [
        "class", slot.hand_class, slot.sample,
    ]  # fmt: skip
    # the default rules' seeds are those of specs written before rules were a key
    rules = [] if unit.rules == "pagat" else ["rules", unit.rules]
    return derive_seed(unit.seed, unit.kind, unit.players, unit.opponents, unit.deals,
                       unit.precision, *rules, *who)  # fmt: skip


_EQUITY_COLUMNS = ("stage", "hero_pass", "players", "equity", "se", "ci_low", "ci_high", "deals",
                   "high_share", "low_share")  # fmt: skip


def _analyse(spec: SweepSpec, unit: Unit, hand: str, seed: int) -> pd.DataFrame:

    # one strategy for every seat, or one per seat (with parameters: "name:key=value,...")
    seats = parse_strategies(unit.opponents)
    opponents: Strategy | list[Strategy] = seats[0] if len(seats) == 1 else seats
    common: dict[str, Any] = {
        "opponents": opponents, "deals": unit.deals, "precision": unit.precision,
        "max_deals": spec.max_deals, "seed": seed, "progress": False, "rules": unit.rules,
    }  # fmt: skip
    betting: dict[str, Any] = {} if spec.betting is None else {"betting": spec.betting}
    # the sweep's own default hero, never the analyses' (see DEFAULT_HERO)
    hero = parse_strategies(spec.hero or DEFAULT_HERO)[0]
    if unit.kind == "equity":
        table = analysis.equity(hand, unit.players, hero=hero, **common)
        # a sweep's equity rows keep their own schema (the shipped data's):
        # the value is called equity, and a single row has no ranking
        table = table.rename(columns={"value": "equity"})
        table = table[[c for c in _EQUITY_COLUMNS if c in table] + list(CATEGORY_COLUMNS)]
    elif unit.kind == "pass":
        table = analysis.pass_values(hand, unit.players, unicode=spec.unicode, **betting, hero=hero,
                                     **common)  # fmt: skip
    elif unit.kind == "discard":
        # a sweep keeps one row per choice, whatever the hand's suit symmetries
        table = analysis.discard_values(hand, unit.players, unicode=spec.unicode, fold=False,
                                        hero=hero, **common)  # fmt: skip
    else:
        table = analysis.reveal_values(hand, unit.players, unicode=spec.unicode, fold=False,
                                       **betting, hero=hero, **common)  # fmt: skip
    if "deals" not in table:
        table["deals"] = int(table.attrs.get("deals", 0))
    return table


def compute_unit(spec: SweepSpec, unit: Unit, threads: int | None = None) -> pd.DataFrame:
    """The long-format table of one unit.

    Parameters
    ----------
    spec, unit
        The sweep and one of its :meth:`~SweepSpec.units`.
    threads
        numba threads for the analyses (``None``: leave as is). Distributed
        workers use 1: the workers are the parallelism.

    Examples
    --------
    >>> spec = SweepSpec(kind="equity", players=3, hand_classes=["AA/K"], deals=300)
    >>> table = compute_unit(spec, spec.units()[0])
    >>> table[["players", "hand_class", "hand", "deals"]].to_dict("records")
    [{'players': 3, 'hand_class': 'AA/K', 'hand': 'Ad Ac Kc Jd 7h 3h 2s', 'deals': 300}]
    """
    if threads is not None:
        import numba

        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))

    names = hand_classes()["name"] if any(s.hand_class is not None for s in unit.slots) else None
    tables, lengths, coords = [], [], []
    for slot in unit.slots:
        hand = slot_hand(slot, unit.seed)
        seed = hand_seed(unit, slot)
        table = _analyse(spec, unit, hand, seed)
        tables.append(table)
        lengths.append(len(table))
        coords.append((
            None if slot.hand_class is None else names.iat[slot.hand_class],  # type: ignore[union-attr]
            slot.hand_class, slot.sample, hand, seed,
        ))  # fmt: skip
    body = pd.concat(tables, ignore_index=True)
    body = body.drop(columns=[c for c in COORDINATES if c in body])
    if "hero_pass" in body and not spec.unicode:  # equity writes its pass in symbols
        body["hero_pass"] = body["hero_pass"].str.translate(_ASCII_SUITS)
    repeat = np.repeat(np.arange(len(coords)), lengths)
    columns: dict[str, Any] = {
        "unit": unit.index, "kind": unit.kind, "rules": unit.rules, "players": unit.players,
        "opponents": unit.opponents, "target_deals": unit.deals,
        "target_precision": np.nan if unit.precision is None else unit.precision,
        "seed": unit.seed,
    }  # fmt: skip
    for i, name in enumerate(("hand_class", "class_id", "sample", "hand", "hand_seed")):
        columns[name] = [coords[r][i] for r in repeat]
    front = pd.DataFrame(columns, index=body.index)
    front = front.astype({k: v for k, v in COORDINATES.items()})
    frame = pd.concat([front, body], axis=1)
    frame.attrs = {}
    return frame


def summarize_classes(frame: pd.DataFrame) -> pd.DataFrame:
    """Class averages of an equity sweep over hand classes.

    With sampled hands (``samples_per_class = m``) the class equity is the
    mean over the ``m`` hands, an unbiased estimate of the equity of a hand
    drawn uniformly from the class; its ``se`` is the standard deviation of
    the per-hand estimates over ``sqrt(m)`` (which holds both the deal noise
    and the spread of hands within the class). With representatives only it
    is the representative's row.

    Returns
    -------
    pandas.DataFrame
        One row per grid point and class: the coordinates, ``family``,
        ``class_probability``, ``hands``, ``equity``, ``se``, ``ci_low``,
        ``ci_high``, ``deals`` (all hands), ``hand_sd`` (spread of the
        per-hand equities, NaN for one hand); under the hi-lo rules also
        ``high_share`` and ``low_share`` (class means of the pot share
        taken in each half).

    Examples
    --------
    >>> spec = SweepSpec(kind="equity", players=3, hand_classes=["AA/K"], samples_per_class=3,
    ...                  deals=300)
    >>> summary = summarize_classes(compute_unit(spec, spec.units()[0]))
    >>> summary[["hand_class", "hands", "deals"]].to_dict("records")
    [{'hand_class': 'AA/K', 'hands': 3, 'deals': 900}]
    """

    rows = frame[(frame["kind"] == "equity") & frame["class_id"].notna()]
    if rows.empty:
        raise ValueError("no equity rows of hand classes to summarise")
    keys = ["kind", "rules", "players", "opponents", "target_deals", "target_precision",
            "seed", "class_id", "hand_class"]  # fmt: skip
    # exported datasets may leave out derivable grid columns (data/README.md)
    keys = [key for key in keys if key in rows.columns]
    groups = rows.groupby(keys, dropna=False, sort=True)
    out = groups.agg(
        hands=("equity", "size"), equity=("equity", "mean"), hand_sd=("equity", "std"),
        deals=("deals", "sum"), single_se=("se", "first"),
    ).reset_index()  # fmt: skip
    out["se"] = np.where(out["hands"] > 1, out["hand_sd"] / np.sqrt(out["hands"]),
                         out["single_se"])  # fmt: skip
    out["ci_low"] = out["equity"] - Z95 * out["se"]
    out["ci_high"] = out["equity"] + Z95 * out["se"]
    info = hand_classes().set_index("class_id")
    out.insert(out.columns.get_loc("hand_class") + 1, "family",
               info["family"].reindex(out["class_id"].astype(int)).to_numpy())  # fmt: skip
    out.insert(out.columns.get_loc("family") + 1, "class_probability",
               info["probability"].reindex(out["class_id"].astype(int)).to_numpy())  # fmt: skip
    order = [*keys, "family", "class_probability", "hands", "equity", "se", "ci_low",
             "ci_high", "deals", "hand_sd"]  # fmt: skip
    halves = [c for c in ("high_share", "low_share") if c in rows and rows[c].notna().any()]
    if halves:  # hi-lo: the class means of the pot share taken in each half
        means = groups[halves].mean().reset_index(drop=True)
        out[halves] = means.to_numpy()
        order += halves
    return out[order]
