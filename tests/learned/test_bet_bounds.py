"""The bounds of the board-reading bet's estimate and the cuts of its
product (``readbet.fill_bet_bounds``, ``readbet.bounded_intent``,
``readbet.read_intent``): every estimate the kernel computes lies within its
bounds, every product past a cut gives an estimate on that cut's side of its
test (to bet, to raise, or to call at the bin of the call's price), and
the kernels' bet, which stops at the bounds or at the cuts where they
decide (``readbet.bet_reads_from``, and the kernels' own call of it in two
steps, ``dispatch._learned_intent``, which reads the rivals' exposures only
for the second, and ``dispatch.seat_bet``, which stops at the bluff and the
bounds before the reveals without a call), gives the intent the engine's bet computes in full,
bit for bit (R13-R16: the betting reads only the public table and the
seat's cards).

The states are drawn at random but legal (R13-R17), as the bounds read
them: a seat asked to act after a bet in its round has not matched it, and
faces an active rival who bet or raised in this round; facing the round's
only bet, no other seat bet or raised in it; before the first pass no
earlier round was played."""

from __future__ import annotations

import dataclasses

import numba
import numpy as np
import pytest

from anaconda_sim.rng import new_state, rand_below, rand_float, root_key
from anaconda_sim.sim.layout import DEC_CACHE, DEC_CACHE_END, DEC_SIZE
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies import get_strategy, spec
from anaconda_sim.strategies.dispatch import _learned_intent, no_custom_bet, seat_bet
from anaconda_sim.strategies.kinds import CACHE_SHOWN_KEY, CACHE_STRENGTH, KIND_LEARNED
from anaconda_sim.strategies.learned.params import (
    BET_BOUNDS0,
    BET_BOUNDS_MODE,
    BET_BOUNDS_SHAPE,
    BET_CUTS0,
    BET_MARGIN0,
    BET_STATES,
    CALL_CUTS0,
    CALL_FACTOR0,
    CALL_PRICE_BINS,
    CALL_PRICE_STEP,
    EQUITY0,
    EQUITY_SIZE,
    FACTOR_SIZE,
    OWN_BUCKETS,
    RAISE_MARGIN0,
    READ_BET_NAMES,
    RIVALS,
)
from anaconda_sim.strategies.learned.passclass import NO_TABLE
from anaconda_sim.strategies.learned.readbet import (
    UNDECIDED,
    _rivals_product,
    bet_reads,
    bet_reads_from,
    bet_state,
    bounded_intent,
    read_group,
    reads_equity_from,
)
from anaconda_sim.strategies.learned.winprob import seat_exposure, win_stage
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules

_log_entry = numba.njit(V.log_entry)
#: random states per parameter array (twelve arrays: 1,200,000 decisions)
STATES = 100_000


@numba.njit
def _random_state(pub, own, gen):
    """A legal public table at a betting decision of seat ``own[O_SEAT]``
    (module docstring), drawn from the stream ``gen``; returns the seat's
    own bucket."""
    n = 2 + rand_below(gen, 6)
    pub[:] = 0
    for j in range(28):
        pub[V.P_EXPOSED + j] = -1
    pub[V.P_PLAYERS] = n
    pub[V.P_BET_SIZE] = 1 + rand_below(gen, 3)
    pub[V.P_MAX_LEVEL] = 4
    rnd = rand_below(gen, 6)
    revealed = max(0, rnd - 1)
    pub[V.P_ROUND] = rnd
    pub[V.P_REVEALED] = revealed
    pub[V.P_STAGE] = 0 if rnd == 0 else (1 if rnd == 1 else V.STAGE_REVEAL + revealed)
    me = rand_below(gen, n)
    own[V.O_SEAT] = me
    active = 1
    for s in range(n):
        if s != me:
            if rand_float(gen) < 0.35:
                pub[V.P_FOLDED + s] = 1
            else:
                active += 1
    pub[V.P_ACTIVE] = active
    deck = np.arange(52)
    for j in range(28):  # the first 28 of a shuffled deck
        swap = j + rand_below(gen, 52 - j)
        deck[j], deck[swap] = deck[swap], deck[j]
    for s in range(n):
        for j in range(revealed):
            pub[V.P_EXPOSED + 4 * s + j] = deck[4 * s + j]
    length = 0
    for r in range(rnd):
        for s in range(n):
            if rand_float(gen) < 0.6:
                action = 1 + rand_below(gen, 4)  # check, call, bet or raise
                pub[V.P_LOG + length] = _log_entry(r, s, action)
                length += 1
    level = rand_below(gen, 5) if active > 1 else 0
    pub[V.P_LEVEL] = level
    if level > 0:
        # the last bet or raise of the round, by an active rival
        bettor = -1
        while bettor < 0:
            s = rand_below(gen, n)
            if s != me and pub[V.P_FOLDED + s] == 0:
                bettor = s
        for s in range(n):
            if s != me and rand_float(gen) < 0.3:
                # facing the round's only bet, nobody else bet or raised in it
                action = 1 + rand_below(gen, 2 if level == 1 else 4)
                pub[V.P_LOG + length] = _log_entry(rnd, s, action)
                length += 1
        pub[V.P_LOG + length] = _log_entry(rnd, bettor, V.A_BET if level == 1 else V.A_RAISE)
        length += 1
        # after a bet the seat asked to act has not matched it
        pub[V.P_IN_ROUND + me] = pub[V.P_BET_SIZE] * rand_below(gen, level)
    pub[V.P_LOG_LEN] = length
    pub[V.P_POT] = n + rand_below(gen, 150)
    return rand_below(gen, OWN_BUCKETS)


