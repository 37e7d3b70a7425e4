"""The batch simulator: millions of complete deals, with error bars.

:func:`simulate` plays complete deals of Anaconda under any
:class:`~anaconda_sim.game.rules.Rules` (2 to 7 players, the default rules or
Bicycle's) with one strategy per seat, and returns per-seat estimates with
standard errors (:class:`SimulationResult`). :func:`score_choices` scores
several alternative choices of one seat (which cards to pass, which two to
discard, in which order to reveal) on identical deals and identical random
numbers for everyone else (common random numbers), so the differences
between choices are far more precise than the values themselves
(:class:`ChoiceScores`).

How it runs
-----------
Each deal ``d`` of a run uses its own random streams (stream 0 of deal ``d``
for the cards, stream ``1 + seat`` for each seat's decisions;
:mod:`anaconda_sim.rng`), exactly as the reference engine does
(:func:`anaconda_sim.game.play.play_deal`), so any deal can be replayed there and
gives the same moves. Deals are played by a numba kernel in batches with
``prange``; every batch adds into its own row of integer accumulators, which
are summed afterwards. Integer sums are exact, so the results are identical
for any batch size and any number of threads. The run is streamed from
Python in chunks (memory does not grow with the number of deals): a
progress bar can update between chunks, and Ctrl-C stops the run cleanly
after the current chunk, returning what finished (``interrupted=True``).

The dealer button moves one seat clockwise per deal (R6): deal ``d`` has
dealer ``(dealer + d) % n`` (``rotate=False`` keeps it fixed).

Examples
--------
>>> from anaconda_sim.sim.simulator import simulate
>>> result = simulate(4, "sensible", deals=2000, seed=1, progress=False)
>>> result.deals, len(result.mean_net)
(2000, 4)
>>> abs(float(result.mean_net.sum())) < 1e-9   # chips only change hands
True
>>> result.to_frame().columns[:6].tolist()
['seat', 'strategy', 'deals', 'mean_net', 'se', 'ci_low']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..game import views as V
from ..cards import CardError, card_mask, format_cards, parse_cards
from ..rng import SeedLike, root_key
from ..game.rules import REVEAL_ROUNDS, Rules
from ..strategies import KIND_CUSTOM, Strategy, get_strategy

__all__ = ["CATEGORY_LABELS", "ChoiceScores", "SimulationResult", "score_choices", "simulate"]

#: Column suffixes of the final-category frequencies (categories 0..8).
CATEGORY_LABELS = (
    "high_card", "pair", "two_pair", "trips", "straight", "flush",
    "full_house", "quads", "straight_flush",
)  # fmt: skip

_Z95 = 1.959963984540054
_DEFAULT_BATCH = 1024
_CHUNK_SECONDS = 0.5  # target wall time of one kernel call (progress, Ctrl-C)
_PROGRESS_AFTER = 3.0  # auto progress bar only for runs expected to be longer
_RECORDS_LIMIT = 2_000_000
_KINDS = {"pass": 1, "discard": 2, "order": 3}
_CHOICE_WIDTH = {"discard": 7, "order": 5}

ProgressLike = bool | Callable[[int, int], Any] | None


# =========================================================== input checks ==
def _as_rules(rules: Rules | int) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, (int, np.integer)) and not isinstance(rules, bool):
        return Rules(players=int(rules))  # Rules raises for a bad player count
    raise TypeError(f"rules={rules!r} must be a Rules object or a number of players (2..7)")


def _as_strategies(strategies: Any, n: int) -> list[Strategy]:
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


def _cfunc(fn: Any, signature: Any, builtin: bool = False) -> Any:
    """A C-callable version of a numba function, for the kernel's function arguments."""
    import numba

    from .._numba import CACHE_ENABLED

    key = (id(fn), str(signature))
    found = _CFUNCS.get(key)
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
        _CFUNCS[key] = found
    return found[1]


_CFUNCS: dict[tuple[int, str], tuple[Any, Any]] = {}


def _custom_functions(strats: list[Strategy]) -> tuple[Any, Any, Any, int, int]:
    from .kernels import deal as K
    from ..strategies import _no_custom_bet, _no_custom_cards

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
    bet = first.bet_fn if first is not None and first.bet_fn is not None else _no_custom_bet
    pass_fn = first.pass_fn if first is not None and first.pass_fn is not None else None
    discard = first.discard_fn if first is not None and first.discard_fn is not None else None
    return (
        _cfunc(bet, K.BET_SIGNATURE, bet is _no_custom_bet),
        _cfunc(pass_fn or _no_custom_cards, K.CARDS_SIGNATURE, pass_fn is None),
        _cfunc(discard or _no_custom_cards, K.CARDS_SIGNATURE, discard is None),
        int(pass_fn is not None),
        int(discard is not None),
    )


