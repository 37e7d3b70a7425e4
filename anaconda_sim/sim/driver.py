"""The kernel driver of the batch simulator: input checks, the configuration
array, user strategy functions, and runs of the deal kernel in chunks.

:func:`start_run` turns validated arguments into a :class:`KernelRun`;
:meth:`KernelRun.execute` plays its deals in chunks (a progress bar can
update and Ctrl-C can stop between chunks, losing no finished deal) and
keeps the exact integer sums of :mod:`anaconda_sim.sim.layout`'s
accumulators. The public functions are in :mod:`anaconda_sim.sim.simulator`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._numba import CACHE_ENABLED, run_chunks
from ..cards import CardError, card_mask, format_cards, parse_cards
from ..checks import check_deals, check_int
from ..hands.evaluator import N_CATEGORIES
from ..limits import DECK_SIZE, MAX_DEALS, MAX_PLAYERS
from ..progress import progress_bar
from ..provenance import VALUE_UNITS, table_model
from ..rng import SeedLike, root_key
from ..strategies.dispatch import no_custom_bet, no_custom_cards
from ..strategies.kinds import KIND_CUSTOM, kernel_extras
from ..strategies.spec import Strategy, get_strategy
from ..table import views as V
from ..table.rules import Rules
from . import layout as L
from .kernels import batch as batch_kernels
from .kernels.deal import BET_SIGNATURE, CARDS_SIGNATURE
from .records import (
    RECORD_CHUNK,
    MemoryRecords,
    OutcomeTally,
    ParquetRecords,
    check_records_path,
    deferred_interrupt,
    records_frame,
)

DEFAULT_BATCH = 1024
CHUNK_SECONDS = 0.5  # target wall time of one kernel call (progress, Ctrl-C)
PROGRESS_AFTER = 3.0  # auto progress bar only for runs expected to be longer
RECORDS_LIMIT = 2_000_000

ProgressLike = bool | Callable[[int, int], Any] | None


# =========================================================== input checks ==
def as_rules(rules: Rules | int) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, (int, np.integer)) and not isinstance(rules, bool):
        return Rules(players=int(rules))  # Rules raises for a bad player count
    raise TypeError(f"rules={rules!r} must be a Rules object or a number of players (2..7)")


def as_strategies(strategies: Any, n: int) -> list[Strategy]:
    if isinstance(strategies, (str, Strategy)):
        return [get_strategy(strategies)] * n
    try:
        items = list(strategies)
    except TypeError:
        raise TypeError(
            f"strategies={strategies!r} must be a name, a Strategy, or a list of them "
            "(one per seat)"
        ) from None
    if len(items) != n:
        raise ValueError(
            f"{len(items)} strategies given for {n} players; give one per seat "
            "(or a single name or Strategy for every seat)"
        )
    return [get_strategy(s) for s in items]


def compile_user_function(fn: Any, signature: Any, builtin: bool = False) -> Any:
    """A C-callable version of a numba function, for the kernel's function arguments."""
    import numba


    key = (id(fn), str(signature))
    found = _COMPILED_USER_FUNCTIONS.get(key)
    if found is None or found[0] is not fn:
        # the builtin fallbacks live in a file and can be cached; user functions may not
        cache = CACHE_ENABLED and builtin
        try:
            compiled = numba.cfunc(signature, cache=cache)(fn.py_func if cache else fn)
        except Exception as exc:  # numba's typing errors are long; say which function
            raise TypeError(
                f"cannot compile user strategy function {getattr(fn, '__name__', fn)!r} "
                f"with the signature {signature}: {exc}"
            ) from exc
        found = (fn, compiled)
        _COMPILED_USER_FUNCTIONS[key] = found
    return found[1]


_COMPILED_USER_FUNCTIONS: dict[tuple[int, str], tuple[Any, Any]] = {}


