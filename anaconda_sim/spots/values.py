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

from ..analysis.driver import normal_p_best, numba_threads
from ..analysis.request import Request
from ..checks import check_int
from ..limits import MAX_DEALS
from ..progress import progress_bar
from ..provenance import table_model
from ..rng import SeedLike, root_key
from ..sim.spots import compile_spot_kernels, play_spot
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

__all__ = ["MIN_ESS", "action_values", "batch_table", "ess_warning", "tied_ranks"]

#: the effective sample size under which a table warns
MIN_ESS = 200


def batch_table(net: np.ndarray, weight: np.ndarray, batch: np.ndarray,
                key: np.uint64) -> pd.DataFrame:  # fmt: skip
    """Value, SE, paired difference from the best, ``p_best`` and effective
    sample size of each column of ``net`` (draws x choices), from weighted
    draws in independent batches (:func:`~anaconda_sim.spots.posterior.batch_mean_cov`)."""
    mean, cov = batch_mean_cov(net, weight, batch)
    # a choice worth the same on every draw (a fold) is known exactly: its
    # value is that number and it varies with nothing, so a difference from
    # it has exactly the other choice's SE (the weighted sums would leave a
    # rounding residue of 1e-16)
    constant = np.all(net == net[:1], axis=0)
    mean[constant] = net[0, constant]
    cov[constant, :] = 0.0
    cov[:, constant] = 0.0
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
    frame.insert(0, "rank", tied_ranks(mean, cov))
    frame.attrs["groups"] = same
    return frame


def tied_ranks(mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """Ranks that do not order what the estimates cannot tell apart: a
    choice's rank is one plus the number of choices better than it by more
    than :data:`~anaconda_sim.stats.Z95` standard errors of their paired
    difference. Choices no other choice beats so share rank 1; choices equal
    on every draw (a difference with no variance and no mean) always share
    their rank, and choices worth different constants never do.

    Examples
    --------
    >>> cov = np.array([[0.01, 0.0, 0.0], [0.0, 0.01, 0.0], [0.0, 0.0, 0.0]])
    >>> tied_ranks(np.array([1.0, 0.9, -2.0]), cov).tolist()
    [1, 1, 3]
    """
    var = np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov
    gap = mean[None, :] - mean[:, None]  # [i, j]: how much better j is than i
    with np.errstate(invalid="ignore"):
        better = gap > Z95 * np.sqrt(np.clip(var, 0.0, None))
    return 1 + better.sum(axis=1)


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
    request: Request | None = None,
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
    request
        The analyses' request shape (:class:`~anaconda_sim.analysis.Request`)
        instead of ``deals``, ``seed`` and ``unicode``: its ``deals`` (this
        function's 10,000 when not set), ``seed``, ``unicode``, ``threads``
        and ``progress``; a ``precision`` is refused (the draws are a fixed
        number).

    Returns
    -------
    pandas.DataFrame
        One row per choice, best first: ``choice`` (the action or cards),
        ``rank``, ``value`` (mean net chips of the whole deal for the seat),
        ``se``, ``ci_low``, ``ci_high``, ``diff_vs_best``, ``diff_se``,
        ``tied_with_best``, ``p_best`` and ``from_here`` (the value plus
        the chips the seat has already put in: what it wins back from now
        on). ``rank`` does not order ties: it is one plus the number of
        choices better by more than 1.96 standard errors of the paired
        difference (:func:`tied_ranks`), so choices equal within their
        standard errors share a rank. ``attrs["summary"]`` is one line when
        every choice is worth the same on every draw (``attrs["all_equal"]``)
        or all are tied, else ``None``; ``attrs["ess_warning"]`` says when
        the effective sample size is under :data:`MIN_ESS` and how many
        deals to give. ``attrs``: the model (``opponents``, ``hero``), where the
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
    progress, threads = None, None
    if request is not None:
        if (deals, seed, unicode) != (10_000, None, True):
            raise TypeError("give request= or deals/seed/unicode, not both")
        request = Request.of(request, {}, "action_values")
        deals = request.fixed_deals("action_values", deals)
        seed, unicode = request.seed, request.unicode
        progress, threads = request.progress, request.threads
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
    with numba_threads(threads), progress_bar(2, "spot values", unit="step",
                                              enabled=progress) as bar:  # fmt: skip
        # every kernel of the play (and of the posterior, unless given) in one round
        compile_spot_kernels(spot.rules, strategies, spot.arrays, kind, choices,
                             drawing=posterior is None)  # fmt: skip
        if posterior is None:
            posterior = draw_posterior(spot, strategies, deals, key, check_tries(tries), method,
                                       chains)  # fmt: skip
        bar.update(1)
        net = play_spot(spot.rules, strategies, spot.arrays, kind, choices, posterior.draws,
                        _play_key(key)).astype(np.float64)  # fmt: skip
        bar.update(1)
    table = batch_table(net, posterior.draws.weight, posterior.batch, key)
    groups = table.attrs.pop("groups")
    table.insert(0, "choice", labels)
    table["from_here"] = table["value"] + spot.game.invested[spot.seat]
    # best first; within a shared rank by value (the order of a tie says nothing)
    table = table.sort_values(["rank", "value"], ascending=[True, False],
                              kind="stable").reset_index(drop=True)  # fmt: skip
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
    table.attrs.update(all_equal=len(set(groups)) == 1, summary=_summary(table, groups),
                       ess_warning=ess_warning(posterior.ess, len(net)))  # fmt: skip
    return table


def _summary(table: pd.DataFrame, groups: list[int]) -> str | None:
    """One line when the table has no order to tell: every choice worth the
    same on every draw, or every choice tied within its standard error."""
    k = len(table)
    if k > 1 and len(set(groups)) == 1:
        return (f"every one of the {k} choices is worth {table['value'].iloc[0]:.3f} chips on "
                "every drawn deal: the choice changes nothing here")  # fmt: skip
    if k > 1 and (table["rank"] == 1).all():
        return (f"all {k} choices are tied: no one is better than another by more than "
                f"{Z95:.2f} standard errors of their difference")  # fmt: skip
    return None


def ess_warning(ess: float, draws: int) -> str | None:
    """A warning when the posterior's effective sample size is under
    :data:`MIN_ESS`: its number and what to do (more draws, in proportion).

    Examples
    --------
    >>> print(ess_warning(50.0, 10_000))  # doctest: +NORMALIZE_WHITESPACE
    effective sample size 50 is low (under 200): the values rest on few
    independent draws; give about 40,000 deals (deals= or --deals) for 200
    >>> ess_warning(500.0, 10_000) is None
    True
    """
    if not ess < MIN_ESS:
        return None
    more = int(np.ceil(draws * MIN_ESS / max(ess, 1.0) / 1000.0)) * 1000
    return (f"effective sample size {ess:,.0f} is low (under {MIN_ESS}): the values rest on few "
            f"independent draws; give about {more:,} deals (deals= or --deals) for {MIN_ESS}")


def _play_key(key: np.uint64) -> np.uint64:
    """The continuation streams' key: independent of the posterior's."""
    state = np.random.SeedSequence([int(key), 0x5B07]).generate_state(1, dtype=np.uint64)
    return np.uint64(state[0])
