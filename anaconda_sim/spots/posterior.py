"""The rivals' hidden cards at a spot, drawn from their posterior.

:func:`rival_posterior` draws them given every card the hero has seen and
every decision each rival took under the field's stated strategy
(sequential importance sampling with exact weights:
:mod:`anaconda_sim.sim.kernels.spot`). The weights are unbiased estimates
of each draw's likelihood; their effective sample size
``(sum w)^2 / sum w^2`` says how many unweighted draws they are worth.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ..cards import format_cards
from ..checks import check_int
from ..hands import evaluate
from ..limits import HAND_SIZE, KEPT_SIZE, MAX_DEALS
from ..rng import SeedLike, root_key
from ..sim.spots import (
    REACHED_DEAL,
    REACHED_DISCARD,
    Draws,
    passive_action,
    sample_rivals,
    walk_rivals,
)
from ..strategies.families import family_of_kind
from ..strategies.spec import Strategy
from ..table import views as V
from .field import field_strategies, resolve_field
from .state import Spot, spot_of

__all__ = [
    "ImpossibleSpotError",
    "Posterior",
    "draw_posterior",
    "field_strategies",
    "pilot_tries",
    "rival_posterior",
]

#: the pilot that sets the candidates per rival (``tries=None``): draws,
#: candidates per rival, and the expected summed candidate weight aimed at
PILOT_DRAWS = 32
PILOT_TRIES = 32
TARGET_WEIGHT = 2.0
#: bounds of the candidates per rival the pilot may choose
MIN_TRIES, MAX_TRIES = 4, 4096
#: the walk: chains, and its moves per rival before the first draw and between draws
DEFAULT_CHAINS = 32
START_DRAWS = 8
BURN_PER_RIVAL = 40
THIN_PER_RIVAL = 2
#: moves per rival a walk may search for a consistent state from an arbitrary one
SEARCH_PER_RIVAL = 20_000
#: rounds of that search when no chain finds one: each round fewer chains
#: search from fresh states, each :data:`SEARCH_GROWTH` times longer
SEARCH_ROUNDS = 3
SEARCH_GROWTH = 4
SEARCH_CHAINS = (None, 4, 2)  # None: every chain
#: importance attempts per starting draw before the walk searches instead
START_ATTEMPTS = 10
METHODS = ("walk", "importance")
#: attempts allowed per draw asked before a spot is called impossible
MAX_ATTEMPTS = 50


class ImpossibleSpotError(ValueError):
    """No deal consistent with what the rivals did under the stated strategy was found."""


def batch_mean_cov(x: np.ndarray, weight: np.ndarray,
                   batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The weighted mean of each column of ``x`` (draws x k) and the
    covariance of those means, from independent batches of draws
    (``batch[i]``: draw ``i``'s batch): the delta-method (ratio estimator)
    covariance ``sum_b (S_b - mean W_b)(S_b - mean W_b)' / W^2 * B / (B - 1)``
    with ``S_b``, ``W_b`` a batch's weighted sum and weight. Batches of one
    draw give the importance sampling formula; the chains of a walk give
    the between-chain (batch means) one, which counts the walk's
    autocorrelation."""
    total = weight.sum()
    mean = weight @ x / total
    ids, where = np.unique(batch, return_inverse=True)
    sums = np.zeros((len(ids), x.shape[1]))
    np.add.at(sums, where, weight[:, None] * x)
    weights = np.bincount(where, weights=weight, minlength=len(ids))
    resid = sums - weights[:, None] * mean
    b = len(ids)
    cov = resid.T @ resid / total**2 * (b / (b - 1) if b > 1 else np.nan)
    return mean, cov


def effective_size(x: np.ndarray, weight: np.ndarray, batch: np.ndarray) -> np.ndarray:
    """Effective sample size of the mean of each column of ``x``: the
    variance of one weighted draw over the variance of the mean."""
    mean, cov = batch_mean_cov(x, weight, batch)
    var = weight @ (x - mean) ** 2 / weight.sum()
    se2 = np.diag(cov)
    with np.errstate(divide="ignore", invalid="ignore"):
        ess = np.where(se2 > 0, var / se2, len(weight))
    return np.minimum(ess, len(weight))