@numba.njit
def _check_states(params, states, gen, rng, learned):
    """Play ``states`` random decisions (:func:`_random_state`); returns
    the count of estimates outside their bounds or past a cut of their
    product on the wrong side of their test, of intents of the kernels' bet
    unlike the engine's, of decisions the bounds decided, of products past
    a cut of the bet or raise test, and of products past a cut of the call
    test at the bin of its price."""
    pub = np.zeros(V.PUB_SIZE, dtype=np.int32)
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    exposures = np.zeros(7, dtype=np.int64)
    # the seats' caches as the kernels hold them (a column range of their
    # decision rows): the kernels' own compiled version of the bet, not another
    dec = np.full((7, DEC_SIZE), -1, dtype=np.int64)
    caches = dec[:, DEC_CACHE:DEC_CACHE_END]
    outside = differ = decided = cut = call_cut = 0
    for _ in range(states):
        bucket = _random_state(pub, own, gen)
        me = own[V.O_SEAT]
        revealed = min(pub[V.P_REVEALED], 4)
        for s in range(pub[V.P_PLAYERS]):
            exposures[s] = seat_exposure(pub, s, revealed) if revealed > 0 else 0
        p, rivals = reads_equity_from(pub, me, params, bucket, exposures)
        if rivals > 0:
            to_call = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + me]
            facing = np.int64(to_call > 0)
            at = BET_BOUNDS0 + (((win_stage(pub) * OWN_BUCKETS + bucket) * RIVALS + rivals - 1)
                                * BET_STATES + bet_state(pub, to_call)) * 2  # fmt: skip
            if not params[at] <= p <= params[at + 1]:
                outside += 1
            product, _ = _rivals_product(pub, me, params, bucket, exposures)
            g = read_group(revealed)
            bar = 1.0 + params[(BET_MARGIN0 if facing == 0 else RAISE_MARGIN0) + g]
            at = BET_CUTS0 + ((((win_stage(pub) * RIVALS + rivals - 1) * 3 + g) * 2 + facing)
                              * 2)  # fmt: skip
            if product < params[at]:
                cut += 1
                outside += p * (rivals + 1) >= bar
            if product >= params[at + 1]:
                cut += 1
                outside += p * (rivals + 1) < bar
            if facing:
                # the call's cuts, at the bin of its price (the kernel's test)
                to_call = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + me]
                price = params[CALL_FACTOR0 + g] * to_call / (pub[V.P_POT] + to_call)
                b = min(np.int64(price / CALL_PRICE_STEP), CALL_PRICE_BINS - 1)
                at = CALL_CUTS0 + ((win_stage(pub) * RIVALS + rivals - 1) * CALL_PRICE_BINS
                                   + b) * 2  # fmt: skip
                calls = p * (pub[V.P_POT] + to_call) >= params[CALL_FACTOR0 + g] * to_call
                if product < params[at]:
                    call_cut += 1
                    outside += calls
                if product >= params[at + 1]:
                    call_cut += 1
                    outside += not calls
        if bounded_intent(pub, own, params, bucket) != UNDECIDED:
            decided += 1
        kernel = bet_reads_from(pub, own, params, rng.copy(), bucket, exposures)
        engine = bet_reads(pub, own, params, rng.copy(), bucket)
        if kernel != engine:
            differ += 1
        # the kernels' own path: the seats' caches empty but for the strength
        for s in range(caches.shape[0]):
            caches[s, CACHE_SHOWN_KEY] = -1
            caches[s, CACHE_STRENGTH] = -1
        caches[me, CACHE_STRENGTH] = bucket
        if _learned_intent(pub, own, params, rng.copy(), caches, np.int64(me)) != engine:
            differ += 1
        # and through the dispatch, whose bets before the reveals stop at the
        # bluff and the bounds before calling a kernel
        for s in range(caches.shape[0]):
            caches[s, CACHE_SHOWN_KEY] = -1
            caches[s, CACHE_STRENGTH] = -1
        caches[me, CACHE_STRENGTH] = bucket
        if seat_bet(KIND_LEARNED, pub, own, params, rng.copy(), no_custom_bet, caches,
                    np.int64(me), None, learned) != engine:  # fmt: skip
            differ += 1
        rng[0] += np.uint64(1)  # a fresh bluff draw for the next state
    return outside, differ, decided, cut, call_cut


