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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..cards import format_cards
from ..checks import check_int
from ..limits import KEPT_SIZE, MAX_DEALS
from ..rng import SeedLike, root_key
from ..sim.spots import REACHED_DEAL, REACHED_DISCARD, Draws, sample_rivals
from ..strategies.spec import Strategy, get_strategy
from .state import Spot, spot_of

__all__ = ["ImpossibleSpotError", "Posterior", "field_strategies", "rival_posterior"]

#: candidates per rival and draw; each draw's weight is the product over
#: rivals of the share of consistent candidates
DEFAULT_TRIES = 32
#: attempts allowed per draw asked before a spot is called impossible
MAX_ATTEMPTS = 50


class ImpossibleSpotError(ValueError):
    """No deal consistent with what the rivals did under the stated strategy was found."""


@dataclass(frozen=True)
class Posterior:
    """Weighted draws of the rivals' hidden cards at a spot.

    ``draws`` holds the draws with a positive weight; ``attempts`` the draws
    made to find them (the rest had a rival with no consistent candidate).
    """

    spot: Spot
    draws: Draws
    attempts: int
    tries: int
    opponents: tuple[str, ...]

    @property
    def ess(self) -> float:
        """Effective sample size of the weights."""
        w = self.draws.weight
        return float(w.sum() ** 2 / (w**2).sum()) if len(w) else 0.0

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
                           draws=len(d.weight), attempts=self.attempts, tries=self.tries,
                           opponents=list(self.opponents))  # fmt: skip
        return frame


def field_strategies(spot: Spot, opponents: Any, hero: Any) -> list[Strategy]:
    """One strategy per seat: ``hero`` at the spot's seat, ``opponents``
    elsewhere (a name, a Strategy, or one per seat)."""
    n = spot.players
    if isinstance(opponents, (str, Strategy)):
        seats = [get_strategy(opponents)] * n
    else:
        items = list(opponents)
        if len(items) != n:
            raise ValueError(
                f"{len(items)} opponents given for {n} seats; give one strategy, or one per "
                f"seat (the entry of seat {spot.seat} is ignored)"
            )
        seats = [get_strategy(s) for s in items]
    seats[spot.seat] = get_strategy(hero) if hero is not None else seats[(spot.seat + 1) % n]
    return seats


def rival_posterior(
    state: Any, opponents: Any = "learned", *, draws: int = 1000, seed: SeedLike = None,
    move: int | None = None, seat: int | None = None, tries: int = DEFAULT_TRIES,
) -> Posterior:  # fmt: skip
    """Draws of the rivals' hidden cards given what they did.

    Parameters
    ----------
    state
        A :class:`~anaconda_sim.game.Game`, a :class:`~anaconda_sim.game.History`
        with ``move``, or a :class:`~anaconda_sim.spots.Spot`.
    opponents
        The strategy the rivals play (a name, a Strategy, or one per seat):
        their likelihood of every recorded decision.
    draws
        Draws with a positive weight to return.
    seed
        Same seed, same draws (on any thread count).
    tries
        Candidates per rival and draw.

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
    ([0], True)
    """
    spot = spot_of(state, move=move, seat=seat)
    draws = check_int(draws, "draws", low=1, high=MAX_DEALS)
    tries = check_int(tries, "tries", low=1, high=1 << 16)
    strategies = field_strategies(spot, opponents, None)
    return _posterior(spot, strategies, draws, root_key(seed), tries)


def _posterior(spot: Spot, strategies: list[Strategy], draws: int, key: np.uint64,
               tries: int) -> Posterior:  # fmt: skip
    """``draws`` positive-weight draws, made in rounds of attempts until found."""
    found: list[Draws] = []
    have = 0
    made = 0
    dead: Counter[int] = Counter()
    while have < draws:
        if made >= MAX_ATTEMPTS * draws:
            raise _impossible(spot, strategies, dead, made, tries)
        # enough attempts for the draws still missing, at the rate seen so far
        rate = have / made if have else (1.0 if made == 0 else 0.25 / made)
        batch = min(MAX_ATTEMPTS * draws - made, max(64, int(1.1 * (draws - have) / rate) + 1))
        out = sample_rivals(spot.rules, strategies, spot.arrays, key, batch, tries, first=made)
        made += batch
        alive = out.alive()
        dead.update(int(m) for m in out.dead[out.weight == 0])
        found.append(alive)
        have += len(alive.weight)
    joined = Draws(*(np.concatenate([getattr(d, f) for d in found])[:draws]
                     for f in ("cards", "received", "passed", "weight", "dead")))  # fmt: skip
    return Posterior(spot, joined, made, tries, tuple(s.spec() for s in strategies))


def _impossible(spot: Spot, strategies: list[Strategy], dead: Counter[int], made: int,
                tries: int) -> ImpossibleSpotError:  # fmt: skip
    if not spot.decisions or not dead:
        return ImpossibleSpotError(
            f"no deal consistent with the cards seen was found in {made:,} attempts"
        )
    worst = max(dead, key=lambda m: (dead[m], -m))
    decision = spot.decisions[worst]
    who = strategies[decision.seat].spec()
    return ImpossibleSpotError(
        f"no hidden cards of seat {decision.seat} reproduce {decision.text} under its stated "
        f"strategy {who!r} ({made:,} draws of {tries} candidates each): the state is "
        "impossible under that strategy, or too unlikely to sample; check the history, or "
        "give the opponents the strategy they played (or more tries=)"
    )