@dataclass(frozen=True)
class Posterior:
    """Draws of the rivals' hidden cards at a spot.

    ``method`` ``"walk"``: ``chains`` Metropolis chains (``batch[i]``: draw
    ``i``'s chain; every weight 1) started at importance draws;
    ``"importance"``: the importance draws themselves (weights; each its own
    batch). ``attempts``: importance draws made (the rest had a rival with
    no consistent candidate); ``tries``: candidates per rival, in drawing
    order (``spot.arrays.order``); ``accepted``: the share of the walk's
    moves kept.
    """

    spot: Spot
    draws: Draws
    batch: np.ndarray
    method: str
    attempts: int
    tries: tuple[int, ...]
    opponents: tuple[str, ...]
    accepted: float = 1.0
    #: where the field came from (:meth:`~anaconda_sim.spots.field.Field.attrs`)
    field: dict[str, Any] | None = None

    @property
    def ess(self) -> float:
        """Effective sample size of the mean strength of the rivals' hands
        (the sum of their held cards' values): Kish's for importance draws,
        batch means over the chains for the walk."""
        d = self.draws
        if self.method == "importance":
            w = d.weight
            return float(w.sum() ** 2 / (w**2).sum()) if len(w) else 0.0
        rivals = self.spot.arrays.order
        strength = evaluate(d.cards[:, rivals].reshape(-1, HAND_SIZE)).reshape(len(d.weight), -1)
        return float(effective_size(strength.sum(axis=1, keepdims=True).astype(float),
                                    d.weight, self.batch)[0])  # fmt: skip

    def frame(self, unicode: bool = True) -> pd.DataFrame:
        """One row per draw and rival: its held cards, hidden cards, packets and the weight."""
        rows = []
        d = self.draws
        reached = self.spot.arrays.reached
        for i in range(len(d.weight)):
            for s in self.spot.arrays.order:
                cards = [int(c) for c in d.cards[i, s]]
                held = cards[:KEPT_SIZE] if reached[s] == REACHED_DISCARD else cards
                shown = self.spot.game.exposed(int(s))[:4]
                rows.append({
                    "draw": i, "seat": int(s), "weight": float(d.weight[i]),
                    "held": format_cards(held, unicode=unicode),
                    "hidden": format_cards([c for c in held if c not in shown], unicode=unicode),
                    "received": "" if reached[s] == REACHED_DEAL
                    else format_cards(d.received[i, s], unicode=unicode),
                    "passed": "" if reached[s] == REACHED_DEAL
                    else format_cards(d.passed[i, s], unicode=unicode),
                })  # fmt: skip
        frame = pd.DataFrame(rows)
        frame.attrs.update(seat=self.spot.seat, move=self.spot.move, ess=self.ess,
                           draws=len(d.weight), method=self.method, attempts=self.attempts,
                           tries=list(self.tries), accepted=self.accepted,
                           opponents=list(self.opponents), **(self.field or {}))  # fmt: skip
        frame.insert(1, "chain", np.repeat(self.batch, len(self.spot.arrays.order)))
        return frame