def custom_functions(strats: list[Strategy]) -> tuple[Any, Any, Any, int, int]:

    custom = [s for s in strats if s.kind == KIND_CUSTOM]
    first = custom[0] if custom else None
    for other in custom[1:]:
        same = (
            other.bet_fn is first.bet_fn  # type: ignore[union-attr]
            and other.pass_fn is first.pass_fn  # type: ignore[union-attr]
            and other.discard_fn is first.discard_fn  # type: ignore[union-attr]
        )
        if not same:
            raise ValueError(
                f"user strategies {first.name!r} and {other.name!r} differ; one run takes "  # type: ignore[union-attr]
                "one user strategy (it may sit at several seats, with its own parameters)"
            )
    bet = first.bet_fn if first is not None and first.bet_fn is not None else no_custom_bet
    pass_fn = first.pass_fn if first is not None and first.pass_fn is not None else None
    discard = first.discard_fn if first is not None and first.discard_fn is not None else None
    return (
        compile_user_function(bet, BET_SIGNATURE, bet is no_custom_bet),
        compile_user_function(pass_fn or no_custom_cards, CARDS_SIGNATURE, pass_fn is None),
        compile_user_function(discard or no_custom_cards, CARDS_SIGNATURE, discard is None),
        int(pass_fn is not None),
        int(discard is not None),
    )


def check_progress(progress: Any) -> None:
    """``progress`` is True, False, None (automatic) or a callable ``(done, total)``."""
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(
            f"progress={progress!r} must be True, False, None (automatic) or a callable "
            "(done, total)"
        )


def check_seat(value: Any, n: int, name: str) -> int:
    return check_int(value, name, low=0, high=n - 1, why=f"seats are 0..{n - 1}")


def fixed_table(
    fixed: Mapping[int, Any] | Sequence[Any] | None, known: Any, n: int
) -> tuple[np.ndarray, np.uint64, int]:
    """(fixed[7, 7] with -1 for dealt slots, known mask, number of random cards)."""
    table = np.full((7, 7), -1, dtype=np.int64)
    seen: dict[int, str] = {}
    if fixed is None:
        entries: list[tuple[int, Any]] = []
    elif isinstance(fixed, Mapping):
        entries = list(fixed.items())
    else:
        entries = [(s, c) for s, c in enumerate(fixed) if c is not None]
    for seat, cards in entries:
        seat = check_seat(seat, n, "fixed seat")
        parsed = parse_cards(cards, count=range(1, 8), what=f"fixed hand of seat {seat}")
        for j, card in enumerate(parsed):
            if card in seen:
                raise CardError(
                    f"card {format_cards([card])} is fixed twice ({seen[card]} and seat {seat})"
                )
            seen[card] = f"seat {seat}"
            table[seat, j] = card
    dead: list[int] = []
    if known is not None:
        dead = parse_cards(known, what="known cards")
        for card in dead:
            if card in seen:
                raise CardError(f"known card {format_cards([card])} is also fixed to {seen[card]}")
    mask = 0
    for card in list(seen) + dead:
        mask |= card_mask(card)
    random_cards = 7 * n - len(seen)
    if DECK_SIZE - len(seen) - len(dead) < random_cards:
        raise ValueError(
            f"{len(dead)} known cards leave {DECK_SIZE - len(seen) - len(dead)} cards to deal; "
            f"{n} players need {random_cards} more"
        )
    return table, np.uint64(mask), random_cards


