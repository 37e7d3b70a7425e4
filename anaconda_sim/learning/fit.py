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

from ..checks import check_deals, check_int, check_players
from ..rng import SeedLike
from ..strategies.learned.params import (
    BET_NAMES,
    LEARNED_DEFAULTS,
    N_PASS,
    ORDER_FEATURES,
    PASS_FEATURES,
)
from .betexploit import betting_exploitability
from .betting import betting_search, deviation_gain, seat_nets
from .exploit import exploitability
from .family import as_strategy, child_seed, complete_params, one_strategy
from .tables import (
    argmax_regret,
    estimate_win_table,
    fit_weights,
    order_table,
    pass_betting_table,
    pass_table,
    stratified_hands,
    unit_regret,
)

__all__ = ["LearnResult", "betting_exploitability", "estimate_win_table", "learn"]


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
    'learned-v1'
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
    params = dict(LEARNED_DEFAULTS if start is None else complete_params(start))
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
        params, rows = complete_params(saved["params"]), list(saved["history"])
        table = np.asarray(saved["win_table"], dtype=np.float64)
    if table is None:  # the starting field's card play, nobody folding
        table, _ = estimate_win_table(players, as_strategy(params), table_deals,
                                      child_seed(int(seed), 0, 0))  # fmt: skip
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


def _stranger_specs(strangers: Sequence[str]) -> tuple[str, ...]:
    """The betting search's stranger seats as full strategy specs (each
    checked here, before any work)."""
    if isinstance(strangers, str):
        raise TypeError(f"strangers={strangers!r} must be a sequence of strategy specs, "
                        f"for example ({strangers!r},)")  # fmt: skip
    return tuple(one_strategy(spec).spec() for spec in strangers)


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


# -------------------------------------------------------------- iteration --
def _iteration(settings: Settings, params: dict[str, float], table: np.ndarray,
               t: int) -> tuple[dict[str, Any], dict[str, float], np.ndarray]:  # fmt: skip
    import time

    began = time.perf_counter()
    players, seed = settings.players, settings.seed
    field_strategy = as_strategy(params, table)
    step = 1.0 / (t + 2)
    # 1. the pass's best response, fitted
    hands = stratified_hands(settings.situations, child_seed(seed, t, 1))
    features, values = pass_table(hands, players, field_strategy, settings.deals,
                                  child_seed(seed, t, 2))  # fmt: skip
    w_now = np.array([params[f"w_{f}"] for f in PASS_FEATURES])
    b_features = np.empty((0, 35, N_PASS))
    b_values = np.empty((0, 35))
    if settings.pass_bet_situations:  # joined by the pass in chips, with betting
        b_features, b_values = pass_betting_table(
            players, field_strategy, settings.pass_bet_situations, settings.pass_bet_deals,
            child_seed(seed, t, 10),
        )
    both = np.concatenate([unit_regret(values), unit_regret(b_values)])
    w_best = fit_weights(np.concatenate([features, b_features]), both, w_now)
    # 1b. the reveal order's best response, fitted the same way (chips, with betting)
    o_features, o_values = order_table(players, field_strategy, settings.order_situations,
                                       settings.order_deals, child_seed(seed, t, 8))  # fmt: skip
    o_now = np.array([params[f"o_{f}"] for f in ORDER_FEATURES])
    o_best = fit_weights(o_features, o_values, o_now)
    carded = dict(params)
    for i, f in enumerate(PASS_FEATURES):
        carded[f"w_{f}"] = float(w_now[i] + step * (w_best[i] - w_now[i]))
    for i, f in enumerate(ORDER_FEATURES):
        carded[f"o_{f}"] = float(o_now[i] + step * (o_best[i] - o_now[i]))
    # 2. the win table of the new card play
    new_table, _ = estimate_win_table(players, as_strategy(carded), settings.table_deals,
                                      child_seed(seed, t, 7))  # fmt: skip
    # 3. betting's best response, by coordinate search
    response, kept = betting_search(players, carded, new_table, settings.bet_deals,
                                    child_seed(seed, t, 3), settings.strangers)  # fmt: skip
    # 4. fictitious play: the field moves toward the best response
    new = dict(carded)
    for name in BET_NAMES:
        new[name] = float(carded[name] + step * (response[name] - carded[name]))
    new_strategy = as_strategy(new, new_table)
    # 5. measure the new field
    table_x = exploitability(new_strategy, players, "pass", hands=settings.eval_hands,
                             deals=settings.eval_deals, seed=child_seed(seed, t, 4))  # fmt: skip
    order_x = exploitability(new_strategy, players, "order", hands=settings.order_situations,
                             deals=settings.order_deals, betting=True,
                             seed=child_seed(seed, t, 9))  # fmt: skip
    bet_gain, bet_se = 0.0, 0.0
    if kept:  # the search's betting response, its other decisions the new field's
        deviant = as_strategy({**new, **{name: response[name] for name in BET_NAMES}}, new_table)
        bet_gain, bet_se = deviation_gain(players, deviant, new_strategy, settings.bet_deals,
                                          child_seed(seed, t, 5))  # fmt: skip
    h2h = seat_nets(players, new_strategy, field_strategy, settings.bet_deals,
                    child_seed(seed, t, 6))  # fmt: skip
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