def rival_posterior(
    state: Any, opponents: Any = None, *, draws: int = 1000, seed: SeedLike = None,
    move: int | None = None, seat: int | None = None, tries: int | None = None,
    method: str = "walk", chains: int = DEFAULT_CHAINS,
) -> Posterior:  # fmt: skip
    """Draws of the rivals' hidden cards given what they did.

    Parameters
    ----------
    state
        A :class:`~anaconda_sim.game.Game`, a :class:`~anaconda_sim.game.History`
        or a history file's path with ``move``, or a :class:`~anaconda_sim.spots.Spot`.
    opponents
        The strategy the rivals play (a name, a Strategy, or one per seat):
        their likelihood of every recorded decision. Default: the strategies
        the history records, or ``"learned"`` (assumed) when it records
        none; the frame's ``attrs`` say which (``field``,
        ``field_is_recorded``, :mod:`anaconda_sim.spots.field`).
    draws
        Draws with a positive weight to return.
    seed
        Same seed, same draws (on any thread count).
    tries
        Candidates per rival and draw; ``None`` (default): set per rival by
        a pilot run (on its own stream) so that each rival's candidates
        hold about two consistent ones per draw, 4 to 4096.

    method
        ``"walk"`` (default): ``chains`` Metropolis chains over the hidden
        cards, started at ``chains / 4`` importance draws (2 to
        :data:`START_DRAWS`; each heads several chains), or, when none is
        found in :data:`START_ATTEMPTS` attempts per draw (strong evidence),
        each from arbitrary hidden cards from which it first searches for
        consistent ones; then run
        :data:`BURN_PER_RIVAL` moves per rival before it records a draw
        every :data:`THIN_PER_RIVAL` moves per rival. Exact in the limit of
        a long walk, and far cheaper per draw when what the rivals did is
        unlikely a priori; its standard errors come from the spread between
        chains. ``"importance"``: the importance draws alone (each rival
        drawn in pass order from the unseen cards, weighted by its share of
        consistent candidates): unbiased weights at any size, but costly at
        strong evidence.
    chains
        Chains of the walk (at least 2: the standard errors come from them).

    Raises
    ------
    ImpossibleSpotError
        No consistent deal in ``50 * draws`` attempts: the message names
        the recorded decision most candidates could not reproduce (the
        state is impossible, or too unlikely to sample, under the stated
        strategy).

    Examples
    --------
    >>> from anaconda_sim.game import Game
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=2), seed=4)
    >>> g.bet()
    >>> post = rival_posterior(g, "sensible", draws=50, seed=1)
    >>> post.frame()["seat"].unique().tolist(), post.ess > 1
    ([1], True)
    """
    spot = spot_of(state, move=move, seat=seat)
    draws = check_int(draws, "draws", low=1, high=MAX_DEALS)
    field = resolve_field(spot, opponents, None)
    method, chains = check_method(method, chains)
    post = draw_posterior(spot, list(field.strategies), draws, root_key(seed), check_tries(tries),
                          method, chains)  # fmt: skip
    return replace(post, field=field.attrs())


def check_method(method: Any, chains: Any) -> tuple[str, int]:
    """``method`` and ``chains`` checked."""
    if method not in METHODS:
        raise ValueError(f"method={method!r} is not a sampler; give 'walk' or 'importance'")
    return method, check_int(chains, "chains", low=2, high=4096,
                             why="the standard errors come from the spread between chains")


def check_tries(tries: Any) -> int | None:
    """``tries`` as a count of candidates, or ``None`` (set by the pilot)."""
    return None if tries is None else check_int(tries, "tries", low=1, high=1 << 16)


def _sub_key(key: np.uint64, salt: int) -> np.uint64:
    state = np.random.SeedSequence([int(key), salt]).generate_state(1, dtype=np.uint64)
    return np.uint64(state[0])


def pilot_tries(spot: Spot, strategies: list[Strategy], key: np.uint64,
                limit: int = MAX_TRIES) -> np.ndarray:  # fmt: skip
    """Candidates per rival from a pilot run: about :data:`TARGET_WEIGHT`
    over the mean candidate weight of each rival's step, within
    :data:`MIN_TRIES` .. :data:`MAX_TRIES`. A step no pilot draw reached
    is piloted again with eight times the candidates, up to ``limit``."""
    steps = len(spot.arrays.order)
    tries = np.full(steps, PILOT_TRIES, dtype=np.int64)
    pilot_key = _sub_key(key, 0x9170)
    while True:
        out = sample_rivals(spot.rules, strategies, spot.arrays, pilot_key, PILOT_DRAWS, tries)
        rate = out.rate
        reached = ~np.isnan(rate)
        mean = np.where(reached.any(axis=0), np.nanmean(np.where(reached, rate, 0.0), axis=0)
                        * reached.shape[0] / np.maximum(reached.sum(axis=0), 1), 0.0)  # fmt: skip
        blocked = [k for k in range(steps) if not reached[:, k].any() or mean[k] == 0.0]
        if not blocked or tries[blocked[0]] >= limit:
            break
        tries[blocked[0]] = min(limit, tries[blocked[0]] * 8)
    chosen = np.where(mean > 0, np.ceil(TARGET_WEIGHT / np.where(mean > 0, mean, 1.0)), MAX_TRIES)
    return np.clip(chosen, MIN_TRIES, MAX_TRIES).astype(np.int64)


