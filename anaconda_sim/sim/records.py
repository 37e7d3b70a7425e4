"""Per-deal records of the batch simulator, as columns, in memory or streamed to Parquet.

The deal kernel copies each deal's results and every seat's cards into
flat integer arrays (:func:`~anaconda_sim.sim.kernels.deal.run_batches`,
``rec_*``); :func:`records_frame` turns one chunk of them into a columnar
:class:`pandas.DataFrame` with numpy arithmetic, one row per deal and seat
(per deal, choice and seat for :func:`~anaconda_sim.sim.simulator.score_choices`).
No column holds Python objects: cards are ``int8`` card indices
(``4 * rank + suit``, -1 for none), hand categories are ordered categoricals
of :data:`~anaconda_sim.hands.evaluator.CATEGORY_KEYS`, so a row takes about
50 bytes.

Columns
-------
``deal`` (int64)
    The deal index: replays in the reference engine as
    ``play_deal(rules, strategies, key=..., deal_index=deal, dealer=dealer)``.
``choice`` (int16, :func:`score_choices` only)
    The row of ``choices`` forced on the hero in this play of the deal.
``seat`` (int8), ``dealer`` (int8), ``strategy`` (category)
    The seat, the dealer of the deal (R6) and the seat's strategy name.
``pot`` (int32), ``showdown`` (bool), ``win_category`` (category)
    The deal's final pot, whether it reached the showdown, and the category
    of the winning hand there (``NA`` when everybody else folded). The same
    on every row of a deal.
``winner`` (bool), ``net`` (int32)
    Whether the seat took or shared the pot, and its net chips (pot share
    minus everything it put in, ante included).
``fold_round`` (int8)
    The betting round the seat folded in, 1 to the number of rounds; 0 if
    it never folded.
``value`` (int16), ``category`` (category)
    The seat's hand value and category at the showdown (-1 and ``NA``
    without one).
``dealt_0`` .. ``dealt_6`` (int8)
    The seven cards dealt to the seat, in the order dealt (R5).
``passed_0`` .. ``passed_5`` (int8)
    Every card the seat passed, pass after pass, in order (-1 after the last).
``hand_0`` .. ``hand_6`` (int8)
    The cards held at the end: after a discard, the kept five in reveal
    order (``hand_5``, ``hand_6`` are -1); without one, the seven.
``discard_0``, ``discard_1`` (int8)
    The two discards (-1 without a discard, e.g. after folding first).
``missed`` (bool, :func:`score_choices` only)
    The forced choice could not be applied (the hero did not hold its cards).

Chip columns are int64 instead of int32 when the rules allow a pot of
``2**31`` chips or more. The deck of a deal in deal order (the engine's
``deck``) is ``dealt_j`` of the seat ``(dealer + 1 + i) % players`` at
position ``j * players + i``.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..hands.evaluator import CATEGORY_KEYS
from ..provenance import META_KEY, encode, provenance
from ..stats import SHARE_SCALE, Z95
from ..table import views as V
from ..table.rules import Rules
from . import layout as L

__all__ = [
    "CATEGORY_DTYPE",
    "OUTCOMES",
    "RECORD_CHUNK",
    "MemoryRecords",
    "OutcomeTally",
    "ParquetRecords",
    "outcome_table",
    "records_frame",
]

#: Deal plays (deals x choices) per kernel call when records are kept: about
#: 60 MiB of raw kernel output for 7 players, whatever the number of deals.
RECORD_CHUNK = 1 << 16
#: Hand categories in records: ordered, so ``win_category >= "flush"`` works.
CATEGORY_DTYPE = pd.CategoricalDtype(list(CATEGORY_KEYS), ordered=True)
#: Outcomes of a deal, in the order of :func:`outcome_table`'s rows.
OUTCOMES: tuple[str, ...] = ("no_showdown", *CATEGORY_KEYS)
#: Cards per seat in each card group of a record.
_CARD_GROUPS = (("passed", 6), ("hand", 7), ("discard", 2))


def chip_dtype(rules: Rules) -> type[np.signedinteger[Any]]:
    """int32 for chip columns unless the rules allow a pot of ``2**31`` chips."""
    most = rules.players * (rules.ante + rules.betting_rounds * rules.max_level * rules.bet)
    return np.int32 if most < 2**31 else np.int64


def _categories(codes: np.ndarray) -> pd.Categorical:
    """Category codes 0..8 (-1: none) as an ordered categorical."""
    return pd.Categorical.from_codes(codes.astype(np.int8), dtype=CATEGORY_DTYPE)


def records_frame(
    raw: dict[str, np.ndarray], count: int, first_deal: int, rules: Rules,
    strategies: list[str], *, choices: bool, missed: bool,
) -> pd.DataFrame:  # fmt: skip
    """The records of ``count`` deals from the kernel's ``rec_*`` arrays.

    ``raw`` holds ``deck (D, 7n)``, ``dealer (D,)``, ``res (D, K, RES_SIZE)``,
    ``seat (D, K, n, SEAT_RES_SIZE)`` and ``own (D, K, n, OWN_SIZE)`` for at
    least ``count`` deals, the first being deal ``first_deal``. ``choices``
    and ``missed`` add those columns (:func:`score_choices`).
    """
    n = rules.players
    deck = raw["deck"][:count]
    dealer = raw["dealer"][:count]
    res = raw["res"][:count]
    seat_res = raw["seat"][:count]
    own = raw["own"][:count]
    k = res.shape[1]
    per_deal = k * n
    rows = count * per_deal
    chips = chip_dtype(rules)

    def deal_column(values: np.ndarray) -> np.ndarray:  # (count, K) -> one per row
        return np.repeat(values.reshape(count * k), n)

    data: dict[str, Any] = {"deal": np.repeat(np.arange(first_deal, first_deal + count,
                                                          dtype=np.int64), per_deal)}  # fmt: skip
    if choices:
        data["choice"] = np.tile(np.repeat(np.arange(k, dtype=np.int16), n), count)
    data["seat"] = np.tile(np.arange(n, dtype=np.int8), count * k)
    data["dealer"] = np.repeat(dealer.astype(np.int8), per_deal)
    data["strategy"] = pd.Categorical.from_codes(
        np.tile(_strategy_codes(strategies), count * k), categories=_unique(strategies)
    )
    category = seat_res[:, :, :, L.S_CAT]
    data["pot"] = deal_column(res[:, :, L.R_POT]).astype(chips)
    data["showdown"] = deal_column(res[:, :, L.R_SHOWDOWN]) != 0
    # categories grow with values, so the best category shown is the winner's
    data["win_category"] = _categories(deal_column(category.max(axis=2)))
    winners = res[:, :, L.R_WINNERS, None] >> np.arange(n) & 1
    data["winner"] = winners.reshape(rows) != 0
    data["net"] = seat_res[:, :, :, L.S_NET].reshape(rows).astype(chips)
    # betting rounds are numbered 1..N for people (0: never folded)
    data["fold_round"] = (seat_res[:, :, :, L.S_FOLD].reshape(rows) + 1).astype(np.int8)
    data["value"] = seat_res[:, :, :, L.S_VALUE].reshape(rows).astype(np.int16)
    data["category"] = _categories(category.reshape(rows))
    # seat s gets deck[j * n + i] for i = (s - dealer - 1) % n (R5)
    position = (np.arange(n) - dealer[:, None] - 1) % n
    dealt = np.take_along_axis(deck.reshape(count, 7, n), position[:, None, :], axis=2)
    dealt = np.broadcast_to(dealt.transpose(0, 2, 1)[:, None], (count, k, n, 7)).reshape(rows, 7)
    for j in range(7):
        data[f"dealt_{j}"] = dealt[:, j]
    flat = own.reshape(rows, V.OWN_SIZE)
    counts = {"passed": flat[:, V.O_NPASSED], "hand": flat[:, V.O_NCARDS]}
    starts = {"passed": V.O_PASSED, "hand": V.O_CARDS, "discard": V.O_DISCARDS}
    for group, width in _CARD_GROUPS:
        cards = flat[:, starts[group] : starts[group] + width]
        if group in counts:  # slots past the count are -1 in the kernel; make sure
            cards = np.where(np.arange(width) < counts[group][:, None], cards, -1)
        cards = cards.astype(np.int8)
        for j in range(width):
            data[f"{group}_{j}"] = cards[:, j]
    if rules.hilo_showdown:
        # hi-lo (R22-R25): each seat's declaration (NA when it made none), its
        # low value (-1 without a showdown) and its shares of the two halves
        data["declaration"] = pd.Categorical.from_codes(
            seat_res[:, :, :, L.S_DECLARE].reshape(rows).astype(np.int8),
            categories=list(V.DECLARE_NAMES),
        )  # fmt: skip
        data["low_value"] = seat_res[:, :, :, L.S_LOW_VALUE].reshape(rows).astype(np.int16)
        for half, slot in (("high_share", L.S_HIGH_SHARE), ("low_share", L.S_LOW_SHARE)):
            data[half] = (seat_res[:, :, :, slot].reshape(rows) / SHARE_SCALE).astype(np.float32)
    if missed:
        data["missed"] = deal_column(res[:, :, L.R_MISSED]) != 0
    return pd.DataFrame(data)


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _strategy_codes(names: list[str]) -> np.ndarray:
    index = {name: i for i, name in enumerate(_unique(names))}
    return np.array([index[name] for name in names], dtype=np.int8)


# ================================================================ the sinks ==
@contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) until the block ends, then raise KeyboardInterrupt.

    Storing a chunk's records and counting its deals happen together or
    not at all. Outside the main thread (where signals cannot be caught)
    the block just runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt


class MemoryRecords:
    """Records kept in memory, chunk by chunk, joined at the end."""

    def __init__(self) -> None:
        self.frames: list[pd.DataFrame] = []

    def add(self, frame: pd.DataFrame) -> None:
        self.frames.append(frame)

    def finish(self, model: dict[str, Any]) -> pd.DataFrame:
        if not self.frames:
            frame = pd.DataFrame()
        elif len(self.frames) == 1:
            frame = self.frames[0]
        else:
            frame = pd.concat(self.frames, ignore_index=True)
        self.frames = []
        frame.attrs = dict(model)
        return frame

    def abort(self) -> None:
        self.frames = []


class ParquetRecords:
    """Records appended to a Parquet file, one row group per chunk.

    The rows go to ``NAME.partial`` next to ``path``, renamed to ``path``
    when the run ends (finished or stopped by Ctrl-C, which keeps every
    finished deal); a run that fails leaves no file. The model of the run
    is in the schema metadata (:mod:`anaconda_sim.provenance`), so
    :func:`anaconda_sim.read_table` and pyarrow read it back.
    """

    def __init__(self, path: str | os.PathLike[str], model: dict[str, Any]) -> None:
        self.path = check_records_path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.model = dict(model)
        self.writer: Any = None
        self.schema: Any = None

    def _schema(self, frame: pd.DataFrame, model: dict[str, Any]) -> Any:
        import pyarrow as pa


        schema = pa.Schema.from_pandas(frame, preserve_index=False)
        record = encode(provenance(model)).encode("utf-8")
        return schema.with_metadata({**(schema.metadata or {}), META_KEY: record})

    def add(self, frame: pd.DataFrame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.schema = self._schema(frame, self.model)
            self.writer = pq.ParquetWriter(self.partial, self.schema)
        table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        self.writer.write_table(table, row_group_size=max(len(frame), 1))

    def finish(self, model: dict[str, Any], empty: pd.DataFrame) -> Path:
        """Close the file and give it its name; ``model`` is the final model
        (fewer deals than planned after Ctrl-C: the file is then rewritten,
        row group by row group, with that model)."""
        import pyarrow.parquet as pq

        if self.writer is None:  # not one deal finished
            self.add(empty)
        self.writer.close()
        self.writer = None
        if model != self.model:
            source = pq.ParquetFile(self.partial)
            schema = self._schema(empty, model)
            rewritten = self.path.with_name(self.path.name + ".rewrite")
            with pq.ParquetWriter(rewritten, schema) as writer:
                for group in range(source.num_row_groups):
                    table = source.read_row_group(group).replace_schema_metadata(schema.metadata)
                    writer.write_table(table.cast(schema), row_group_size=max(table.num_rows, 1))
            source.close()
            os.replace(rewritten, self.partial)
        os.replace(self.partial, self.path)
        return self.path

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.partial.unlink(missing_ok=True)


def check_records_path(path: Any) -> Path:
    """``path`` as a Path ending in ``.parquet``, or a clear error."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"records={path!r} must be True, False or the path of a .parquet file to write"
        )
    out = Path(path)
    if out.suffix.lower() != ".parquet":
        raise ValueError(
            f"records={str(path)!r}: records stream to Parquet; give a path ending in .parquet"
        )
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow is in the test extras
        raise ValueError(
            "streaming records to Parquet needs pyarrow: pip install 'anaconda-sim[parquet]'"
        ) from None
    return out