def _arrays() -> list[tuple[str, np.ndarray]]:
    """The shipped field of every table size, and three of random equity
    tables (factors anywhere in (0, 1), curves neither monotone nor smooth)."""
    arrays = [(f"learned {n}p", get_strategy("learned").param_array(n)) for n in range(2, 8)]
    gen = np.random.default_rng(2026)
    no_bluffs = {name: 0.0 for name in READ_BET_NAMES if name.startswith("bluff")}
    for i in range(3):
        tables = gen.uniform(0.0, 1.0, EQUITY_SIZE)
        tables[:FACTOR_SIZE] **= 1 + 3 * i  # ever smaller factors
        for players, strategy in (
            (2 + 2 * i, get_strategy("learned")),
            (3 + 2 * i, get_strategy("learned", **no_bluffs)),
        ):
            strategy = dataclasses.replace(strategy, equity=tuple(tables))
            arrays.append((f"random tables {i}, {strategy.spec()}",
                           strategy.param_array(players)))  # fmt: skip
    return arrays


def test_the_bounds_hold_every_estimate_and_decide_as_the_full_bet() -> None:
    """1,200,000 random legal decisions under the shipped fields and random
    tables: no estimate outside its bounds, no intent of the kernels' bet
    unlike the engine's, and the bounds decide a good share of them (so the
    comparison covers both paths)."""
    rng = new_state(root_key(5), 0, 0)
    for i, (label, params) in enumerate(_arrays()):
        assert params[BET_BOUNDS_MODE] == 1.0, label
        bounds = params[BET_BOUNDS0 : BET_BOUNDS0 + np.prod(BET_BOUNDS_SHAPE)]
        assert (bounds[0::2] <= bounds[1::2]).all(), label
        outside, differ, decided, cut, call_cut = _check_states(
            params, STATES, new_state(root_key(100 + i), 0, 0), rng.copy(), NO_TABLE
        )
        assert outside == 0, label
        assert differ == 0, label
        if label.startswith("learned"):
            assert min(decided, cut, call_cut) > STATES // 5, (label, decided, cut, call_cut)
        else:
            assert min(decided, cut, call_cut) > 0, (label, decided, cut, call_cut)


@pytest.mark.parametrize("players", [3, 6])
def test_the_kernels_play_the_same_deals_without_the_bounds(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every statistic of 40,000 deals of the default field, seed for seed,
    is the same with the bounds read and with every estimate computed (the
    bounds' mode slot off)."""
    rules = Rules(players=players)
    bounded = simulate(rules, "learned", 40_000, seed=11, progress=False)
    built = spec.Strategy.param_array

    def unbounded(self: spec.Strategy, n: int | None = None) -> np.ndarray:
        out = built(self, n).copy()
        out[BET_BOUNDS_MODE] = 0.0
        return out

    monkeypatch.setattr(spec.Strategy, "param_array", unbounded)
    full = simulate(rules, "learned", 40_000, seed=11, progress=False)
    for name in ("outcome_counts", "mean_net", "se", "fold_rate", "mean_pot", "win_rate"):
        assert np.array_equal(np.asarray(getattr(bounded, name)),
                              np.asarray(getattr(full, name))), name  # fmt: skip


def test_an_array_without_bounds_computes_every_estimate() -> None:
    """An array whose bounds were never derived (written by hand: the mode
    slot 0) never reads them."""
    params = get_strategy("learned").param_array(4).copy()
    params[BET_BOUNDS_MODE] = 0.0
    params[BET_BOUNDS0 : BET_BOUNDS0 + np.prod(BET_BOUNDS_SHAPE)] = np.nan
    pub, own = V.new_pub(), V.new_own(0)
    pub[V.P_PLAYERS] = 4
    pub[V.P_ACTIVE] = 4
    assert bounded_intent(pub, own, params, 3) == UNDECIDED
    assert EQUITY0 > 0
