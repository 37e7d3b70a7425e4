"""Learning the ``"learned"`` family by iterated best response (fictitious play).

One iteration, at one table size, starting from the current field strategy:

1. **Pass.** ``situations`` starting hands are drawn stratified over the
   starting-hand classes (systematic sampling of the class probabilities,
   then a uniform hand of each drawn class). Each of the 35 passes of each
   hand is valued against the field (showdown model of
   :func:`~anaconda_sim.analysis.pass_values`: the field plays the current
   strategy, the seat keeps its best five) on common random numbers. The
   pass weights ``w`` are fitted to these best responses by maximising the
   expected value of a softmax policy over the 35 passes,

   ``J(w) = mean_i sum_k softmax_k(F_i w / tau) (v_ik - max_k v_ik) - l2 |w|^2``

   (``F_i``: the features of hand ``i``'s passes,
   :func:`~anaconda_sim.strategies.learned.play.pass_features_of`; ``v_ik``: pass
   ``k``'s value), by gradient ascent (Adam) while ``tau`` falls from 0.5
   to 0.05, so that the fitted argmax policy approaches the best responses.
   The showdown values are joined by ``pass_bet_situations`` situations
   valued in chips with betting (the situations of
   :func:`~anaconda_sim.learning.exploitability`'s ``"pass"`` decision,
   ``pass_bet_deals`` common deals each): the showdown model gives a sharp
   signal about card strength, the betting one what the pass is worth once
   the field bets on what it sees. Each block's values are scaled by their
   mean range, so both weigh alike in ``J``.
   **Reveal order** likewise: in ``order_situations`` situations at the
   order decision (the seat and its right neighbour pass and the seat
   discards by the field's strategy; the situations of
   :func:`~anaconda_sim.learning.exploitability`), the 120 orders of the
   kept five are valued in chips with betting, on ``order_deals`` common
   deals, and the order weights ``o`` fitted by the same loss
   (:func:`~anaconda_sim.strategies.learned.play.order_features_of`). The values are
   scaled by their mean range before the fit (:func:`fit_weights`).
2. **Win table.** The field's pass and order move toward the fitted ones
   (step 4's rule); the win table of that card play is estimated anew from ``table_deals``
   complete deals in which nobody folds
   (:func:`estimate_win_table`). The table is
   a model of the game under the field's card play, not a strategic
   choice, so it is re-estimated rather than mixed.
3. **Betting.** A coordinate search over the betting parameters: each
   threshold multiplied and divided by 1.25 (the bluff frequency moved by
   0.05), a single seat playing the change against a **population
   field**, in complete deals with the button rotating, on common random
   numbers (the same deals as the unchanged strategy): ``bet_deals`` deals
   against the current strategy in every other seat, and, for each
   strategy of ``strangers`` (default ``"sensible"``), ``bet_deals`` deals
   in which one of the other seats (each in turn) plays that stranger. A
   change is kept when its paired gain over the response as it stands (the
   changes kept so far), over all these deals, exceeds two standard
   errors. Self-play alone makes each iterate a best response to its own
   field only, and a field of such bots can lose to a seat that plays
   differently; the strangers keep the betting sound at a mixed table.
4. **Fictitious play.** The field moves toward the best response by the step
   ``1 / (iteration + 2)``: ``field = field + step * (best_response - field)``
   (parameter averaging: the family is deterministic, so the mixture of
   iterates is represented by its average parameters).
5. **Measure.** The field's one-decision exploitability
   (:func:`~anaconda_sim.learning.exploitability`) for the pass (pot share,
   showdown model) and for the reveal order (chips, with betting); the
   betting one as the gain of the search's betting response (one seat, its
   other decisions the new field's) over the new field (self-play only),
   re-measured on independent deals; and the head-to-head of the new
   iterate (one seat) against the previous one.

Learning stops when the pass exploitability has not fallen for ``patience``
iterations, or after ``iterations``. Everything is seeded from ``seed`` and
the iteration number, so the same seed gives the same strategy, and a run
resumes from its ``checkpoint`` file (JSON, written after every iteration).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.driver import BatchRun, sampling
from ..cards import parse_cards
from ..checks import check_deals, check_int, check_players
from ..hands.classes import hand_classes, sample_hands
from ..progress import progress_bar
from ..provenance import VALUE_UNITS, table_model
from ..rng import SeedLike
from ..sim.models import score_passes, showdown_kernel_strategies
from ..sim.simulator import simulate
from ..stats import estimate
from ..strategies.kinds import KIND_CALL_DOWN, KIND_LEARNED, KIND_SENSIBLE
from ..strategies.learned.params import (
    BET_NAMES,
    LEARNED_DEFAULTS,
    N_ORDER,
    N_PASS,
    ORDER_FEATURES,
    PARAM_NAMES,
    PASS_FEATURES,
    WIN_TABLE_SHAPE,
    shipped_params,
)
from ..strategies.learned.play import order_features_of, pass_features_of
from ..strategies.learned.winprob import tally_pairs
from ..strategies.spec import get_strategy, parse_strategies
from .exploit import exploitability, situation_values

__all__ = ["LearnResult", "betting_exploitability", "estimate_win_table", "learn"]

#: betting thresholds the search multiplies and divides by _FACTOR, their
#: ranges (a bet or raise threshold above 1 never bets), and the bluff step
_THRESHOLDS = tuple(n for n in BET_NAMES if n != "bluff")
_FACTOR = 1.25
_RANGE = {"bet": (0.01, 1.01), "raise": (0.01, 1.01), "call": (0.05, 8.0)}
_BLUFF_STEP = 0.05
#: thresholds of a seat that never bets, raises or folds (the win table's field)
_PASSIVE = {**{f"bet_r{r}": 2.0 for r in range(5)}, **{f"raise_r{r}": 2.0 for r in range(5)},
            **{f"call_r{r}": 0.0 for r in range(5)}, "bluff": 0.0}  # fmt: skip
#: the search keeps a change whose paired gain exceeds this many standard errors
_KEEP_Z = 2.0


@dataclass
class LearnResult:
    """What :func:`learn` returns.

    Attributes
    ----------
    strategy
        The learned field strategy (``"learned"`` with every parameter and
        its win table given).
    params
        Its parameters by name.
    win_table
        Its win table (flat, :data:`~anaconda_sim.strategies.learned.params.WIN_TABLE_SIZE`).
    history
        One row per iteration: ``iteration``, ``pass_exploitability``,
        ``pass_se`` (pot share), ``order_exploitability``, ``order_se``,
        ``bet_exploitability``, ``bet_se`` (chips per deal), ``h2h_chips``,
        ``h2h_se`` (the new iterate in one seat against the previous one),
        ``fit_regret``, ``pass_bet_fit_regret`` and ``order_fit_regret``
        (what the fitted argmax choice loses against the best one on the
        fitted situations: the pass in the showdown model, in pot share, and
        with betting, in chips; the order in chips),
        ``bet_changes`` (parameters the search moved) and ``seconds``.
    players, seed
        The table size and the seed learned with.
    """

    strategy: Any
    params: dict[str, float]
    win_table: np.ndarray
    history: pd.DataFrame
    players: int
    seed: int
    model: dict[str, Any] = field(default_factory=dict)


def learn(
    players: int,
    *,
    start: dict[str, float] | None = None,
    iterations: int = 6,
    patience: int = 2,
    situations: int = 200,
    deals: int = 1000,
    bet_deals: int = 20_000,
    table_deals: int = 50_000,
    eval_hands: int = 200,
    eval_deals: int = 1000,
    order_situations: int = 60,
    order_deals: int = 400,
    pass_bet_situations: int = 60,
    pass_bet_deals: int = 400,
    strangers: Sequence[str] = ("sensible",),
    seed: SeedLike = 2026,
    checkpoint: str | Path | None = None,
    progress: bool = True,
) -> LearnResult:
    """Learn the ``"learned"`` family's parameters at one table size.

    Parameters
    ----------
    players
        Table size, 2 to 7.
    start
        Parameters to start from (default: ``LEARNED_DEFAULTS``, close to
        ``"sensible"``).
    iterations, patience
        At most ``iterations``; stop early when the pass exploitability has
        not fallen below its best for ``patience`` iterations.
    situations, deals
        Hands per iteration for the pass fit, and deals per hand.
    bet_deals
        Deals per candidate of the betting search.
    table_deals
        Deals of each estimate of the win table.
    eval_hands, eval_deals
        Situations and deals of the pass exploitability measured each iteration.
    order_situations, order_deals
        Situations and deals per situation of the reveal-order fit, and of
        the order exploitability measured each iteration (with betting).
    pass_bet_situations, pass_bet_deals
        Situations and deals per situation of the pass valued in chips with
        betting, fitted together with the showdown values (0 situations:
        the showdown values alone).
    strangers
        Strategy specs that sit in one seat of the betting search's
        population field (empty: self-play only).
    seed
        The run's seed (an int).
    checkpoint
        A JSON file: written after every iteration; if it exists (same
        players and seed), learning resumes from it.
    progress
        Print one line per iteration.

    Returns
    -------
    LearnResult

    Examples
    --------
    >>> result = learn(2, iterations=1, situations=8, deals=60, bet_deals=400,
    ...                table_deals=1000, eval_hands=4, eval_deals=60, order_situations=3,
    ...                order_deals=40, pass_bet_situations=3, pass_bet_deals=40, seed=3,
    ...                progress=False)
    >>> result.history.columns[:3].tolist()
    ['iteration', 'pass_exploitability', 'pass_se']
    >>> result.strategy.name
    'learned'
    """

    players = check_players(players)
    seed = check_int(seed, "seed", fix="give seed as an int: learning is seeded")
    for name, value, low in (("iterations", iterations, 1), ("patience", patience, 1),
                             ("situations", situations, 2), ("deals", deals, 2),
                             ("bet_deals", bet_deals, 2), ("table_deals", table_deals, 2),
                             ("eval_hands", eval_hands, 2),
                             ("order_situations", order_situations, 2),
                             ("order_deals", order_deals, 2),
                             ("pass_bet_situations", pass_bet_situations, 0),
                             ("pass_bet_deals", pass_bet_deals, 2),
                             ("eval_deals", eval_deals, 2)):  # fmt: skip
        check_deals(value, name, low=low)
    stranger_specs = _stranger_specs(strangers)
    params = dict(LEARNED_DEFAULTS if start is None else _complete(start))
    table: np.ndarray | None = None
    rows: list[dict[str, Any]] = []
    path = None if checkpoint is None else Path(checkpoint)
    if path is not None and path.exists():
        saved = json.loads(path.read_text())
        if saved.get("players") != players or saved.get("seed") != int(seed):
            raise ValueError(
                f"checkpoint {str(path)!r} is of players={saved.get('players')}, "
                f"seed={saved.get('seed')}; use another file or the same players and seed"
            )
        params, rows = _complete(saved["params"]), list(saved["history"])
        table = np.asarray(saved["win_table"], dtype=np.float64)
    if table is None:  # the starting field's card play, nobody folding
        table, _ = estimate_win_table(players, as_strategy(params), table_deals,
                                      _seed(int(seed), 0, 0))  # fmt: skip
    best = min((r["pass_exploitability"] for r in rows), default=math.inf)
    stale = _stale(rows)
    settings = Settings(players, int(seed), situations, deals, bet_deals, table_deals, eval_hands,
                        eval_deals, order_situations, order_deals, pass_bet_situations,
                        pass_bet_deals, stranger_specs)  # fmt: skip
    while len(rows) < iterations and stale < patience:
        t = len(rows)
        row, params, table = _iteration(settings, params, table, t)
        rows.append(row)
        if row["pass_exploitability"] < best:
            best = row["pass_exploitability"]
        stale = _stale(rows)
        if path is not None:
            _save(path, players, int(seed), params, table, rows)
        if progress:
            print(f"players {players} iteration {t}: pass exploitability "
                  f"{row['pass_exploitability']:.4f} ± {row['pass_se']:.4f}, betting "
                  f"{row['bet_exploitability']:.4f} ± {row['bet_se']:.4f} chips, "
                  f"head to head {row['h2h_chips']:+.4f} ± {row['h2h_se']:.4f} "
                  f"({row['seconds']:.0f} s)", flush=True)  # fmt: skip
    strategy = as_strategy(params, table)
    model = {"players": players, "seed": int(seed), "situations": situations, "deals": deals,
             "bet_deals": bet_deals, "table_deals": table_deals, "eval_hands": eval_hands,
             "eval_deals": eval_deals, "order_situations": order_situations,
             "order_deals": order_deals, "pass_bet_situations": pass_bet_situations,
             "pass_bet_deals": pass_bet_deals, "strangers": list(stranger_specs),
             "iterations": len(rows)}  # fmt: skip
    return LearnResult(strategy, params, table, pd.DataFrame(rows), players, int(seed), model)


@dataclass(frozen=True)
class Settings:
    """The sample sizes of one learning run (:func:`learn`'s arguments)."""

    players: int
    seed: int
    situations: int
    deals: int
    bet_deals: int
    table_deals: int
    eval_hands: int
    eval_deals: int
    order_situations: int
    order_deals: int
    pass_bet_situations: int = 0
    pass_bet_deals: int = 2
    strangers: tuple[str, ...] = ()


def as_strategy(params: dict[str, float], table: np.ndarray | None = None) -> Any:
    """The ``"learned"`` strategy with every parameter given, and its own
    win table if ``table`` is given."""
    import dataclasses


    strategy = get_strategy("learned", **_complete(params))
    if table is None:
        return strategy
    return dataclasses.replace(strategy, win_table=tuple(float(x) for x in table))


def passive_variant(strategy: Any) -> Any:
    """A strategy with ``strategy``'s card play that never bets, raises or
    folds (the field of the win table: every deal reaches the showdown)."""
    import dataclasses


    if strategy.kind == KIND_LEARNED:  # its own win table, if any, goes along unused
        quiet = get_strategy("learned", **{**strategy.param_dict(), **_PASSIVE})
        return dataclasses.replace(quiet, win_table=strategy.win_table)
    if strategy.kind == KIND_SENSIBLE:
        return get_strategy("call-down")  # the same card play, never folding
    if strategy.kind == KIND_CALL_DOWN or strategy.name == "random-pass":
        return strategy
    raise ValueError(
        f"no passive variant of strategy {strategy.spec()!r}; the win table is estimated for "
        "'learned', 'sensible', 'call-down' or 'random-pass' card play"
    )


def _complete(params: dict[str, float]) -> dict[str, float]:
    unknown = set(params) - set(PARAM_NAMES)
    if unknown:
        raise ValueError(f"unknown learned parameter {sorted(unknown)[0]!r}")
    return {name: float(params.get(name, LEARNED_DEFAULTS[name])) for name in PARAM_NAMES}


def _stranger_specs(strangers: Sequence[str]) -> tuple[str, ...]:
    """The betting search's stranger seats as full strategy specs (each
    checked here, before any work)."""
    if isinstance(strangers, str):
        raise TypeError(f"strangers={strangers!r} must be a sequence of strategy specs, "
                        f"for example ({strangers!r},)")  # fmt: skip
    return tuple(_one_strategy(spec).spec() for spec in strangers)


def _one_strategy(spec: str) -> Any:

    found = parse_strategies(spec)
    if len(found) != 1:
        raise ValueError(f"stranger {spec!r} names {len(found)} strategies; give one per item")
    return found[0]


def _stale(rows: Sequence[dict[str, Any]]) -> int:
    """Iterations since the pass exploitability last reached a new low."""
    best, since = math.inf, 0
    for row in rows:
        if row["pass_exploitability"] < best:
            best, since = row["pass_exploitability"], 0
        else:
            since += 1
    return since


def _save(path: Path, players: int, seed: int, params: dict[str, float], table: np.ndarray,
          rows: list[dict[str, Any]]) -> None:  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(json.dumps({"players": players, "seed": seed, "params": params,
                                     "win_table": [float(x) for x in table],
                                     "history": rows}, indent=1) + "\n")  # fmt: skip
    temporary.replace(path)  # a crash never leaves half a checkpoint


def _seed(seed: int, *parts: int) -> int:
    """A child seed of the run's seed (independent streams per use)."""
    state = np.random.SeedSequence([seed, *parts]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))