# ============================================================ the outcomes ==
class OutcomeTally:
    """Deals counted by choice, outcome (no showdown, or the winning
    category) and final pot: exact, and small (pots take few values)."""

    def __init__(self, choices: int) -> None:
        self.counts: list[Counter[tuple[int, int]]] = [Counter() for _ in range(choices)]

    @staticmethod
    def chunk(raw: dict[str, np.ndarray], count: int) -> list[Counter[tuple[int, int]]]:
        """The counts of one chunk of kernel records (to :meth:`add` later)."""
        outcome = raw["seat"][:count, :, :, L.S_CAT].max(axis=2) + 1  # 0: no showdown
        pot = raw["res"][:count, :, L.R_POT]
        out = []
        for k in range(outcome.shape[1]):
            pairs, tally = np.unique(np.stack([outcome[:, k], pot[:, k]], axis=1), axis=0,
                                     return_counts=True)  # fmt: skip
            out.append(Counter({(int(o), int(p)): int(c)
                                for (o, p), c in zip(pairs, tally, strict=True)}))  # fmt: skip
        return out

    def add(self, chunk: list[Counter[tuple[int, int]]]) -> None:
        for total, part in zip(self.counts, chunk, strict=True):
            total.update(part)

    def rows(self, choice: int = 0) -> np.ndarray:
        """``(m, 3)`` int64 rows ``(outcome, pot, deals)``, sorted."""
        items = sorted(self.counts[choice].items())
        out = np.zeros((len(items), 3), dtype=np.int64)
        for i, ((outcome, pot), count) in enumerate(items):
            out[i] = (outcome, pot, count)
        return out


