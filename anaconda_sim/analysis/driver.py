"""The one driver behind every analysis: validation, the stopping rule,
batches, ranking and the table's model.

Every analysis (:mod:`~anaconda_sim.analysis.passes`,
:mod:`~anaconda_sim.analysis.discards`, :mod:`~anaconda_sim.analysis.reveal`)
takes the same sampling keywords (one :class:`~anaconda_sim.analysis.request.Request`,
turned into a :class:`Sampling` here by :func:`sampling`), runs its
kernel batch by batch through :class:`BatchRun` until the deal count or the
precision is reached, and shapes its table with :func:`finish`: the core
columns ``value``, ``se``, ``ci_low``, ``ci_high``, ``rank``,
``diff_vs_best``, ``diff_se`` and the model in ``DataFrame.attrs``
(:func:`model_attrs`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..cards import CardError, format_cards, parse_cards
from ..checks import check_int
from ..checks import check_players as check_players  # the analyses import it from here
from ..limits import DEFAULT_DEALS, DEFAULT_MAX_DEALS
from ..progress import progress_bar
from ..provenance import table_model
from ..rng import SeedLike
from ..sim.models import (
    ReceivedCondition,
    add_categories,
    pub_at_pass,
    showdown_kernel_strategies,
)
from ..stats import Z95, ChoiceAccumulator, estimate
from ..strategies.spec import Strategy, get_strategy
from ..table import views as V
from ..table.rules import Rules
from .request import Request
from .symmetry import Folding

__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_MAX_DEALS",
    "CardsLike",
    "OpponentSpec",
    "ReceivedCondition",
    "Request",
    "Sampling",
    "add_categories",
    "pub_at_pass",
    "sampling",
    "showdown_kernel_strategies",
]

#: deals per batch when ``batch_size`` is not given, for analyses of up to 35
#: choices (``REVEAL_BATCH`` for the 120 reveal orders): a batch takes a
#: fraction of a second, so progress and the precision check come often
#: without costing speed
DEFAULT_BATCH = 8192
REVEAL_BATCH = 2048

#: the public function of each analysis (recorded in every table's model)
FUNCTIONS = {"pass": "pass_values", "discard": "discard_values", "equity": "equity",
             "order": "reveal_values", "declare": "declare_values"}  # fmt: skip

CardsLike = str | Sequence[str | int]
OpponentSpec = str | Strategy | Sequence[str | Strategy]


# ------------------------------------------------------------- validation --
#: rule sets the analyses model: the default rules' high showdown (the
#: showdown model of the pass and discard kernels) and the hi-lo declare game
#: (R21-R26), played through the simulator's kernels (:func:`rules_of`)
ANALYSIS_RULES = ("pagat", "hi-lo")
HILO = "hi-lo"


def check_rules(rules: Any, players: int) -> str:
    """The name of the rule set an analysis plays, or a clear error.

    ``rules`` is a preset name of :data:`ANALYSIS_RULES` or a
    :class:`~anaconda_sim.table.rules.Rules` equal to that preset at this
    table size. Other rule sets (``"bicycle"``, custom passes) are played by
    :func:`~anaconda_sim.sim.simulate` and ``play``.

    Examples
    --------
    >>> check_rules("hi-lo", 4)
    'hi-lo'
    >>> check_rules("bicycle", 4)
    Traceback (most recent call last):
    ...
    ValueError: rules='bicycle' is not a rule set the analyses model; use one of 'pagat', ...
    """

    names = ", ".join(map(repr, ANALYSIS_RULES))
    if isinstance(rules, Rules):
        for name in ANALYSIS_RULES:
            if rules.name == name and rules == rules_of(name, players):
                return name
        raise ValueError(
            f"rules={rules!r} differ from the presets the analyses model ({names} at "
            f"{players} players); use rules='pagat' or rules='hi-lo' here, or "
            "simulate()/score_choices() for other rules"
        )
    if rules in ANALYSIS_RULES:
        return str(rules)
    raise ValueError(
        f"rules={rules!r} is not a rule set the analyses model; use one of {names} "
        "(simulate() and play take every preset)"
    )


def rules_of(name: str, players: int) -> Any:
    """The :class:`~anaconda_sim.table.rules.Rules` of analysis rule set ``name``."""

    return Rules.hilo(players) if name == HILO else Rules.pagat(players)


def check_bool(value: Any, name: str) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy booleans included), or a clear error.

    Examples
    --------
    >>> check_bool("no", "fold")
    Traceback (most recent call last):
    ...
    TypeError: fold='no' must be True or False
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r} must be True or False")
    return bool(value)


def opponent_strategies(spec: OpponentSpec, players: int) -> list[Strategy]:
    """One strategy per opponent seat 1..n-1 (left neighbour first)."""
    if isinstance(spec, (str, Strategy)):
        return [get_strategy(spec)] * (players - 1)
    strategies = [get_strategy(s) for s in spec]
    if len(strategies) != players - 1:
        raise ValueError(
            f"opponents has {len(strategies)} strategies for {players - 1} opponents; "
            f"give one strategy, or one per opponent seat (left neighbour first)"
        )
    return strategies


def own_view(seat: int, cards: Sequence[int]) -> np.ndarray:
    """The private view of a seat holding ``cards`` (nothing passed or received yet)."""
    own = V.new_own(seat)
    own[V.O_NCARDS] = len(cards)
    own[V.O_CARDS : V.O_CARDS + len(cards)] = cards
    return own


def no_overlap(cards: Sequence[int], others: Sequence[int], what: str, where: str) -> None:
    """Raise when a card of ``others`` is also in ``cards``."""
    clash = [c for c in others if c in cards]
    if clash:
        raise CardError(f"{what} include {format_cards(clash[:1])}, which is in {where}")


def known_cards(known: CardsLike | None, taken: list[int]) -> list[int]:
    """Validate ``known``: cards in no opponent's hand, none of them the hero's."""
    if known is None:
        return []
    dead = parse_cards(known, what="known cards")
    no_overlap(taken, dead, "known cards", "the hero's cards")
    return dead


def check_capacity(players: int, unseen: int, needed: int) -> None:
    """Raise when the table needs more unseen cards than are left."""
    if needed > unseen:
        raise ValueError(
            f"impossible: {players} players need {needed} cards the hero has not seen, but "
            f"only {unseen} are left; name fewer known cards or choose fewer players"
        )


def known_after_pass(
    hand7: list[int], passed: CardsLike | None, received: CardsLike | None
) -> tuple[list[int] | None, list[int] | None]:
    """Validate the hero's known cards after the pass; return them parsed."""
    passed_cards = None if passed is None else parse_cards(passed, 3, what="passed cards")
    received_cards = None if received is None else parse_cards(received, 3, what="received cards")
    if passed_cards is not None:
        clash = [c for c in passed_cards if c in hand7]
        if clash:
            raise CardError(
                f"passed card {format_cards(clash[:1])} is still in the hand "
                f"{format_cards(hand7)!r}; passed cards went to the left neighbour"
            )
    if received_cards is not None:
        missing = [c for c in received_cards if c not in hand7]
        if missing:
            raise CardError(
                f"received card {format_cards(missing[:1])} is not in the hand "
                f"{format_cards(hand7)!r}; the received cards are part of the seven held"
            )
    return passed_cards, received_cards