def draw_posterior(spot: Spot, strategies: list[Strategy], draws: int, key: np.uint64,
               tries: int | None, method: str = "walk",
               chains: int = DEFAULT_CHAINS) -> Posterior:  # fmt: skip
    """``draws`` draws by ``method`` (:func:`rival_posterior`)."""
    _check_passive(spot, strategies)
    if method == "importance" or not len(spot.arrays.order):
        return _importance(spot, strategies, draws, key, tries)
    # the chains start at a few importance draws (each draw heads several
    # chains, which part during the burn-in): the draws are the costly part
    steps = len(spot.arrays.order)
    # importance draws start the chains; when none is found in a few
    # attempts each (strong evidence), each chain searches instead
    reason: Exception | None = None
    starts = None
    try:
        start = _importance(spot, strategies, max(2, min(START_DRAWS, chains // 4)), key, tries,
                            START_ATTEMPTS)  # fmt: skip
        heads = np.arange(chains) % len(start.draws.weight)
        starts = start.draws.take(heads)
        attempts, per_step = start.attempts, start.tries
    except ImpossibleSpotError as failed:
        reason = failed
    if starts is None:
        starts = _search_starts(spot, strategies, key, chains, reason)
        attempts, per_step = chains, (1,) * steps
    length = -(-draws // chains)
    # the starts are consistent (importance draws, or states a search found)
    # and keep that check: a check drawing a strategy's random choices, or a
    # dealt hand's order, afresh could fail where it passed (pseudo-marginal)
    drawn, moves = walk_rivals(spot.rules, strategies, spot.arrays, _sub_key(key, 0x3A1C),
                               starts, length, BURN_PER_RIVAL * steps, THIN_PER_RIVAL * steps,
                               -1)  # fmt: skip
    total = chains * (BURN_PER_RIVAL + length * THIN_PER_RIVAL) * steps
    # exactly the draws asked for: the last chains give one draw fewer
    keep = np.sort((np.arange(draws) % chains) * length + np.arange(draws) // chains)
    drawn = drawn.take(keep)
    return Posterior(spot, drawn, keep // length, "walk", attempts, tuple(per_step),
                     tuple(s.spec() for s in strategies), float(moves.sum() / total))


def _search_starts(spot: Spot, strategies: list[Strategy], key: np.uint64, chains: int,
                   reason: Exception | None) -> Draws:  # fmt: skip
    """Consistent starting states of ``chains`` chains, searched for from
    arbitrary hidden cards (strong evidence: importance draws found none).

    Each chain searches :data:`SEARCH_PER_RIVAL` moves per rival, keeping a
    move that leaves no more rivals inconsistent. Such a local search can
    be stuck where another is not, so a chain whose search fails starts at
    a consistent state another chain found (any consistent state is a
    valid start of the walk: the burn-in that follows parts the chains).
    When none finds one, fewer chains search again from fresh states,
    :data:`SEARCH_GROWTH` times longer, :data:`SEARCH_ROUNDS` rounds in all,
    before the spot is declared impossible."""
    steps = len(spot.arrays.order)
    budget = SEARCH_PER_RIVAL * steps
    searched = 0
    for round_, searchers in enumerate(SEARCH_CHAINS[:SEARCH_ROUNDS]):
        count = chains if searchers is None else min(chains, searchers)
        arbitrary = sample_rivals(spot.rules, strategies, spot.arrays,
                                  _sub_key(key, 0x57A7 + round_), count,
                                  np.ones(steps, dtype=np.int64), fallback=True)  # fmt: skip
        # a walk of one draw, no burn-in: the first consistent state it reaches
        found, moves = walk_rivals(spot.rules, strategies, spot.arrays,
                                   _sub_key(key, 0x5EA4 + round_), arbitrary, 1, 0, 1,
                                   budget)  # fmt: skip
        searched += count * budget
        ok = np.flatnonzero(moves >= 0)
        if len(ok):
            # a chain keeps the state its own search found, if any
            mine = np.zeros(chains, dtype=bool)
            mine[:count] = moves >= 0
            return found.take(np.where(mine, np.arange(chains), ok[np.arange(chains) % len(ok)]))
        budget *= SEARCH_GROWTH
    raise ImpossibleSpotError(
        f"{reason}; and searches of {searched:,} moves in all from arbitrary hidden cards "
        "found no consistent ones either"
    )


def _importance(spot: Spot, strategies: list[Strategy], draws: int, key: np.uint64,
                tries: int | None, attempts: int = MAX_ATTEMPTS,
                piloted: np.ndarray | None = None) -> Posterior:  # fmt: skip
    """``draws`` positive-weight importance draws, made in rounds of attempts
    until found (``piloted``: the pilot's candidates per rival, if run)."""
    steps = len(spot.arrays.order)
    if tries is not None:
        per_step = np.full(steps, tries)
    else:
        per_step = pilot_tries(spot, strategies, key) if piloted is None else piloted
    found: list[Draws] = []
    have = 0
    made = 0
    dead: Counter[int] = Counter()
    while have < draws:
        if made >= attempts * draws:
            raise _impossible(spot, strategies, dead, made, per_step)
        # enough attempts for the draws still missing, at the rate seen so far
        rate = have / made if have else (0.5 if made == 0 else 0.25 / made)
        batch = min(attempts * draws - made, max(8, int(1.2 * (draws - have) / rate) + 1))
        out = sample_rivals(spot.rules, strategies, spot.arrays, key, batch, per_step, first=made)
        made += batch
        alive = out.alive()
        dead.update(int(m) for m in out.dead[out.weight == 0])
        found.append(alive)
        have += len(alive.weight)
    fields = ("cards", "received", "passed", "weight", "dead", "rate")
    joined = Draws(*(np.concatenate([getattr(d, f) for d in found]) for f in fields))
    joined = joined.take(np.arange(draws))
    return Posterior(spot, joined, np.arange(draws), "importance", made,
                     tuple(int(t) for t in per_step), tuple(s.spec() for s in strategies))


def _check_passive(spot: Spot, strategies: list[Strategy]) -> None:
    """A bet of a passive strategy (``"call-down"``, ``"random-pass"``) is
    read off the public table: one that is not the passive action makes
    the spot impossible whatever the cards."""
    for d in spot.decisions:
        passive = family_of_kind(strategies[d.seat].kind).passive_betting
        if d.kind == V.D_BET and passive and d.action != passive_action(d.pub, d.seat):
            raise ImpossibleSpotError(
                f"{d.text} is impossible under its stated strategy "
                f"{strategies[d.seat].spec()!r}, which only checks or calls; give the "
                "opponents the strategy they played"
            )


def _impossible(spot: Spot, strategies: list[Strategy], dead: Counter[int], made: int,
                tries: np.ndarray) -> ImpossibleSpotError:  # fmt: skip
    if not spot.decisions or not dead:
        return ImpossibleSpotError(
            f"no deal consistent with the cards seen was found in {made:,} attempts"
        )
    worst = max(dead, key=lambda m: (dead[m], -m))
    decision = spot.decisions[worst]
    who = strategies[decision.seat].spec()
    return ImpossibleSpotError(
        f"no hidden cards of seat {decision.seat} reproduce {decision.text} under its stated "
        f"strategy {who!r} ({made:,} draws of up to {int(tries.max())} candidates per rival): "
        "the state is "
        "impossible under that strategy, or too unlikely to sample; check the history, or "
        "give the opponents the strategy they played (or more tries=)"
    )