def _wilson(count: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The 95% Wilson score interval of ``count`` successes in ``n`` trials."""
    p = count / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _quantile_name(q: float) -> str:
    return f"pot_q{100 * q:g}".replace(".", "_")


def outcome_table(rows: np.ndarray, deals: int, quantiles: tuple[float, ...]) -> pd.DataFrame:
    """The outcome distribution of ``rows`` (:meth:`OutcomeTally.rows`);
    see :meth:`~anaconda_sim.sim.simulator.SimulationResult.outcome_distribution`."""
    columns: dict[str, list[Any]] = {"outcome": [*OUTCOMES, "all"], "deals": []}
    stats: dict[str, list[float]] = {name: [] for name in ("mean_pot", "pot_se", "pot_sd")}
    for q in quantiles:
        stats[_quantile_name(q)] = []
    stats["pot_max"] = []
    for index in [*range(len(OUTCOMES)), -1]:
        if index < 0:  # every deal: the counts of each pot, in pot order
            distinct, where = np.unique(rows[:, 1], return_inverse=True)
            pots = distinct.astype(np.float64)
            weights = np.bincount(where.reshape(-1), weights=rows[:, 2],
                                  minlength=len(distinct)).astype(np.int64)  # fmt: skip
        else:  # rows are sorted by outcome, then pot
            mine = rows[rows[:, 0] == index]
            pots = mine[:, 1].astype(np.float64)
            weights = mine[:, 2]
        n = int(weights.sum())
        columns["deals"].append(n)
        if n == 0:
            for values in stats.values():
                values.append(np.nan)
            continue
        mean = float(pots @ weights) / n
        var = float(((pots - mean) ** 2) @ weights) / (n - 1) if n > 1 else np.nan
        stats["mean_pot"].append(mean)
        stats["pot_sd"].append(np.sqrt(var))
        stats["pot_se"].append(np.sqrt(var / n))
        cumulative = np.cumsum(weights)
        for q in quantiles:  # the smallest pot with at least a share q of deals at or below it
            at = int(np.searchsorted(cumulative, q * n, side="left"))
            stats[_quantile_name(q)].append(float(pots[min(at, len(pots) - 1)]))
        stats["pot_max"].append(float(pots[-1]))
    count = np.array(columns["deals"], dtype=np.int64)
    share = count / max(deals, 1)
    se = np.sqrt(share * (1 - share) / max(deals, 1))
    low, high = _wilson(count, max(deals, 1))
    low[-1] = high[-1] = 1.0  # the 'all' row: every deal, by definition
    frame = pd.DataFrame({"outcome": columns["outcome"], "deals": count, "share": share,
                          "se": se, "ci_low": low, "ci_high": high})  # fmt: skip
    for name, values in stats.items():
        frame[name] = np.array(values, dtype=np.float64)
    return frame