# --------------------------------------------------------------- sampling --
@dataclass(frozen=True)
class Sampling:
    """The run a :class:`~anaconda_sim.analysis.request.Request` asks for.

    ``limit`` is the number of deals to run (``deals``, or ``max_deals``
    with a ``precision`` target, else :data:`DEFAULT_DEALS`); ``precision``
    is 0.0 for a fixed deal count.
    """

    limit: int
    precision: float
    seed: SeedLike
    key: np.uint64
    batch_size: int | None
    progress: bool | None
    unicode: bool
    threads: int | None = None

    def batch(self, default: int = DEFAULT_BATCH, minimum: int = 1) -> int:
        """Deals per batch: ``batch_size`` if given, else the analysis's ``default``."""
        return max(default if self.batch_size is None else self.batch_size, minimum)


def sampling(request: Request | None = None, function: str = "the analysis",
             **keywords: Any) -> Sampling:  # fmt: skip
    """The run of an analysis from its request or its sampling keywords
    (:class:`~anaconda_sim.analysis.request.Request`: one place checks them all).

    Examples
    --------
    >>> sampling(seed=1).limit
    20000
    >>> sampling(deals=100, precision=0.01, seed=1)
    Traceback (most recent call last):
    ...
    ValueError: give deals= or precision=, not both
    """
    return Request.of(request, keywords, function).sampling()