# ============================================================== the runner ==
def make_cfg(
    rules: Rules, *, dealer: int, rotate: bool, betting: bool, hero: int, force: int,
    random_cards: int, has_cpass: int, has_cdiscard: int, record: bool,
) -> np.ndarray:  # fmt: skip

    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    cfg[L.C_N] = rules.players
    cfg[L.C_ANTE] = rules.ante
    cfg[L.C_BET] = rules.bet
    cfg[L.C_MAX_LEVEL] = rules.max_level
    cfg[L.C_DISCARD] = int(rules.discard)
    cfg[L.C_REVEAL] = int(rules.progressive_reveal)
    cfg[L.C_NPASSES] = len(rules.passes)
    cfg[L.C_NROUNDS] = rules.betting_rounds
    cfg[L.C_BETTING] = int(betting)
    cfg[L.C_HERO] = hero
    cfg[L.C_FORCE] = force
    cfg[L.C_DEALER] = dealer
    cfg[L.C_ROTATE] = int(rotate)
    cfg[L.C_RANDOM_CARDS] = random_cards
    cfg[L.C_HAS_CPASS] = has_cpass
    cfg[L.C_HAS_CDISCARD] = has_cdiscard
    cfg[L.C_RECORD] = int(record)
    cfg[L.C_HILO] = int(rules.hilo_showdown)
    cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + MAX_PLAYERS] = np.arange(MAX_PLAYERS)
    return cfg


def share_param_rows(cfg: np.ndarray, params: np.ndarray) -> None:
    """Point each seat of ``cfg`` (``C_PARAM_ROW``) at the first row of
    ``params`` (one a seat) equal to its own.

    Seats of one strategy then read one row: a learned row is 128 KB, and
    the opponents of an analysis (the default field) otherwise keep one copy
    each in the cache. The rows are equal, so every decision is the same.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> seats = [get_strategy(name) for name in ("sensible", "learned", "learned", "sensible")]
    >>> params = np.stack([s.param_array(4) for s in seats])
    >>> cfg = make_cfg(Rules(players=4), dealer=0, rotate=False, betting=True, hero=-1,
    ...                force=L.FORCE_NONE, random_cards=0, has_cpass=0, has_cdiscard=0,
    ...                record=False)
    >>> share_param_rows(cfg, params)
    >>> cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + 4].tolist()
    [0, 1, 1, 0]
    """
    for seat in range(len(params)):
        cfg[L.C_PARAM_ROW + seat] = next(
            first for first in range(seat + 1) if np.array_equal(params[first], params[seat])
        )


def seat_param_rows(cfg: np.ndarray, strategies: Sequence[Strategy], players: int) -> np.ndarray:
    """The parameter rows of ``strategies`` (one a seat) at a table of
    ``players``, stacked, with each seat of ``cfg`` pointed at the first row
    equal to its own (:func:`share_param_rows`): what every kernel run reads
    its seats' parameters from.

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> seats = [get_strategy(name) for name in ("learned", "sensible", "learned")]
    >>> cfg = make_cfg(Rules(players=3), dealer=0, rotate=False, betting=True, hero=-1,
    ...                force=L.FORCE_NONE, random_cards=0, has_cpass=0, has_cdiscard=0,
    ...                record=False)
    >>> seat_param_rows(cfg, seats, 3).shape[0], cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + 3].tolist()
    (3, [0, 1, 0])
    """
    params = np.stack([s.param_array(players) for s in strategies])
    share_param_rows(cfg, params)
    return params


