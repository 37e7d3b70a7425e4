"""The value of every choice at a spot.

:func:`action_values` draws the rivals' hidden cards from their posterior
(:func:`~anaconda_sim.spots.rival_posterior`) and plays each drawn deal on
from the spot once per legal choice of the seat, on common random numbers,
with the deal kernels. A choice's value is the self-normalised importance
weighted mean of the seat's net chips over the whole deal (chips already in
the pot count as lost; they are the same for every choice, so differences
are what was still to win); its standard error is the delta-method one,
``sqrt(sum w^2 (x - mean)^2) / sum w``, and paired differences come the
same way from the per-draw differences.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..analysis.driver import normal_p_best
from ..checks import check_int
from ..limits import MAX_DEALS
from ..progress import progress_bar
from ..provenance import table_model
from ..rng import SeedLike, root_key
from ..sim.spots import play_spot
from ..stats import Z95
from .field import resolve_field
from .posterior import (
    Posterior,
    batch_mean_cov,
    check_method,
    check_tries,
    draw_posterior,
    effective_size,
)
from .state import KIND_NAMES, spot_choices, spot_of

__all__ = ["action_values", "batch_table"]


def batch_table(net: np.ndarray, weight: np.ndarray, batch: np.ndarray,
                key: np.uint64) -> pd.DataFrame:  # fmt: skip
    """Value, SE, paired difference from the best, ``p_best`` and effective
    sample size of each column of ``net`` (draws x choices), from weighted
    draws in independent batches (:func:`~anaconda_sim.spots.posterior.batch_mean_cov`)."""
    mean, cov = batch_mean_cov(net, weight, batch)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    best = int(np.argmax(mean))
    diff_var = np.diag(cov) + cov[best, best] - 2 * cov[:, best]
    diff_se = np.sqrt(np.clip(diff_var, 0.0, None))
    same = [int(np.flatnonzero(np.all(net == net[:, [k]], axis=0))[0]) for k in range(net.shape[1])]
    frame = pd.DataFrame({
        "value": mean, "se": se, "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se,
        "diff_vs_best": mean - mean[best], "diff_se": diff_se,
    })  # fmt: skip
    frame["tied_with_best"] = np.abs(frame["diff_vs_best"]) <= Z95 * frame["diff_se"]
    frame["p_best"] = normal_p_best(mean, cov, np.array(same), key)
    frame["ess"] = effective_size(net, weight, batch)
    return frame


def action_values(
    state: Any,
    opponents: Any = None,
    *,
    hero: Any = None,
    deals: int = 10_000,
    seed: SeedLike = None,
    move: int | None = None,
    seat: int | None = None,
    decision: str | None = None,
    keep: Any = None,
    tries: int | None = None,
    method: str = "walk",
    chains: int = 32,
    posterior: Posterior | None = None,
    unicode: bool = True,
) -> pd.DataFrame:
    """The value in chips of every legal choice of the seat deciding at a spot.

    Parameters
    ----------
    state
        A :class:`~anaconda_sim.game.Game` (its current state), a
        :class:`~anaconda_sim.game.History` or a history file's path with
        ``move``, or a :class:`~anaconda_sim.spots.Spot`.
    opponents
        What every other seat plays (a name, a Strategy, or one per seat):
        the likelihood of what they did before the spot and how they play on.
        Default: the strategies the history records (a deal played by
        :func:`~anaconda_sim.game.play_deal`, a session or ``anaconda-sim
        play`` records them), or ``"learned"``, assumed, for a history that
        records none (:mod:`anaconda_sim.spots.field`).
    hero
        What the deciding seat plays after this decision (default: its
        recorded strategy when the field is the recorded one, else the
        opponents' strategy).
    deals
        Posterior draws (deals with a positive weight) to play on.
    seed
        Same seed, same table (on any thread count).
    move, seat
        The spot in a history, and the deciding seat (:func:`~anaconda_sim.spots.spot_of`).
    decision, keep
        At a discard: ``"discard"`` (default: the 21 pairs of discards, each
        five shown hiding its most telling card) or ``"order"`` (the 120
        reveal orders of the five in ``keep``).
    tries
        Candidates per rival and draw of the posterior sampler (``None``:
        set per rival by a pilot run, :func:`~anaconda_sim.spots.rival_posterior`).
    method, chains
        The posterior sampler (:func:`~anaconda_sim.spots.rival_posterior`).
    posterior
        Draws of :func:`~anaconda_sim.spots.rival_posterior` at this spot to
        reuse (then ``deals`` and ``tries`` are theirs).

    Returns
    -------
    pandas.DataFrame
        One row per choice, best first: ``choice`` (the action or cards),
        ``rank``, ``value`` (mean net chips of the whole deal for the seat),
        ``se``, ``ci_low``, ``ci_high``, ``diff_vs_best``, ``diff_se``,
        ``tied_with_best``, ``p_best`` and ``from_here`` (the value plus
        the chips the seat has already put in: what it wins back from now
        on). ``attrs``: the model (``opponents``, ``hero``), where the
        field came from (``field``: ``"recorded"``, ``"given"`` or
        ``"assumed"``; ``field_is_recorded``; ``recorded_strategies``), the
        spot, and the posterior's ``draws``, ``attempts``, ``tries`` and
        effective sample size ``ess``.

    Raises
    ------
    ImpossibleSpotError
        What the rivals did is impossible (or too unlikely to sample) under
        ``opponents``; the message names the decision.

    Examples
    --------
    >>> from anaconda_sim.game import Game
    >>> from anaconda_sim.table.rules import Rules
    >>> g = Game(Rules(players=3), seed=4)
    >>> g.bet()
    >>> t = action_values(g, "sensible", deals=200, seed=1)
    >>> sorted(t["choice"])
    ['call', 'fold', 'raise']
    """
    spot = spot_of(state, move=move, seat=seat)
    field = resolve_field(spot, opponents, hero)
    strategies = list(field.strategies)
    key = root_key(seed)
    if posterior is None:
        deals = check_int(deals, "deals", low=2, high=MAX_DEALS)
        method, chains = check_method(method, chains)
    elif posterior.spot.move != spot.move or posterior.spot.seat != spot.seat:
        raise ValueError("posterior= was drawn at another spot; draw it at this one")
    kind, choices, labels = spot_choices(spot, decision, keep, unicode)
    # the posterior, then every choice played on it: one line on a terminal
    # (a first call also compiles the kernels, for about a minute)
    with progress_bar(2, "spot values", unit="step") as bar:
        if posterior is None:
            posterior = draw_posterior(spot, strategies, deals, key, check_tries(tries), method,
                                       chains)  # fmt: skip
        bar.update(1)
        net = play_spot(spot.rules, strategies, spot.arrays, kind, choices, posterior.draws,
                        _play_key(key)).astype(np.float64)  # fmt: skip
        bar.update(1)
    table = batch_table(net, posterior.draws.weight, posterior.batch, key)
    table.insert(0, "choice", labels)
    table["from_here"] = table["value"] + spot.game.invested[spot.seat]
    table = table.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(1, "rank", table["value"].rank(method="min", ascending=False).astype(int))
    table.attrs.update(table_model(
        "action_values", "action_values", players=spot.players, rules="pagat", betting=True,
        seed=seed,
        hand=spot.describe(unicode), hero=strategies[spot.seat].spec(),
        opponents=[s.spec() for i, s in enumerate(strategies) if i != spot.seat],
    ))  # fmt: skip
    table.attrs.update(
        seat=spot.seat, move=spot.move, decision=KIND_NAMES[kind], deals=len(net),
        draws=len(net), method=posterior.method, attempts=posterior.attempts,
        tries=list(posterior.tries), accepted=posterior.accepted, ess=posterior.ess,
        **field.attrs(),
    )
    return table


def _play_key(key: np.uint64) -> np.uint64:
    """The continuation streams' key: independent of the posterior's."""
    state = np.random.SeedSequence([int(key), 0x5B07]).generate_state(1, dtype=np.uint64)
    return np.uint64(state[0])