@contextlib.contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Run the block on ``threads`` numba threads (``None``: as they are), then restore.

    Results never depend on the thread count (exact integer sums); only the
    speed does. More threads than numba started with are capped at its pool.
    """
    if threads is None:
        yield
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)


@dataclass
class BatchRun:
    """Batches of a kernel until the deal count or the precision is reached."""

    key: np.uint64
    limit: int
    precision: float
    batch: int
    progress: bool | None
    what: str
    threads: int | None = None

    @classmethod
    def of(cls, options: Sampling, batch: int, what: str) -> BatchRun:
        return cls(options.key, options.limit, options.precision, batch, options.progress, what,
                   options.threads)  # fmt: skip

    def batches(self, worst_se: Any) -> Iterator[tuple[int, int]]:
        """Yield ``(start, size)``; ``worst_se()`` is the current largest se."""
        start = 0
        # shown only when a run lasts more than a couple of seconds
        bar_context = progress_bar(self.limit, self.what, enabled=self.progress, leave=False)
        with numba_threads(self.threads), bar_context as bar:
            while start < self.limit:
                size = min(self.batch, self.limit - start)
                yield start, size
                start += size
                bar.update(size)
                if self.precision and start >= 2 * self.batch and worst_se() < self.precision:
                    break


# ------------------------------------------------------------------ tables --
def cards_text(cards: Sequence[int], unicode: bool) -> str:
    return format_cards(cards, unicode=unicode)


CORE_COLUMNS = ("rank", "value", "se", "ci_low", "ci_high", "diff_vs_best", "diff_se",
                "tied_with_best", "p_best")  # fmt: skip

#: draws of the joint normal approximation behind ``p_best``
P_BEST_DRAWS = 20_000


def p_best(acc: ChoiceAccumulator, key: np.uint64) -> np.ndarray:
    """The probability that each choice is the best one, given the estimates.

    The choice means are jointly normal around the estimates with the
    covariance of the paired (common random numbers) sample, divided by the
    number of deals; ``p_best[k]`` is the share of :data:`P_BEST_DRAWS`
    draws of that distribution in which choice ``k`` is the largest.
    Choices that gave the same value on every deal (equal in the exact sums)
    are one choice: they share its probability equally. It is a statement
    about the estimates, not a Bayesian
    posterior under a prior, and it says how surely the table's winner is
    the true best: close to 1 only when the best beats every rival by several
    paired standard errors. The draws are seeded from the run's key, so the
    same seed gives the same column.
    """
    if len(acc.total) == 1:
        return np.ones(1)
    cov = acc.covariance() / max(acc.deals, 1)
    return normal_p_best(acc.mean(), cov, _identical_choices(acc), key)


def normal_p_best(mean: np.ndarray, cov: np.ndarray, group: np.ndarray,
                  key: np.uint64) -> np.ndarray:  # fmt: skip
    """:func:`p_best` from the estimates ``mean``, their covariance ``cov``
    and ``group`` (for each choice, the first choice equal to it on every
    deal): the share of joint normal draws in which each choice is the
    largest, shared equally within a group."""
    k = len(mean)
    if k == 1:
        return np.ones(1)
    reps = np.flatnonzero(group == np.arange(k))
    mean = mean[reps]
    cov = cov[np.ix_(reps, reps)]
    if not np.all(np.isfinite(cov)):
        return np.full(k, np.nan)
    values, vectors = np.linalg.eigh(cov)
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    rng = np.random.default_rng(np.random.SeedSequence([int(key), 0x5EED]))
    draws = mean + rng.standard_normal((P_BEST_DRAWS, len(reps))) @ root.T
    rep_share = np.bincount(draws.argmax(axis=1), minlength=len(reps)) / P_BEST_DRAWS
    sizes = np.bincount(group, minlength=k)
    out = np.empty(k)
    for r, share in zip(reps, rep_share, strict=True):
        out[group == r] = share / sizes[r]
    return out


def _identical_choices(acc: ChoiceAccumulator) -> np.ndarray:
    """For each choice, the first choice equal to it on every deal (itself if none).

    Exact integer sums tell: the variance of the difference of choices ``i``
    and ``j`` is zero exactly when their sums and squares agree with their
    cross-product.
    """
    total, cross = acc.total, acc.cross
    group = np.arange(len(total))
    for j in range(len(total)):
        for i in range(j):
            if group[i] == i and total[i] == total[j] and cross[i, i] == cross[j, j] == cross[i, j]:
                group[j] = i
                break
    return group


Rescore = Callable[[np.ndarray, "Sampling"], ChoiceAccumulator]


def finish(
    frame: pd.DataFrame, acc: ChoiceAccumulator, order_key: list[Any], attrs: dict[str, Any],
    options: Sampling, *, confirm: int = 0, rescore: Rescore | None = None,
    folding: Folding | None = None,
) -> pd.DataFrame:  # fmt: skip
    """Add the core columns, rank the rows best first and attach the model.

    ``frame`` has one row per choice, in the order the accumulator scored
    them. Among exactly equal values the documented tie-break
    (``order_key``, smallest first) decides. ``tied_with_best``: the row's
    paired difference from the best is within its 95% interval (it cannot be
    told apart from the best at this sample size); ``p_best``: see
    :func:`p_best`. With ``confirm`` > 0 the best rows are re-estimated by
    ``rescore`` (:func:`confirm_top`).

    ``folding``: the choices equal up to a relabelling of suits
    (:class:`~anaconda_sim.analysis.symmetry.Folding`) become one row each,
    valued as the mean of its members, with a ``count`` column;
    ``attrs["members"]`` lists the members of each row standing for
    several, ``attrs["suit_symmetries"]`` the relabellings.
    """
    if folding is not None:
        label = next(c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c]))
        frame, acc, order_key, members = folding.fold(frame, acc, order_key, label)
        attrs = {**attrs, "fold": True, "suit_symmetries": list(folding.symmetries),
                 "members": members}  # fmt: skip
        if rescore is not None:
            rescore = folding.rescorer(rescore)
    mean, se = acc.mean(), acc.se()
    best = min(range(len(mean)), key=lambda k: (-mean[k], order_key[k]))
    frame = frame.assign(**estimate(mean, se))
    frame["diff_vs_best"] = mean - mean[best]
    frame["diff_se"] = acc.diff_se(best)
    frame["tied_with_best"] = np.abs(frame["diff_vs_best"]) <= Z95 * frame["diff_se"]
    frame["p_best"] = p_best(acc, options.key)
    frame["_tie"] = order_key
    frame = frame.sort_values(["value", "_tie"], ascending=[False, True], kind="stable")
    choices = frame.index.to_numpy()  # the choice of each ranked row
    frame = frame.drop(columns="_tie").reset_index(drop=True)
    frame["rank"] = frame["value"].rank(method="min", ascending=False).astype(int)
    labels = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    rest = [c for c in frame.columns if c not in CORE_COLUMNS and c not in labels]
    counts = [c for c in ("count",) if c in frame]
    rest = [c for c in rest if c not in counts]
    frame = frame[labels + counts + list(CORE_COLUMNS) + rest]
    frame.attrs.update(attrs, deals=acc.deals)
    if confirm and rescore is not None:
        confirm_top(frame, choices[:confirm], rescore, options)
    return frame


def model_attrs(
    analysis: str,
    cards: Sequence[int],
    players: int,
    *,
    opponents: list[Strategy],
    hero: Strategy | None,
    betting: bool,
    options: Sampling,
    rules: str = "pagat",
    **extra: Any,
) -> dict[str, Any]:
    """What a table's numbers are: the analysis, the hand and the full model
    (:func:`~anaconda_sim.provenance.table_model`).

    ``rules``: the rule set played (:func:`check_rules`).

    ``value_unit`` is ``"pot share"`` (showdown model) or ``"chips per
    deal"`` (betting); strategies are recorded with every parameter
    (:meth:`~anaconda_sim.strategies.Strategy.spec`).
    """
    return table_model(
        analysis, FUNCTIONS[analysis], players=players, rules=rules, betting=betting,
        seed=options.seed, hand=cards_text(cards, options.unicode),
        hero=None if hero is None else hero.spec(), opponents=[s.spec() for s in opponents],
        precision=options.precision or None, **extra,
    )  # fmt: skip


# ----------------------------------------------------------- confirmation --
def check_confirm(confirm: Any, rows: int) -> int:
    """``confirm`` as a number of rows 0..``rows``, or a clear error."""
    return check_int(confirm, "confirm", low=0, high=rows,
                     why=f"it counts the best rows to re-estimate, of {rows}")  # fmt: skip


def confirm_key(key: np.uint64) -> np.uint64:
    """The root key of the confirmation deals: independent of the screening's."""
    state = np.random.SeedSequence([int(key), 0xC0F1]).generate_state(1, dtype=np.uint64)
    fresh: np.uint64 = np.uint64(state[0])
    return fresh