@dataclass
class KernelRun:
    """Everything one kernel run needs, and its accumulated sums."""

    rules: Rules
    strategies: list[Strategy]
    key: np.uint64
    deals: int
    cfg: np.ndarray
    fixed: np.ndarray
    known_mask: np.uint64
    choices: np.ndarray
    forced_pass: np.ndarray
    funcs: tuple[Any, Any, Any]
    record: bool
    batch_size: int
    chunk_size: int | None = None
    first_deal: int = 0
    done: int = 0
    interrupted: bool = False
    elapsed: float = 0.0
    sums: dict[str, np.ndarray] = field(default_factory=dict)
    rec: dict[str, np.ndarray] = field(default_factory=dict)
    #: where records go (:mod:`~anaconda_sim.sim.records`), ``None``: kept nowhere
    sink: MemoryRecords | ParquetRecords | None = None
    #: outcome and pot counts, kept whenever the kernel records
    tally: OutcomeTally | None = None
    #: with a sink: the records (a DataFrame in memory, or the Parquet file's path)
    records: pd.DataFrame | Path | None = None
    #: record each deal's betting log too (wider ``res`` rows: ``layout.REC_RES_LOGGED``)
    log: bool = False
    #: called after each kernel call of a recording run with the raw record
    #: arrays (``rec``), the deals in them and the index of the first
    on_chunk: Callable[[dict[str, np.ndarray], int, int], None] | None = None

    def execute(self, progress: ProgressLike) -> None:

        n = self.rules.players
        n_choices = self.choices.shape[0]
        kinds = np.array([s.kind for s in self.strategies], dtype=np.int64)
        params = seat_param_rows(self.cfg, self.strategies, n)
        passes = np.array(self.rules.passes, dtype=np.int64).reshape(-1, L.PASS_FIELDS)
        self.sums = {
            "seat": np.zeros((n_choices, n, L.ACC_SEAT_SIZE), np.int64),
            "cat": np.zeros((n_choices, n, N_CATEGORIES), np.int64),
            "fold": np.zeros((n_choices, n, L.MAX_ROUNDS), np.int64),
            "open": np.zeros((n_choices, n, L.MAX_ROUNDS), np.int64),
            "deal": np.zeros((n_choices, L.ACC_DEAL_SIZE), np.int64),
            "cross": np.zeros((L.ACC_CROSS_SIZE, n_choices, n_choices), np.int64),
        }
        from numba import get_num_threads

        threads = get_num_threads()
        if self.record:
            # fixed chunks: memory does not grow with the deals, and the row
            # groups of a record file do not depend on timing or threads
            chunk = self.chunk_size or max(1, RECORD_CHUNK // n_choices)
            rows = chunk
            self.tally = OutcomeTally(n_choices)
        else:
            chunk = self.chunk_size or self.batch_size * threads
            rows = 1
        self.rec = {
            "deck": np.full((rows, 7 * n), -1, np.int8),
            "dealer": np.zeros(rows, np.int64),
            "res": np.zeros((rows, n_choices, L.REC_RES_LOGGED if self.log else L.RES_SIZE),
                            np.int64),
            "seat": np.zeros((rows, n_choices, n, L.SEAT_RES_SIZE), np.int64),
            "own": np.zeros((rows, n_choices, n, V.OWN_SIZE), np.int32),
        }
        bar = None
        started = time.perf_counter()
        try:
            while self.done < self.deals:
                count = min(chunk, self.deals - self.done)
                t0 = time.perf_counter()
                merged = self._kernel_call(count, kinds, params, passes)
                frame = self._frame(count, self.done) if self.sink is not None else None
                counted = OutcomeTally.chunk(self.rec, count) if self.tally is not None else None
                if self.on_chunk is not None:
                    self.on_chunk(self.rec, count, self.first_deal + self.done)
                # stored and counted together, or not at all (Ctrl-C waits)
                with deferred_interrupt():
                    if frame is not None:
                        self.sink.add(frame)  # type: ignore[union-attr]
                    if counted is not None:
                        self.tally.add(counted)  # type: ignore[union-attr]
                    self.sums, self.done = merged, self.done + count
                dt = time.perf_counter() - t0
                # without records (or a given chunk size), grow the chunk towards
                # ~CHUNK_SECONDS per call
                if not self.record and self.chunk_size is None and dt < CHUNK_SECONDS / 2:
                    chunk = min(chunk * 2, max(self.batch_size * threads, 1 << 26))
                if callable(progress) and not isinstance(progress, bool):
                    progress(self.done, self.deals)
                elif bar is None and progress is not False and self.done < self.deals:
                    rate = self.done / max(time.perf_counter() - started, 1e-9)
                    if progress is True or (self.deals - self.done) / rate > PROGRESS_AFTER:
                        # automatic: a terminal only (nothing in a pipe or a log)
                        bar = progress_bar(self.deals, "simulate",
                                           enabled=True if progress is True else None,
                                           delay=0.0, unit_scale=True,
                                           initial=self.done)  # fmt: skip
                elif bar is not None:
                    bar.update(count)
        except KeyboardInterrupt:
            self.interrupted = True
        except BaseException:
            if self.sink is not None:
                self.sink.abort()
            raise
        finally:
            if bar is not None:
                bar.close()
            self.elapsed = time.perf_counter() - started

    def finish_records(self, model: dict[str, Any]) -> pd.DataFrame | Path | None:
        """Close the sink: the records frame (its ``attrs`` the model) or the
        path of the Parquet file (the model in its schema metadata)."""
        if self.sink is None:
            return None
        if isinstance(self.sink, ParquetRecords):
            self.records = self.sink.finish(model, self._frame(0, 0))
        else:
            frame = self.sink.finish(model) if self.done else self._frame(0, 0)
            frame.attrs = dict(model)
            self.records = frame
        self.sink = None
        return self.records

    def _frame(self, count: int, start: int) -> pd.DataFrame:
        """Records of the ``count`` deals of the last kernel call (from ``start``)."""
        forced = bool(self.cfg[L.C_HERO] >= 0)
        return records_frame(self.rec, count, self.first_deal + start, self.rules,
                             [s.name for s in self.strategies], choices=forced,
                             missed=self.cfg[L.C_FORCE] != L.FORCE_NONE)  # fmt: skip

    def _kernel_call(
        self, count: int, kinds: np.ndarray, params: np.ndarray, passes: np.ndarray
    ) -> dict[str, np.ndarray]:
        n = self.rules.players
        n_choices = self.choices.shape[0]
        batch = self.batch_size
        if self.record:
            # records come in fixed chunks: cut a small one finer to use every thread
            from numba import get_num_threads

            batch = min(batch, max(1, -(-count // get_num_threads())))
        n_batches = -(-count // batch)
        acc_seat = np.zeros((n_batches, n_choices, n, L.ACC_SEAT_SIZE), np.int64)
        acc_cat = np.zeros((n_batches, n_choices, n, N_CATEGORIES), np.int64)
        acc_fold = np.zeros((n_batches, n_choices, n, L.MAX_ROUNDS), np.int64)
        acc_open = np.zeros((n_batches, n_choices, n, L.MAX_ROUNDS), np.int64)
        acc_deal = np.zeros((n_batches, n_choices, L.ACC_DEAL_SIZE), np.int64)
        acc_cross = np.zeros((n_batches, L.ACC_CROSS_SIZE, n_choices, n_choices), np.int64)
        rec = [self.rec[k] for k in ("deck", "dealer", "res", "seat", "own")]
        args = (
            self.key, self.first_deal + self.done, count, batch,
            self.cfg, passes, kinds, params,
            self.fixed, self.known_mask, self.choices, self.forced_pass,
            acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross,
            *rec, *self.funcs, *kernel_extras(bool(self.cfg[L.C_HILO]), kinds, params, self.deals),
        )  # fmt: skip
        # the phases are function pointers of the driver (compiled apart, on every core)
        kernel, args = batch_kernels.batch_runner((0, n_batches, *args))
        run_chunks(kernel, n_batches, *args)
        accs = {"seat": acc_seat, "cat": acc_cat, "fold": acc_fold, "open": acc_open,
                "deal": acc_deal, "cross": acc_cross}  # fmt: skip
        return {name: self.sums[name] + acc.sum(axis=0) for name, acc in accs.items()}


def start_run(
    rules: Rules, strategies: Any, deals: int, seed: SeedLike, dealer: int, *, rotate: bool,
    betting: bool, fixed: Any, known: Any, hero: int, force: int, choices: np.ndarray | None,
    forced_pass: np.ndarray | None, records: bool | str | os.PathLike[str],
    batch_size: int | None, chunk_size: int | None = None, outcomes: bool = False,
) -> KernelRun:  # fmt: skip
    """A checked run; ``records`` True keeps them in memory, a path streams
    them to Parquet (the caller adds the sink, which needs the model);
    ``outcomes`` counts outcomes and pots (:class:`OutcomeTally`) without
    keeping records."""
    n = rules.players
    strats = as_strategies(strategies, n)
    deals = check_deals(deals)
    dealer = check_seat(dealer, n, "dealer")
    if batch_size is None:
        batch_size = DEFAULT_BATCH
    batch_size = check_int(batch_size, "batch_size", low=1, high=MAX_DEALS)
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", low=1)
    if not isinstance(records, bool):
        check_records_path(records)
    elif records and deals * (1 if choices is None else len(choices)) > RECORDS_LIMIT:
        plays = deals * (1 if choices is None else len(choices))
        raise ValueError(
            f"records=True keeps every deal in memory; {plays:,} deal plays (deals x choices) "
            f"are more than {RECORDS_LIMIT:,}; stream them to a file instead "
            "(records='deals.parquet')"
        )
    if not isinstance(outcomes, bool):
        raise TypeError(f"outcomes={outcomes!r} must be True or False")
    key = root_key(seed)
    table, known_mask, random_cards = fixed_table(fixed, known, n)
    cbet, cpass, cdiscard, has_cpass, has_cdiscard = custom_functions(strats)
    if choices is None:
        choices = np.full((1, 7), -1, dtype=np.int64)
    if forced_pass is None:
        forced_pass = np.full((7, 3), -1, dtype=np.int64)
    record = records is not False or outcomes
    cfg = make_cfg(rules, dealer=dealer, rotate=rotate, betting=betting, hero=hero, force=force,
               random_cards=random_cards, has_cpass=has_cpass, has_cdiscard=has_cdiscard,
               record=record)  # fmt: skip
    return KernelRun(rules, strats, key, deals, cfg, table, known_mask, choices, forced_pass,
                (cbet, cpass, cdiscard), record, batch_size, chunk_size)  # fmt: skip


def mean_se(total: np.ndarray, total_sq: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    total = np.asarray(total, dtype=np.float64)
    mean = total / count
    if count < 2:
        return mean, np.full_like(mean, np.nan)
    var = (np.asarray(total_sq, dtype=np.float64) - total * mean) / (count - 1)
    return mean, np.sqrt(np.maximum(var, 0.0) / count)


# ------------------------------------------------------ a run's model --
def run_model(run: KernelRun, function: str, seed: SeedLike, *, fixed_cards: np.ndarray,
              known: Any, **extra: Any) -> dict[str, Any]:  # fmt: skip
    """The model of a run, as tables record it (:mod:`anaconda_sim.provenance`)."""
    rules = run.rules
    fixed = {
        int(seat): format_cards(row[row >= 0])
        for seat, row in enumerate(fixed_cards[: rules.players])
        if (row >= 0).any()
    }
    known_cards = parse_cards(known, what="known cards") if known is not None else []
    # the value of every row is net chips, with or without betting (the antes)
    return table_model(
        function, function, players=rules.players, rules=rules.name,
        betting=bool(run.cfg[L.C_BETTING]), seed=seed, value_unit=VALUE_UNITS[True],
        rule_set=rules.to_dict(), strategies=[s.spec() for s in run.strategies],
        key=int(run.key), deals=run.deals, dealer=int(run.cfg[L.C_DEALER]),
        rotate=bool(run.cfg[L.C_ROTATE]), fixed=fixed or None,
        known=format_cards(known_cards) if known_cards else None, **extra, interrupted=False,
    )  # fmt: skip


def attach_records(run: KernelRun, records: Any, model: dict[str, Any]) -> None:
    """Keep the run's records in memory (``records=True``) or stream them to a
    Parquet file (a path), with the run's model."""
    if records is True:
        run.sink = MemoryRecords()
    elif records is not False:
        run.sink = ParquetRecords(records, {**model, "table": "records"})


def finish_model(run: KernelRun, model: dict[str, Any]) -> dict[str, Any]:
    """The final model (deals done) and the records closed with it."""
    model.update(deals=run.done, interrupted=run.interrupted)
    run.finish_records({**model, "table": "records"})
    return model