# ------------------------------------------------------------------- pass --
def stratified_hands(n: int, seed: int) -> list[list[int]]:
    """``n`` starting hands, stratified over the starting-hand classes:
    class ``i`` is drawn by systematic sampling of the class probabilities
    (one random offset), then a hand uniformly from that class."""

    table = hand_classes()
    cumulative = np.cumsum(table["probability"].to_numpy())
    rng = np.random.default_rng(seed)
    points = (rng.random() + np.arange(n)) / n * cumulative[-1]
    classes = np.minimum(np.searchsorted(cumulative, points, side="right"), len(table) - 1)
    return [parse_cards(sample_hands(int(c), 1, seed=_seed(seed, i))[0])
            for i, c in enumerate(classes)]  # fmt: skip


def pass_table(hands: Sequence[Sequence[int]], players: int, field_strategy: Any, deals: int,
               seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(hands, 35, N_PASS)`` and values ``(hands, 35)`` of every pass
    against the field (showdown model, common random numbers per hand)."""
    import itertools


    opponents = [field_strategy] * (players - 1)
    showdown_kernel_strategies(opponents)  # refuse a custom field before any hand
    features = np.empty((len(hands), 35, N_PASS))
    values = np.empty((len(hands), 35))
    for i, hand in enumerate(hands):
        hero7 = np.array(hand, dtype=np.int64)
        pass_features_of(hero7, features[i])
        choices = np.array(list(itertools.combinations(hand, 3)), dtype=np.int64)
        options = sampling(deals=deals, precision=None, max_deals=deals, seed=_seed(seed, i),
                           batch_size=None, progress=False, unicode=False)  # fmt: skip
        run = BatchRun.of(options, options.batch(), "passes")
        scores = score_passes(run.batches, options.key, players, opponents, hand, choices)
        values[i] = scores.acc.mean()
    return features, values


def pass_betting_table(players: int, field_strategy: Any, situations: int, deals: int,
                       seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(situations, 35, N_PASS)`` and values in chips
    ``(situations, 35)`` of every pass with betting, the field playing
    ``field_strategy``: the situations and the model of
    :func:`~anaconda_sim.learning.exploitability`'s ``"pass"`` decision with
    ``betting=True`` (common random numbers per situation)."""
    return _situation_table(players, field_strategy, "pass", situations, deals, seed, N_PASS)


def _situation_table(
    players: int, field_strategy: Any, decision: str, situations: int, deals: int, seed: int,
    width: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Features and values in chips, with betting, of every choice of
    ``situations`` situations of ``decision`` (``"pass"`` or ``"order"``)."""

    values: np.ndarray | None = None
    features: np.ndarray | None = None
    for i in range(situations):
        choices, row = situation_values(field_strategy, players, decision, seed, i, deals,
                                        betting=True)  # fmt: skip
        if values is None or features is None:
            values = np.empty((situations, len(row)))
            features = np.empty((situations, len(row), width))
        values[i] = row
        if decision == "pass":
            # the 35 passes are itertools.combinations of the dealt seven, so
            # the cards in order of first appearance are the seven in order
            dealt = np.array(list(dict.fromkeys(choices.reshape(-1).tolist())), dtype=np.int64)
            pass_features_of(dealt, features[i])
        else:
            for k, order in enumerate(choices):
                order_features_of(order, features[i, k])
    assert values is not None and features is not None
    return features, values


def unit_regret(values: np.ndarray) -> np.ndarray:
    """Each choice's value minus its situation's best, divided by the mean
    range across situations (so blocks in pot share and in chips weigh alike)."""
    regret = values - values.max(axis=1, keepdims=True)
    spread = float(np.mean(-regret.min(axis=1))) if len(values) else 0.0
    return regret / spread if spread > 0 else regret


def fit_weights(features: np.ndarray, values: np.ndarray, start: np.ndarray, *,
                steps: int = 400, l2: float = 1e-4) -> np.ndarray:  # fmt: skip
    """The weights maximising ``J(w)`` (module docstring) from ``start``:
    ``features`` ``(situations, choices, features)``, ``values``
    ``(situations, choices)``. The values are scaled by their mean range
    across situations first, so the same step sizes suit pot shares and chips."""
    regret = unit_regret(values)  # <= 0; the best choice is 0
    w = start.astype(np.float64).copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(steps):
        tau = 0.5 * (0.1 ** (step / max(steps - 1, 1)))  # 0.5 -> 0.05
        logits = features @ w / tau
        logits -= logits.max(axis=1, keepdims=True)
        policy = np.exp(logits)
        policy /= policy.sum(axis=1, keepdims=True)
        expected = (policy * regret).sum(axis=1, keepdims=True)
        # dJ/dw = mean_i sum_k pi_ik (r_ik - E_i r) F_ik / tau - 2 l2 w
        weights = policy * (regret - expected) / tau
        grad = np.einsum("ik,ikf->f", weights, features) / len(features) - 2 * l2 * w
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        m_hat = m / (1 - beta1 ** (step + 1))
        v_hat = v / (1 - beta2 ** (step + 1))
        w += rate * m_hat / (np.sqrt(v_hat) + 1e-12)
    return w


def argmax_regret(features: np.ndarray, values: np.ndarray, w: np.ndarray) -> float:
    """Mean value lost by the argmax choice of weights ``w`` against the best choice."""
    chosen = np.argmax(features @ w, axis=1)
    return float(np.mean(values.max(axis=1) - values[np.arange(len(values)), chosen]))


# -------------------------------------------------------------- win table --
def estimate_win_table(
    players: int, strategy: Any, deals: int, seed: int, *, prior: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The win table of a field playing ``strategy``'s card play at
    ``players`` seats, from ``deals`` complete deals in which nobody folds.

    Each entry is ``(wins + prior / 2) / (pairs + prior)`` over the ordered
    pairs of seats that fell in it (a tie counts half): the rate shrunk
    toward 1/2 by ``prior`` pseudo-pairs, so a bucket never seen is 1/2 and a
    rare one is not 0 or 1 by chance.

    Returns the flat table (:data:`~anaconda_sim.strategies.learned.params.WIN_TABLE_SIZE`)
    and the number of pairs behind each entry (same shape).

    Examples
    --------
    >>> from anaconda_sim.strategies import get_strategy
    >>> table, pairs = estimate_win_table(3, get_strategy("sensible"), 500, seed=1)
    >>> table.shape, int(pairs.reshape(6, 12, 8)[0].sum())
    ((576,), 3000)
    """

    result = simulate(players, [passive_variant(strategy)] * players, deals, seed=seed,
                      records=True, progress=False)  # fmt: skip
    records = result.records
    assert records is not None
    records = records.sort_values(["deal", "seat"], kind="stable")

    def cards(prefix: str, count: int) -> np.ndarray:
        columns = [f"{prefix}_{k}" for k in range(count)]
        return records[columns].to_numpy(dtype=np.int64).reshape(deals, players, count)

    dealt = cards("dealt", 7)
    five = cards("hand", 5)
    discards = cards("discard", 2)
    held = np.concatenate([five, discards], axis=2)
    value = records["value"].to_numpy(dtype=np.int64).reshape(deals, players)
    if (value < 1).any():
        raise RuntimeError("a seat folded in the passive field; the win table needs showdowns")
    wins = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    pairs = np.zeros(WIN_TABLE_SHAPE, dtype=np.int64)
    tally_pairs(dealt, held, five, value, wins, pairs)
    table = (wins / 2 + prior / 2) / (pairs / 2 + prior)
    return table.reshape(-1), (pairs // 2).reshape(-1)


# ------------------------------------------------------------------ order --
def order_table(players: int, field_strategy: Any, situations: int, deals: int,
                seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Features ``(situations, 120, N_ORDER)`` and values in chips
    ``(situations, 120)`` of every reveal order of the kept five, with
    betting, the field playing ``field_strategy``: the situations and the
    model of :func:`~anaconda_sim.learning.exploitability`'s ``"order"``
    decision (the seat and its right neighbour pass and the seat discards
    by the field's strategy; common random numbers per situation)."""
    return _situation_table(players, field_strategy, "order", situations, deals, seed, N_ORDER)


# ---------------------------------------------------------------- betting --
def _seat_nets(players: int, seat0: Any, field_strategy: Any, deals: int, seed: int,
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
    parts = [_seat_nets(players, seat0, field_strategy, deals, seed)]
    for s, spec in enumerate(strangers):
        stranger = _one_strategy(spec)
        shares = np.diff(np.linspace(0, deals, players).round().astype(int))
        for seat, share in enumerate(shares, start=1):
            if share > 0:
                parts.append(_seat_nets(players, seat0, field_strategy, int(share),
                                        _seed(seed, s + 1, seat), stranger, seat))  # fmt: skip
    return np.concatenate(parts)


def deviation_gain(players: int, deviant: Any, field_strategy: Any, deals: int,
                   seed: int) -> tuple[float, float]:  # fmt: skip
    """Mean and standard error of what one seat gains per deal by playing
    ``deviant`` instead of ``field_strategy`` in a field of
    ``field_strategy``: both on the same ``deals`` deals of ``seed``."""
    return _paired(_seat_nets(players, deviant, field_strategy, deals, seed),
                   _seat_nets(players, field_strategy, field_strategy, deals, seed))  # fmt: skip


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    d = a - b
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d)))


def _candidates(params: dict[str, float]) -> list[tuple[str, float]]:
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


def _sensible_candidates(params: dict[str, float]) -> list[tuple[str, float]]:
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
                             _candidates(params), deals, seed, strangers)  # fmt: skip


def betting_exploitability(
    strategy: Any, players: int, *, deals: int = 20_000, passes: int = 2, seed: SeedLike = 2026,
    progress: bool | None = None,
) -> pd.DataFrame:
    """How much one seat gains by changing its betting alone, within the
    strategy's own parameter family, against a field playing the strategy.

    A coordinate search (``passes`` passes over the family's betting steps:
    for ``"learned"`` each threshold ×/÷ 1.25 and the bluff ± 0.05, for
    ``"sensible"`` each category threshold ± 1, the respect of exposed
    cards switched and the bluff ± 0.05) finds the deviating seat's
    betting on ``deals`` screening deals; the gain of that betting over the
    strategy's own is then measured on ``deals`` independent deals (common
    random numbers, the button rotating), in net chips per deal. Like
    :func:`~anaconda_sim.learning.exploitability`, it is a lower bound on
    full exploitability: one decision family changed, within the strategy's
    own parameters, found by a local search.

    Parameters
    ----------
    strategy
        ``"sensible"`` or ``"learned"`` (a spec or a strategy); the other
        built-ins have no betting parameters.
    players
        Table size, 2 to 7.
    deals
        Deals per candidate of the search, and of the final measurement.
    passes
        Passes of the coordinate search.
    seed
        An int.
    progress
        A progress line counting the passes of the search: ``None`` on a
        terminal once the call has lasted two seconds, ``True`` always,
        ``False`` never (:mod:`anaconda_sim.progress`).

    Returns
    -------
    pandas.DataFrame
        One row: ``strategy``, ``players``, ``decision`` (``"betting"``),
        ``value`` (the gain), ``se``, ``ci_low``, ``ci_high`` (95%), ``deals``,
        ``unit`` (chips per deal) and ``changes`` (``name=value`` of the
        response's parameters that moved); ``attrs`` name the model.

    Examples
    --------
    >>> table = betting_exploitability("sensible", 3, deals=300, passes=1, seed=1)
    >>> table[["strategy", "decision", "unit"]].iloc[0].tolist()
    ['sensible', 'betting', 'chips per deal']
    """

    players = check_players(players)
    strategy = _one_strategy(strategy) if isinstance(strategy, str) else get_strategy(strategy)
    seed = check_int(seed, "seed", fix="give seed as an int")
    check_deals(deals, low=2)
    check_int(passes, "passes", low=1)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress={progress!r} must be True, False or None (automatic)")
    own = strategy.param_dict()
    if strategy.kind == KIND_LEARNED:
        import dataclasses

        def make(p: dict[str, float]) -> Any:
            return dataclasses.replace(get_strategy("learned", **p),
                                       win_table=strategy.win_table)  # fmt: skip

        steps = _candidates
        # the shipped vector of this table size, with any parameter the spec gives
        own = _complete({**shipped_params(players), **own})
    elif strategy.kind == KIND_SENSIBLE:

        def make(p: dict[str, float]) -> Any:
            return get_strategy("sensible", **p)

        steps = _sensible_candidates
    else:
        raise ValueError(
            f"strategy {strategy.spec()!r} has no betting parameters; betting exploitability "
            "is measured for 'sensible' and 'learned'"
        )
    response = dict(own)
    # one step per pass of the search, and one for the final measurement
    with progress_bar(passes + 1, "betting exploitability", unit="step",
                      enabled=progress) as bar:  # fmt: skip
        for k in range(passes):
            response, kept = coordinate_search(players, strategy, make, response,
                                               steps(response), deals,
                                               _seed(int(seed), 20, k))  # fmt: skip
            bar.update(1)
            if not kept:
                bar.update(passes - 1 - k)
                break
        gain, se = deviation_gain(players, make(response), strategy, deals, _seed(int(seed), 21))
        bar.update(1)
    changes = ",".join(f"{k}={response[k]:g}" for k in response if response[k] != own[k])
    table = pd.DataFrame([{
        "strategy": strategy.name, "players": players, "decision": "betting",
        **estimate(gain, se), "deals": deals, "unit": VALUE_UNITS[True], "changes": changes,
    }])  # fmt: skip
    table.attrs = table_model(
        "betting exploitability", "betting_exploitability", players=players, rules="pagat",
        betting=True, seed=int(seed), strategy=strategy.spec(), deals=deals, passes=passes,
        definition="gain of one seat's betting, found by a coordinate search within the "
        "strategy's parameter family, over the strategy's own betting, on independent deals "
        "(a lower bound on exploitability)",
    )  # fmt: skip
    return table


# -------------------------------------------------------------- iteration --
def _iteration(settings: Settings, params: dict[str, float], table: np.ndarray,
               t: int) -> tuple[dict[str, Any], dict[str, float], np.ndarray]:  # fmt: skip
    import time


    began = time.perf_counter()
    players, seed = settings.players, settings.seed
    field_strategy = as_strategy(params, table)
    step = 1.0 / (t + 2)
    # 1. the pass's best response, fitted
    hands = stratified_hands(settings.situations, _seed(seed, t, 1))
    features, values = pass_table(hands, players, field_strategy, settings.deals,
                                  _seed(seed, t, 2))  # fmt: skip
    w_now = np.array([params[f"w_{f}"] for f in PASS_FEATURES])
    b_features = np.empty((0, 35, N_PASS))
    b_values = np.empty((0, 35))
    if settings.pass_bet_situations:  # joined by the pass in chips, with betting
        b_features, b_values = pass_betting_table(
            players, field_strategy, settings.pass_bet_situations, settings.pass_bet_deals,
            _seed(seed, t, 10),
        )
    both = np.concatenate([unit_regret(values), unit_regret(b_values)])
    w_best = fit_weights(np.concatenate([features, b_features]), both, w_now)
    # 1b. the reveal order's best response, fitted the same way (chips, with betting)
    o_features, o_values = order_table(players, field_strategy, settings.order_situations,
                                       settings.order_deals, _seed(seed, t, 8))  # fmt: skip
    o_now = np.array([params[f"o_{f}"] for f in ORDER_FEATURES])
    o_best = fit_weights(o_features, o_values, o_now)
    carded = dict(params)
    for i, f in enumerate(PASS_FEATURES):
        carded[f"w_{f}"] = float(w_now[i] + step * (w_best[i] - w_now[i]))
    for i, f in enumerate(ORDER_FEATURES):
        carded[f"o_{f}"] = float(o_now[i] + step * (o_best[i] - o_now[i]))
    # 2. the win table of the new card play
    new_table, _ = estimate_win_table(players, as_strategy(carded), settings.table_deals,
                                      _seed(seed, t, 7))  # fmt: skip
    # 3. betting's best response, by coordinate search
    response, kept = betting_search(players, carded, new_table, settings.bet_deals,
                                    _seed(seed, t, 3), settings.strangers)  # fmt: skip
    # 4. fictitious play: the field moves toward the best response
    new = dict(carded)
    for name in BET_NAMES:
        new[name] = float(carded[name] + step * (response[name] - carded[name]))
    new_strategy = as_strategy(new, new_table)
    # 5. measure the new field
    table_x = exploitability(new_strategy, players, "pass", hands=settings.eval_hands,
                             deals=settings.eval_deals, seed=_seed(seed, t, 4))  # fmt: skip
    order_x = exploitability(new_strategy, players, "order", hands=settings.order_situations,
                             deals=settings.order_deals, betting=True,
                             seed=_seed(seed, t, 9))  # fmt: skip
    bet_gain, bet_se = 0.0, 0.0
    if kept:  # the search's betting response, its other decisions the new field's
        deviant = as_strategy({**new, **{name: response[name] for name in BET_NAMES}}, new_table)
        bet_gain, bet_se = deviation_gain(players, deviant, new_strategy, settings.bet_deals,
                                          _seed(seed, t, 5))  # fmt: skip
    h2h = _seat_nets(players, new_strategy, field_strategy, settings.bet_deals, _seed(seed, t, 6))
    row = {
        "iteration": t,
        "pass_exploitability": float(table_x["value"].iloc[0]),
        "pass_se": float(table_x["se"].iloc[0]),
        "order_exploitability": float(order_x["value"].iloc[0]),
        "order_se": float(order_x["se"].iloc[0]),
        "bet_exploitability": bet_gain,
        "bet_se": bet_se,
        "h2h_chips": float(h2h.mean()),
        "h2h_se": float(h2h.std(ddof=1) / math.sqrt(len(h2h))),
        "fit_regret": argmax_regret(features, values, w_best),
        "pass_bet_fit_regret": (
            argmax_regret(b_features, b_values, w_best) if len(b_values) else math.nan
        ),
        "order_fit_regret": argmax_regret(o_features, o_values, o_best),
        "bet_changes": ",".join(kept),
        "seconds": time.perf_counter() - began,
    }
    return row, new, new_table