def confirm_top(
    frame: pd.DataFrame, top: np.ndarray, rescore: Rescore, options: Sampling
) -> None:
    """Re-estimate the best rows (choices ``top``, best first) on fresh,
    independent deals, adding ``confirm_value`` and ``confirm_se`` to ``frame``.

    The best of many rows is the most favourably sampled one: its screening
    ``value`` is biased upwards (the winner's curse). ``confirm_value`` and
    ``confirm_se`` are the top rows' values on as many new deals as the
    screening used, from an independent stream (:func:`confirm_key`): unbiased,
    because those deals played no part in choosing the rows. Other rows get
    NaN. ``rescore(choices, options)`` scores the given choices.
    """
    confirm = len(top)
    fresh = dataclasses.replace(
        options, key=confirm_key(options.key), limit=int(frame.attrs["deals"]), precision=0.0
    )
    acc = rescore(top, fresh)
    value = np.full(len(frame), np.nan)
    se = np.full(len(frame), np.nan)
    value[:confirm], se[:confirm] = acc.mean(), acc.se()
    at = frame.columns.get_loc("p_best") + 1
    frame.insert(at, "confirm_value", value)
    frame.insert(at + 1, "confirm_se", se)
    frame.attrs.update(confirm=confirm, confirm_deals=acc.deals)