def _check_count(value: Any, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r} must be an int")
    if value < minimum:
        raise ValueError(f"{name}={value} must be at least {minimum}")
    return int(value)


def _check_seat(value: Any, n: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r} must be a seat number 0..{n - 1}")
    if not 0 <= value < n:
        raise ValueError(f"{name}={value} is not a seat; seats are 0..{n - 1}")
    return int(value)


def _fixed_table(
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
        seat = _check_seat(seat, n, "fixed seat")
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
    if 52 - len(seen) - len(dead) < random_cards:
        raise ValueError(
            f"{len(dead)} known cards leave {52 - len(seen) - len(dead)} cards to deal; "
            f"{n} players need {random_cards} more"
        )
    return table, np.uint64(mask), random_cards


# ============================================================== the runner ==
def _cfg(
    rules: Rules, *, dealer: int, rotate: bool, betting: bool, hero: int, force: int,
    random_cards: int, has_cpass: int, has_cdiscard: int, record: bool,
) -> np.ndarray:  # fmt: skip
    from .kernels import deal as K

    cfg = np.zeros(K.C_SIZE, dtype=np.int64)
    cfg[K.C_N] = rules.players
    cfg[K.C_ANTE] = rules.ante
    cfg[K.C_BET] = rules.bet
    cfg[K.C_MAX_LEVEL] = rules.max_level
    cfg[K.C_DISCARD] = int(rules.discard)
    cfg[K.C_REVEAL] = int(rules.progressive_reveal)
    cfg[K.C_NPASSES] = len(rules.passes)
    cfg[K.C_NROUNDS] = rules.betting_rounds
    cfg[K.C_BETTING] = int(betting)
    cfg[K.C_HERO] = hero
    cfg[K.C_FORCE] = force
    cfg[K.C_DEALER] = dealer
    cfg[K.C_ROTATE] = int(rotate)
    cfg[K.C_RANDOM_CARDS] = random_cards
    cfg[K.C_HAS_CPASS] = has_cpass
    cfg[K.C_HAS_CDISCARD] = has_cdiscard
    cfg[K.C_RECORD] = int(record)
    return cfg


@dataclass
class _Run:
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
    first_deal: int = 0
    done: int = 0
    interrupted: bool = False
    elapsed: float = 0.0
    sums: dict[str, np.ndarray] = field(default_factory=dict)
    rec: dict[str, np.ndarray] = field(default_factory=dict)

    def execute(self, progress: ProgressLike) -> None:
        from .kernels import deal as K

        n = self.rules.players
        n_choices = self.choices.shape[0]
        kinds = np.array([s.kind for s in self.strategies], dtype=np.int64)
        params = np.stack([s.param_array() for s in self.strategies])
        passes = np.array(self.rules.passes, dtype=np.int64).reshape(-1, 2)
        self.sums = {
            "seat": np.zeros((n_choices, n, 6), np.int64),
            "cat": np.zeros((n_choices, n, 9), np.int64),
            "fold": np.zeros((n_choices, n, K.MAX_ROUNDS), np.int64),
            "open": np.zeros((n_choices, n, K.MAX_ROUNDS), np.int64),
            "deal": np.zeros((n_choices, 5), np.int64),
            "cross": np.zeros((2, n_choices, n_choices), np.int64),
        }
        rows = self.deals if self.record else 1
        self.rec = {
            "deck": np.full((rows, 7 * n), -1, np.int8),
            "dealer": np.zeros(rows, np.int64),
            "res": np.zeros((rows, n_choices, K.R_SIZE), np.int64),
            "seat": np.zeros((rows, n_choices, n, K.S_SIZE), np.int64),
            "own": np.zeros((rows, n_choices, n, V.OWN_SIZE), np.int32),
        }
        from numba import get_num_threads

        threads = get_num_threads()
        bar = None
        chunk = self.batch_size * threads
        started = time.perf_counter()
        try:
            while self.done < self.deals:
                count = min(chunk, self.deals - self.done)
                t0 = time.perf_counter()
                merged = self._kernel_call(K, count, kinds, params, passes)
                # one statement: a Ctrl-C lands before or after it, never between
                self.sums, self.done = merged, self.done + count
                dt = time.perf_counter() - t0
                # grow the chunk towards ~_CHUNK_SECONDS per call
                if dt < _CHUNK_SECONDS / 2:
                    chunk = min(chunk * 2, max(self.batch_size * threads, 1 << 26))
                if callable(progress) and not isinstance(progress, bool):
                    progress(self.done, self.deals)
                elif bar is None and progress is not False and self.done < self.deals:
                    rate = self.done / max(time.perf_counter() - started, 1e-9)
                    if progress is True or (self.deals - self.done) / rate > _PROGRESS_AFTER:
                        from tqdm.auto import tqdm

                        bar = tqdm(total=self.deals, unit="deal", unit_scale=True,
                                   desc="simulate", initial=self.done)  # fmt: skip
                elif bar is not None:
                    bar.update(count)
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            if bar is not None:
                bar.close()
            self.elapsed = time.perf_counter() - started

    def _kernel_call(
        self, K: Any, count: int, kinds: np.ndarray, params: np.ndarray, passes: np.ndarray
    ) -> dict[str, np.ndarray]:
        n = self.rules.players
        n_choices = self.choices.shape[0]
        n_batches = -(-count // self.batch_size)
        acc_seat = np.zeros((n_batches, n_choices, n, 6), np.int64)
        acc_cat = np.zeros((n_batches, n_choices, n, 9), np.int64)
        acc_fold = np.zeros((n_batches, n_choices, n, K.MAX_ROUNDS), np.int64)
        acc_open = np.zeros((n_batches, n_choices, n, K.MAX_ROUNDS), np.int64)
        acc_deal = np.zeros((n_batches, n_choices, 5), np.int64)
        acc_cross = np.zeros((n_batches, 2, n_choices, n_choices), np.int64)
        if self.record:
            sl = slice(self.done, self.done + count)
            rec = [self.rec[k][sl] for k in ("deck", "dealer", "res", "seat", "own")]
        else:
            rec = [self.rec[k] for k in ("deck", "dealer", "res", "seat", "own")]
        K.run_batches(
            self.key, self.first_deal + self.done, count, self.batch_size, self.cfg, passes,
            kinds, params,
            self.fixed, self.known_mask, self.choices, self.forced_pass,
            acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross,
            *rec, *self.funcs,
        )  # fmt: skip
        accs = {"seat": acc_seat, "cat": acc_cat, "fold": acc_fold, "open": acc_open,
                "deal": acc_deal, "cross": acc_cross}  # fmt: skip
        return {name: self.sums[name] + acc.sum(axis=0) for name, acc in accs.items()}

    def records_frame(self) -> pd.DataFrame:
        """Per-deal rows (one per deal and choice) of what was recorded."""
        from .kernels import deal as K

        n = self.rules.players
        n_choices = self.choices.shape[0]
        rows: list[dict[str, Any]] = []
        rec = self.rec
        for i in range(self.done):
            deck = tuple(int(c) for c in rec["deck"][i])
            for k in range(n_choices):
                res = rec["res"][i, k]
                seat = rec["seat"][i, k]
                own = rec["own"][i, k]
                row: dict[str, Any] = {"deal": self.first_deal + i}
                if n_choices > 1 or self.cfg[K.C_HERO] >= 0:
                    row["choice"] = k
                winners = tuple(s for s in range(n) if res[K.R_WINNERS] >> s & 1)
                row.update(dealer=int(rec["dealer"][i]), deck=deck, pot=int(res[K.R_POT]),
                           showdown=bool(res[K.R_SHOWDOWN]), winners=winners)  # fmt: skip
                for s in range(n):
                    row[f"net_{s}"] = int(seat[s, K.S_NET])
                for s in range(n):
                    row[f"fold_round_{s}"] = int(seat[s, K.S_FOLD])
                for s in range(n):
                    npassed = int(own[s, V.O_NPASSED])
                    row[f"passed_{s}"] = tuple(
                        int(c) for c in own[s, V.O_PASSED : V.O_PASSED + npassed]
                    )
                for s in range(n):
                    ncards = int(own[s, V.O_NCARDS])
                    row[f"hand_{s}"] = tuple(int(c) for c in own[s, V.O_CARDS : V.O_CARDS + ncards])
                for s in range(n):
                    d = own[s, V.O_DISCARDS : V.O_DISCARDS + 2]
                    row[f"discards_{s}"] = tuple(int(c) for c in d if c >= 0)
                for s in range(n):
                    row[f"value_{s}"] = int(seat[s, K.S_VALUE])
                if self.cfg[K.C_FORCE] != 0:
                    row["missed"] = bool(res[K.R_MISSED])
                rows.append(row)
        return pd.DataFrame(rows)


def _start_run(
    rules: Rules, strategies: Any, deals: int, seed: SeedLike, dealer: int, *, rotate: bool,
    betting: bool, fixed: Any, known: Any, hero: int, force: int, choices: np.ndarray | None,
    forced_pass: np.ndarray | None, records: bool, batch_size: int | None,
) -> _Run:  # fmt: skip
    n = rules.players
    strats = _as_strategies(strategies, n)
    deals = _check_count(deals, "deals")
    dealer = _check_seat(dealer, n, "dealer")
    if batch_size is None:
        batch_size = _DEFAULT_BATCH
    batch_size = _check_count(batch_size, "batch_size")
    if records and deals > _RECORDS_LIMIT:
        raise ValueError(
            f"records=True keeps every deal in memory; deals={deals} is more than "
            f"{_RECORDS_LIMIT:,}; record a smaller run"
        )
    key = root_key(seed)
    table, known_mask, random_cards = _fixed_table(fixed, known, n)
    cbet, cpass, cdiscard, has_cpass, has_cdiscard = _custom_functions(strats)
    if choices is None:
        choices = np.full((1, 7), -1, dtype=np.int64)
    if forced_pass is None:
        forced_pass = np.full((7, 3), -1, dtype=np.int64)
    cfg = _cfg(rules, dealer=dealer, rotate=rotate, betting=betting, hero=hero, force=force,
               random_cards=random_cards, has_cpass=has_cpass, has_cdiscard=has_cdiscard,
               record=records)  # fmt: skip
    return _Run(rules, strats, key, deals, cfg, table, known_mask, choices, forced_pass,
                (cbet, cpass, cdiscard), records, batch_size)  # fmt: skip


def _mean_se(total: np.ndarray, total_sq: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    total = np.asarray(total, dtype=np.float64)
    mean = total / count
    if count < 2:
        return mean, np.full_like(mean, np.nan)
    var = (np.asarray(total_sq, dtype=np.float64) - total * mean) / (count - 1)
    return mean, np.sqrt(np.maximum(var, 0.0) / count)


# ============================================================== simulate ===
@dataclass(frozen=True)
class SimulationResult:
    """Per-seat estimates from :func:`simulate` (arrays indexed by seat).

    Attributes
    ----------
    rules, strategies
        The rules and each seat's strategy name.
    deals
        Deals played (fewer than asked when ``interrupted``).
    key
        The run's root key: deal ``d`` replays in the reference engine as
        ``play_deal(rules, strategies, key=key, deal_index=d, dealer=...)``.
    mean_net, se, ci_low, ci_high
        Mean net chips per deal (won minus put in, ante included), its
        standard error and 95% confidence interval.
    win_rate, tie_rate
        Share of deals won alone (showdown or everyone else folded), and
        share of deals in which the seat split the pot.
    showdown_rate
        Share of deals in which the seat reached the showdown.
    category_freq
        ``(n, 9)``: share of deals in which the seat showed down with each
        hand category (0 high card .. 8 straight flush).
    fold_rate
        ``(n, rounds)``: share of deals in which the seat folded in each
        betting round.
    open_rate
        ``(n, rounds)``: share of deals in which the seat opened each round.
    mean_pot, pot_se
        Mean final pot and its standard error.
    records
        Per-deal rows when ``records=True`` (see :func:`simulate`), else ``None``.
    interrupted
        True when Ctrl-C stopped the run early.
    elapsed
        Wall time in seconds (compilation included on a first call).
    """

    rules: Rules
    strategies: tuple[str, ...]
    deals: int
    key: int
    dealer: int
    rotate: bool
    betting: bool
    mean_net: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    win_rate: np.ndarray
    tie_rate: np.ndarray
    showdown_rate: np.ndarray
    category_freq: np.ndarray
    fold_rate: np.ndarray
    open_rate: np.ndarray
    mean_pot: float
    pot_se: float
    records: pd.DataFrame | None = field(default=None, repr=False)
    interrupted: bool = False
    elapsed: float = 0.0

    def to_frame(self) -> pd.DataFrame:
        """One row per seat: ``seat, strategy, deals, mean_net, se, ci_low,
        ci_high, win_rate, tie_rate, showdown_rate, fold_rate_r1.., mean_pot,
        cat_high_card, .., cat_straight_flush``.

        Examples
        --------
        >>> r = simulate(3, "call-down", deals=500, seed=2, progress=False)
        >>> r.to_frame()[["seat", "strategy", "fold_rate_r1"]]
           seat   strategy  fold_rate_r1
        0     0  call-down           0.0
        1     1  call-down           0.0
        2     2  call-down           0.0
        """
        n = self.rules.players
        data: dict[str, Any] = {
            "seat": np.arange(n),
            "strategy": list(self.strategies),
            "deals": np.full(n, self.deals),
            "mean_net": self.mean_net,
            "se": self.se,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "win_rate": self.win_rate,
            "tie_rate": self.tie_rate,
            "showdown_rate": self.showdown_rate,
        }
        for r in range(self.fold_rate.shape[1]):
            data[f"fold_rate_r{r + 1}"] = self.fold_rate[:, r]
        data["mean_pot"] = np.full(n, self.mean_pot)
        for c, label in enumerate(CATEGORY_LABELS):
            data[f"cat_{label}"] = self.category_freq[:, c]
        return pd.DataFrame(data)


def simulate(
    rules: Rules | int,
    strategies: str | Strategy | Sequence[str | Strategy],
    deals: int,
    seed: SeedLike = None,
    dealer: int = 0,
    records: bool = False,
    batch_size: int | None = None,
    progress: ProgressLike = None,
    *,
    rotate: bool = True,
    betting: bool = True,
    fixed: Mapping[int, Any] | Sequence[Any] | None = None,
    known: Any = None,
) -> SimulationResult:
    """Play ``deals`` complete deals and estimate each seat's results.

    Parameters
    ----------
    rules
        A :class:`~anaconda_sim.game.rules.Rules`, or a number of players (2..7)
        for the default rules.
    strategies
        One strategy for every seat (a built-in name such as ``"sensible"``
        or a :class:`~anaconda_sim.strategies.Strategy`), or a list with one
        per seat. At most one user strategy (:meth:`Strategy.custom`) per
        run; it may sit at several seats.
    deals
        Number of deals (>= 1).
    seed
        Seed of the run (int, ``SeedSequence`` or ``None`` for fresh
        entropy). The same seed gives the same numbers on any thread count
        and batch size.
    dealer
        Dealer of deal 0; the button then moves one seat per deal (R6)
        unless ``rotate=False``.
    records
        Keep one row per deal (small runs): ``deal, dealer, deck`` (the
        first ``7n`` cards in deal order), ``pot, showdown, winners`` and per
        seat ``net_s, fold_round_s`` (-1 if it never folded), ``passed_s``
        (every card it passed, in order), ``hand_s`` (the cards held at the
        end: the kept five in reveal order, or the seven), ``discards_s``
        and ``value_s`` (the showdown value, -1 without one).
    batch_size
        Deals per ``prange`` batch (default 1024). Results do not depend on it.
    progress
        ``None``: a tqdm bar for runs expected to take more than a few
        seconds; ``True``/``False``: always/never; or a callable
        ``progress(done, total)`` called after each chunk.
    rotate
        Move the button one seat per deal (default) or keep ``dealer``.
    betting
        ``False``: nobody bets or folds (every betting decision is a check
        and no strategy is asked), so every deal reaches the showdown and the
        results measure showdown equity.
    fixed
        Fixed starting cards: ``{seat: cards}`` (1 to 7 cards, text or
        indices; the first cards of the seat in deal order, the rest dealt).
    known
        Cards that are never dealt (e.g. cards known to be out of play).

    Returns
    -------
    SimulationResult

    Examples
    --------
    >>> r = simulate(6, ["sensible"] * 3 + ["call-down"] * 3, deals=3000, seed=7,
    ...              progress=False)
    >>> r.strategies[0], r.strategies[5]
    ('sensible', 'call-down')
    >>> bool(np.all(r.ci_low <= r.mean_net)) and bool(np.all(r.mean_net <= r.ci_high))
    True
    >>> simulate(8, "sensible", deals=10)
    Traceback (most recent call last):
    ...
    ValueError: players=8 is not allowed; Anaconda is played by 2 to 7 players (R2)
    >>> simulate(3, "bluffer", deals=10)
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'bluffer'; built-ins are 'random', 'call-down', ...
    >>> simulate(3, ["sensible", "random"], deals=10)
    Traceback (most recent call last):
    ...
    ValueError: 2 strategies given for 3 players; give one per seat (or a single name ...
    >>> simulate(3, "sensible", deals=0)
    Traceback (most recent call last):
    ...
    ValueError: deals=0 must be at least 1

    A user strategy written with numba (the signatures of
    :mod:`anaconda_sim.strategies`) runs inside the kernel:

    >>> import numba
    >>> from anaconda_sim import views as V
    >>> from anaconda_sim.strategies import Strategy
    >>> @numba.njit
    ... def raise_with_aces(pub, own, params, rng):
    ...     aces = 0
    ...     for i in range(own[V.O_NCARDS]):
    ...         if own[V.O_CARDS + i] >= 48:
    ...             aces += 1
    ...     return V.INTENT_AGGRESSIVE if aces >= params[0] else V.INTENT_PASSIVE
    >>> aces = Strategy.custom("aces", bet=raise_with_aces, params={"aces": 2})
    >>> r = simulate(3, [aces, "sensible", "sensible"], deals=500, seed=3, progress=False)
    >>> r.strategies
    ('aces', 'sensible', 'sensible')
    """
    rules = _as_rules(rules)
    run = _start_run(rules, strategies, deals, seed, dealer, rotate=rotate, betting=betting,
                     fixed=fixed, known=known, hero=-1, force=0, choices=None,
                     forced_pass=None, records=records, batch_size=batch_size)  # fmt: skip
    run.execute(progress)
    return _simulation_result(run)


def _simulation_result(run: _Run) -> SimulationResult:
    from .kernels import deal as K

    rules = run.rules
    count = max(run.done, 1)
    seat = run.sums["seat"][0]
    mean, se = _mean_se(seat[:, 0], seat[:, 1], run.done)
    rounds = rules.betting_rounds
    pot_mean, pot_se = _mean_se(run.sums["deal"][0, 0], run.sums["deal"][0, 4], run.done)
    return SimulationResult(
        rules=rules,
        strategies=tuple(s.name for s in run.strategies),
        deals=run.done,
        key=int(run.key),
        dealer=int(run.cfg[K.C_DEALER]),
        rotate=bool(run.cfg[K.C_ROTATE]),
        betting=bool(run.cfg[K.C_BETTING]),
        mean_net=mean,
        se=se,
        ci_low=mean - _Z95 * se,
        ci_high=mean + _Z95 * se,
        win_rate=seat[:, 3] / count,
        tie_rate=seat[:, 4] / count,
        showdown_rate=seat[:, 5] / count,
        category_freq=run.sums["cat"][0] / count,
        fold_rate=run.sums["fold"][0][:, :rounds] / count,
        open_rate=run.sums["open"][0][:, :rounds] / count,
        mean_pot=float(pot_mean),
        pot_se=float(pot_se),
        records=run.records_frame() if run.record else None,
        interrupted=run.interrupted,
        elapsed=run.elapsed,
    )


# ========================================================== score_choices ==
@dataclass(frozen=True)
class ChoiceScores:
    """Values of ``K`` alternative choices of one seat, on common random numbers.

    Arrays are indexed by choice ``k`` (the row of :attr:`choices`).

    Attributes
    ----------
    kind, hero, choices
        What was forced (``"pass"``, ``"discard"``, ``"order"``), for which
        seat, and the ``(K, m)`` card rows.
    deals
        Deals played; every choice was played on every deal.
    mean_net, se_net
        The hero's mean net chips per deal and its standard error.
    mean_share, se_share
        The hero's mean share of the pot (1 when it takes the pot, ``1/k``
        in a ``k``-way split, 0 otherwise; odd chips ignored). With
        ``betting=False`` this is the hero's showdown equity.
    sum_net, sum_share
        Sums over deals (``mean * deals``).
    cross_net, cross_share
        ``(K, K)`` sums over deals of ``x_k * x_j``: with the sums, they give
        the paired standard error of any difference (:meth:`diff`).
    category_counts
        ``(K, 9)``: deals in which the hero showed down with each category.
    showdown_rate
        Share of deals in which the hero reached the showdown.
    open_rate
        ``(K, 4)``: share of deals in which the hero opened reveal rounds 1-4.
    opp_fold_rate
        ``(K, rounds)``: share of opponent-deals (deals x opponents) with a
        fold in each betting round.
    mean_pot
        Mean final pot.
    left_mean_net, left_mean_share
        The same for the hero's left neighbour (seat ``hero + 1``), who
        receives the hero's pass.
    missed
        Deals in which the choice could not be applied (the hero did not
        hold the cards, e.g. after folding or receiving other cards); the
        hero's own strategy decided instead.
    records
        Per deal and choice rows when ``records=True``.
    """

    rules: Rules
    strategies: tuple[str, ...]
    kind: str
    hero: int
    dealer: int
    choices: np.ndarray
    deals: int
    key: int
    mean_net: np.ndarray
    se_net: np.ndarray
    mean_share: np.ndarray
    se_share: np.ndarray
    sum_net: np.ndarray
    sum_share: np.ndarray
    cross_net: np.ndarray
    cross_share: np.ndarray
    category_counts: np.ndarray
    showdown_rate: np.ndarray
    open_rate: np.ndarray
    opp_fold_rate: np.ndarray
    mean_pot: np.ndarray
    left_mean_net: np.ndarray
    left_mean_share: np.ndarray
    missed: np.ndarray
    records: pd.DataFrame | None = field(default=None, repr=False)
    interrupted: bool = False
    elapsed: float = 0.0

    def diff(self, i: int, j: int, value: str = "net") -> tuple[float, float]:
        """Mean of ``x_i - x_j`` over the deals and its paired standard error.

        ``value`` is ``"net"`` (chips) or ``"share"`` (pot share).

        Examples
        --------
        >>> s = score_choices(3, "call-down", hero=0, kind="pass", deals=400, seed=1,
        ...                   fixed={0: "As Ad Kc 7h 5d 3s 2c"},
        ...                   choices=["7h 3s 2c", "As Ad Kc"], progress=False)
        >>> d, se = s.diff(0, 1, "share")
        >>> d > 0 and se > 0
        True
        """
        if value == "net":
            total, cross = self.sum_net, self.cross_net
        elif value == "share":
            total, cross = self.sum_share, self.cross_share
        else:
            raise ValueError(f"value={value!r} must be 'net' or 'share'")
        n = self.deals
        s = float(total[i] - total[j])
        sq = float(cross[i, i] - 2 * cross[i, j] + cross[j, j])
        mean = s / n
        if n < 2:
            return mean, math.nan
        var = max((sq - s * mean) / (n - 1), 0.0)
        return mean, math.sqrt(var / n)

    def to_frame(self) -> pd.DataFrame:
        """One row per choice: ``choice, cards, deals, mean_net, se_net, ci_low,
        ci_high, mean_share, se_share, showdown_rate, open_r1..open_r4,
        mean_pot, left_mean_net, left_mean_share, missed`` and the hero's
        showdown category frequencies ``cat_*``."""
        k = self.choices.shape[0]
        data: dict[str, Any] = {
            "choice": np.arange(k),
            "cards": [format_cards(row[row >= 0]) for row in self.choices],
            "deals": np.full(k, self.deals),
            "mean_net": self.mean_net,
            "se_net": self.se_net,
            "ci_low": self.mean_net - _Z95 * self.se_net,
            "ci_high": self.mean_net + _Z95 * self.se_net,
            "mean_share": self.mean_share,
            "se_share": self.se_share,
            "showdown_rate": self.showdown_rate,
        }
        for r in range(self.open_rate.shape[1]):
            data[f"open_r{r + 1}"] = self.open_rate[:, r]
        data["mean_pot"] = self.mean_pot
        data["left_mean_net"] = self.left_mean_net
        data["left_mean_share"] = self.left_mean_share
        data["missed"] = self.missed
        for c, label in enumerate(CATEGORY_LABELS):
            data[f"cat_{label}"] = self.category_counts[:, c] / max(self.deals, 1)
        return pd.DataFrame(data)


def _parse_choices(choices: Any, kind: str, width: int) -> np.ndarray:
    if isinstance(choices, np.ndarray) and choices.ndim == 2:
        rows = list(choices)
    elif isinstance(choices, (str, bytes)):
        raise TypeError(f"choices={choices!r} must be a list of card rows, one per choice")
    else:
        rows = list(choices)
    if not rows:
        raise ValueError("choices is empty; give at least one choice")
    out = np.full((len(rows), 7), -1, dtype=np.int64)
    for k, row in enumerate(rows):
        cards = parse_cards(row, count=width, what=f"{kind} choice {k}")
        out[k, :width] = cards
    return out


def score_choices(
    rules: Rules | int,
    strategies: str | Strategy | Sequence[str | Strategy],
    *,
    hero: int,
    kind: str,
    choices: Any,
    deals: int,
    seed: SeedLike = None,
    dealer: int = 0,
    fixed: Mapping[int, Any] | Sequence[Any] | None = None,
    known: Any = None,
    forced_pass: Mapping[int, Any] | None = None,
    betting: bool = True,
    records: bool = False,
    batch_size: int | None = None,
    progress: ProgressLike = None,
    first_deal: int = 0,
) -> ChoiceScores:
    """Score ``K`` alternative choices of seat ``hero`` on common random numbers.

    Every deal is played once per choice, with the same cards and the same
    random numbers for everyone; only the hero's forced decision differs (and
    what follows from it). The hero's other decisions use its strategy.

    Parameters
    ----------
    rules, strategies
        As for :func:`simulate`.
    hero
        The seat whose choice is forced.
    kind
        ``"pass"``: ``choices`` are ``(K, c)`` cards passed in the first pass
        (``c`` = its card count); ``"discard"``: ``(K, 7)`` rows, two
        discards then the kept five in reveal order; ``"order"``: ``(K, 5)``
        reveal orders (the two held cards not in the row are discarded).
        Rows are card text (``"Qs Qh 9c"``) or index lists.
    choices
        The alternatives, one row each.
    deals
        Deals per choice.
    seed
        Seed of the run.
    dealer
        The dealer seat (fixed: the hero's position matters).
    fixed, known
        Fixed starting cards per seat and cards never dealt, as in
        :func:`simulate`. To score a pass, fix the hero's seven cards.
    forced_pass
        ``{seat: cards}``: first-pass cards forced for other seats (when they
        hold them). With the hero's pass and its right neighbour's pass
        forced, the hero's hand at the discard is known, which is how a
        discard or reveal order is scored after the pass.
    betting
        ``False``: nobody bets or folds; the share is the showdown equity.
    records, batch_size, progress
        As for :func:`simulate` (records: one row per deal and choice).
    first_deal
        Index of the first deal: runs ``first_deal .. first_deal + deals - 1``
        of the seed, so a long run can be split into parts that together
        give exactly the numbers of one run.

    Returns
    -------
    ChoiceScores

    Examples
    --------
    Keep the aces or pass them? (3 players, nobody bets: pot shares)

    >>> s = score_choices(3, "sensible", hero=0, kind="pass", deals=2000, seed=5,
    ...                   fixed={0: "As Ad Kc 7h 5d 3s 2c"}, betting=False,
    ...                   choices=["7h 3s 2c", "As Ad Kc"], progress=False)
    >>> bool(s.mean_share[0] > s.mean_share[1])
    True
    >>> s.to_frame()[["choice", "cards"]]
       choice      cards
    0       0   7h 3s 2c
    1       1   As Ad Kc
    >>> score_choices(3, "sensible", hero=0, kind="fold", choices=[[1]], deals=10)
    Traceback (most recent call last):
    ...
    ValueError: kind='fold' is not one of 'pass', 'discard', 'order'
    """
    rules = _as_rules(rules)
    n = rules.players
    hero = _check_seat(hero, n, "hero")
    if kind not in _KINDS:
        raise ValueError(f"kind={kind!r} is not one of 'pass', 'discard', 'order'")
    if kind == "pass":
        if not rules.passes:
            raise ValueError("kind='pass' needs rules with a pass")
        width = rules.passes[0][0]
    else:
        if not rules.discard:
            raise ValueError(f"kind={kind!r} needs rules with a discard (rules.discard=True)")
        width = _CHOICE_WIDTH[kind]
    rows = _parse_choices(choices, kind, width)
    table, _, _ = _fixed_table(fixed, known, n)
    if kind == "pass" and (table[hero] >= 0).all():
        held = set(table[hero].tolist())
        for k, row in enumerate(rows):
            missing = [c for c in row[:width].tolist() if c not in held]
            if missing:
                raise CardError(
                    f"pass choice {k} ({format_cards(row[:width])}) has "
                    f"{format_cards(missing)}, not in the hero's fixed hand "
                    f"{format_cards(table[hero])}"
                )
    fp = np.full((7, 3), -1, dtype=np.int64)
    if forced_pass:
        if not rules.passes:
            raise ValueError("forced_pass needs rules with a pass")
        count = rules.passes[0][0]
        for seat, cards in forced_pass.items():
            seat = _check_seat(seat, n, "forced_pass seat")
            if seat == hero:
                raise ValueError("forced_pass cannot force the hero; its choices do")
            fp[seat, :count] = parse_cards(cards, count=count, what=f"forced pass of seat {seat}")
    run = _start_run(rules, strategies, deals, seed, dealer, rotate=False, betting=betting,
                     fixed=fixed, known=known, hero=hero, force=_KINDS[kind], choices=rows,
                     forced_pass=fp, records=records, batch_size=batch_size)  # fmt: skip
    run.first_deal = _check_count(first_deal + 1, "first_deal + 1") - 1
    run.execute(progress)
    return _choice_scores(run, kind, hero, rows, width)


def _choice_scores(run: _Run, kind: str, hero: int, rows: np.ndarray, width: int) -> ChoiceScores:
    from .kernels import deal as K

    rules = run.rules
    n = rules.players
    count = max(run.done, 1)
    seat = run.sums["seat"][:, hero, :]
    cross = run.sums["cross"]
    unit = float(K.SHARE_UNIT)
    mean_net, se_net = _mean_se(seat[:, 0], np.diag(cross[0]), run.done)
    mean_share, se_share = _mean_se(seat[:, 2] / unit, np.diag(cross[1]) / unit**2, run.done)
    left = (hero + 1) % n
    left_seat = run.sums["seat"][:, left, :]
    opponents = [s for s in range(n) if s != hero]
    folds = run.sums["fold"][:, opponents, : rules.betting_rounds].sum(axis=1)
    first_reveal_round = 1 + len(rules.passes)
    if rules.progressive_reveal:
        opens = run.sums["open"][:, hero, first_reveal_round : first_reveal_round + REVEAL_ROUNDS]
    else:
        opens = np.zeros((rows.shape[0], 0), np.int64)
    return ChoiceScores(
        rules=rules,
        strategies=tuple(s.name for s in run.strategies),
        kind=kind,
        hero=hero,
        dealer=int(run.cfg[K.C_DEALER]),
        choices=rows[:, :width].copy(),
        deals=run.done,
        key=int(run.key),
        mean_net=mean_net,
        se_net=se_net,
        mean_share=mean_share,
        se_share=se_share,
        sum_net=seat[:, 0].astype(np.float64),
        sum_share=seat[:, 2] / unit,
        cross_net=cross[0].astype(np.float64),
        cross_share=cross[1] / unit**2,
        category_counts=run.sums["cat"][:, hero, :].copy(),
        showdown_rate=seat[:, 5] / count,
        open_rate=opens / count,
        opp_fold_rate=folds / (count * (n - 1)),
        mean_pot=run.sums["deal"][:, 0] / count,
        left_mean_net=left_seat[:, 0] / count,
        left_mean_share=left_seat[:, 2] / unit / count,
        missed=run.sums["deal"][:, 2].copy(),
        records=run.records_frame() if run.record else None,
        interrupted=run.interrupted,
        elapsed=run.elapsed,
    )
