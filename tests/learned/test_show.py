"""The reveal order of "learned" read off its show table (R8-R9 the reveal
order of the kept five, R11 what a prefix of it shows): the kernel, which
scores at most four orders of each shown four, chooses exactly what scoring
all 120 chooses (ties included: the first best in the documented order; at
a temperature, the same draw from the same stream), and that in turn is the
plain twin's choice; the strategy plays it where it has a table."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from decision_samples import random_hands
from learned_reference import reference_show_discard, reference_show_order
from naive_learned import naive_show_discard, naive_show_order
from numba import njit

from anaconda_sim.cards import parse_cards
from anaconda_sim.hands.evaluator import eval_cards
from anaconda_sim.hands.sorting import best_five7_in_place
from anaconda_sim.rng import new_state
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import (
    KEEP_BOUND0,
    SHOW_ARRAY_SIZE,
    SHOW_MODE,
    SHOW_SHAPE,
    SHOW_SIZE,
    SHOW_TAU,
)
from anaconda_sim.strategies.learned.show import (
    discard_shown,
    fill_keep_bounds,
    keep_prior,
    order_shown,
    show_buckets,
    show_features,
    show_prior,
    shown_bucket4,
)
from anaconda_sim.strategies.learned.winprob import exposure_bucket
from anaconda_sim.table import views as V


def _tables() -> list[tuple[str, np.ndarray]]:
    """Show arrays to check on: the prior, tables drawn at random, tables of
    small whole numbers (ties between orders common) and the zero table
    (every order ties: the first must win), each at temperature 0 (the best
    order) and some drawn at a temperature."""
    rng = np.random.default_rng(37)
    tables = [("prior", show_prior())]
    tables += [(f"random {i}", rng.normal(0.0, 1.0, SHOW_SIZE)) for i in range(3)]
    tables += [(f"whole {i}", rng.integers(-2, 3, SHOW_SIZE).astype(np.float64))
               for i in range(3)]  # fmt: skip
    tables.append(("zero", np.zeros(SHOW_SIZE)))
    keep = keep_prior()
    arrays = [(name, np.concatenate([[0.0], table, keep])) for name, table in tables]
    for tau in (0.1, 1.0):
        arrays += [(f"{name} at {tau}", np.concatenate([[tau], table, keep]))
                   for name, table in tables[1:3] + tables[4:5] + tables[-1:]]  # fmt: skip
    return arrays


def _keeps() -> list[tuple[str, np.ndarray]]:
    """Show arrays for the discard: keep tables drawn at random (show
    weights from 0 to 2: the order's score often outweighs the bucket's),
    of small whole numbers (ties between fives common), the prior (the best
    five), each with a random show table, at temperature 0 and 0.5."""
    rng = np.random.default_rng(38)
    arrays = []
    for i in range(3):
        keep = np.append(rng.normal(0.0, 1.0, 12), rng.uniform(0.0, 2.0))
        arrays.append((f"random {i}", keep))
    for i in range(2):
        arrays.append((f"whole {i}", rng.integers(-2, 3, 13).astype(np.float64) ** 2))
    arrays.append(("prior", keep_prior()))
    out = []
    for name, keep in arrays:
        table = rng.normal(0.0, 1.0, SHOW_SIZE)
        out += [(f"{name} at {tau}", np.concatenate([[tau], table, keep])) for tau in (0.0, 0.5)]
    return out


KEEPS = _keeps()


TABLES = _tables()


def _params(show: np.ndarray) -> np.ndarray:
    if show.size == 1 + SHOW_SIZE:  # no keep table given: the prior's
        show = np.concatenate([show, keep_prior()])
    params = np.zeros(KEEP_BOUND0 + 12)
    params[SHOW_MODE] = 1.0
    params[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE] = show
    fill_keep_bounds(params)
    return params


@njit(cache=False)
def _discards(kernel, hands, params, seed):
    """Each seven's discards then kept five in order by ``kernel``, and the
    returned values, the draws from one stream in turn."""
    chosen = np.empty((hands.shape[0], 7), dtype=np.int32)
    values = np.empty(hands.shape[0], dtype=np.int64)
    own = np.zeros(V.OWN_SIZE, dtype=np.int32)
    out = np.zeros(8, dtype=np.int64)
    rng = new_state(np.uint64(seed), 0, 0)
    for i in range(hands.shape[0]):
        own[V.O_NCARDS] = 7
        for j in range(7):
            own[V.O_CARDS + j] = hands[i, j]
        values[i] = kernel(own, params, rng, out)
        for j in range(7):
            chosen[i, j] = out[j]
    return chosen, values


@pytest.mark.slow  # 1.2 million discards against the full enumeration
@pytest.mark.parametrize(("name", "show"), KEEPS, ids=[name for name, _ in KEEPS])
def test_the_discard_is_the_full_enumeration_s(name: str, show: np.ndarray) -> None:
    """On 100,000 random sevens per show array: the five whose bound is below
    the best score are skipped, yet the kept five, its order (the same draw)
    and its value are those of scoring every five."""
    params = _params(show)
    hands = random_hands(42, 100_000)
    fast, fast_values = _discards(discard_shown, hands, params, 7)
    full, full_values = _discards(reference_show_discard, hands, params, 7)
    differ = np.flatnonzero((fast != full).any(axis=1) | (fast_values != full_values))
    assert differ.size == 0, (name, hands[differ[:3]].tolist())


@pytest.mark.parametrize(("name", "show"), KEEPS, ids=[name for name, _ in KEEPS])
def test_the_discard_is_the_plain_twins(name: str, show: np.ndarray) -> None:
    params = _params(show)
    hands = random_hands(43, 150)
    for i, hand in enumerate(hands):
        full, _ = _discards(reference_show_discard, hands[i : i + 1], params, 200 + i)
        rng = new_state(np.uint64(200 + i), 0, 0)
        assert full[0].tolist() == naive_show_discard(show, hand.tolist(), rng), (name, hand)


def test_the_prior_keeps_the_best_five() -> None:
    """Keep scores rising with the bucket and no show weight: the five of
    highest hand value, whatever the show table."""
    hands = random_hands(44, 5000)
    show = np.concatenate([[0.0], np.random.default_rng(1).normal(0, 1, SHOW_SIZE), keep_prior()])
    _, values = _discards(discard_shown, hands, _params(show), 1)
    best = np.array([eval_cards(h.astype(np.int64), 7) for h in hands])
    assert np.array_equal(values, best)


@njit(cache=False)
def _orders(kernel, fives, params, seed):
    """Each five's order by ``kernel``, the draws from one stream in turn."""
    chosen = np.empty((fives.shape[0], 5), dtype=np.int32)
    out = np.zeros(8, dtype=np.int32)
    rng = new_state(np.uint64(seed), 0, 0)
    for i in range(fives.shape[0]):
        for j in range(5):
            out[V.OUT_FIVE + j] = fives[i, j]
        kernel(params, out, rng)
        for j in range(5):
            chosen[i, j] = out[V.OUT_FIVE + j]
    return chosen


@njit(cache=False)
def _shown(params, out, rng):
    order_shown(params, out, -1, rng)


@njit(cache=False)
def _best_fives(hands):
    out = np.zeros((hands.shape[0], 7), dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(7):
            out[i, j] = hands[i, j]
        best_five7_in_place(out[i])
    return out[:, :5].astype(np.int32)


@njit(cache=False)
def _bucket4_differs():
    """Sorted fours whose bucket read off equal neighbours differs from
    exposure_bucket's."""
    bad = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    if shown_bucket4(a, b, c, d) != exposure_bucket(a, b, c, d, 4):
                        bad += 1
    return bad


def test_the_bucket_of_every_sorted_four() -> None:
    """All 270,725 fours, sorted by card: R11 groups and four-card draws."""
    assert _bucket4_differs() == 0


@pytest.mark.slow  # 3.4 million decisions against the full enumeration
@pytest.mark.parametrize(("name", "show"), TABLES, ids=[name for name, _ in TABLES])
def test_the_order_is_the_full_enumeration_s(name: str, show: np.ndarray) -> None:
    """On 100,000 kept fives (best fives of random sevens: groups common)
    and 100,000 random fives per show array: the first best of all 120, or
    at a temperature the same draw."""
    params = _params(show)
    hands = random_hands(37)
    fives = np.concatenate([_best_fives(hands[:100_000]), hands[100_000:, :5]])
    fast = _orders(_shown, fives, params, 5)
    full = _orders(reference_show_order, fives, params, 5)
    differ = np.flatnonzero((fast != full).any(axis=1))
    assert differ.size == 0, (name, fives[differ[:3]].tolist())


@pytest.mark.parametrize(("name", "show"), TABLES, ids=[name for name, _ in TABLES])
def test_the_full_enumeration_is_the_plain_twins(name: str, show: np.ndarray) -> None:
    params = _params(show)
    fives = _best_fives(random_hands(38, 300))
    fives = np.concatenate([fives, random_hands(39, 100)[:, :5]])
    for i, five in enumerate(fives):
        full = _orders(reference_show_order, fives[i : i + 1], params, 100 + i)[0].tolist()
        rng = new_state(np.uint64(100 + i), 0, 0)
        assert full == naive_show_order(show, five.tolist(), rng), (name, five.tolist())


def test_the_zero_table_keeps_the_first_order() -> None:
    """Every order ties: the lowest card (by index) hidden, the others shown
    in increasing order."""
    fives = random_hands(40, 2000)[:, :5]
    orders = _orders(_shown, fives, _params(np.zeros(1 + SHOW_SIZE)), 1)
    ordered = np.sort(fives, axis=1)
    assert (orders == np.concatenate([ordered[:, 1:], ordered[:, :1]], axis=1)).all()


def test_a_temperature_draws_every_way_of_showing() -> None:
    """At a high temperature a full house shows each of its ways: each
    hidden card, and a pair after two cards or not; at a low one nearly
    always the best way, as the softmax says."""
    five = np.array([parse_cards("Qs Qh Qd 9c 9d")] * 4000, dtype=np.int32)
    hot = _orders(_shown, five, _params(np.concatenate([[100.0], show_prior()])), 2)
    assert len({tuple(b) for b in show_buckets(hot.astype(np.int64)).tolist()}) >= 6
    cold = _orders(_shown, five, _params(np.concatenate([[0.1], show_prior()])), 3)
    best = show_buckets(_orders(_shown, five[:1], _params(np.concatenate([[0.0], show_prior()])),
                                3).astype(np.int64))[0].tolist()  # fmt: skip
    share = np.mean([b == best for b in show_buckets(cold.astype(np.int64)).tolist()])
    assert share > 0.9


def test_the_prior_shows_as_little_as_it_can() -> None:
    """Under the prior a full house of queens over nines shows a pair after
    two cards and two pair last, never trips (R11 groups first); a flush
    hides a suited card so that its four shown are no draw where that can
    be done."""
    params = _params(np.concatenate([[0.0], show_prior()]))
    full_house = _orders(_shown, np.array([parse_cards("Qs Qh Qd 9c 9d")], dtype=np.int32),
                         params, 1)  # fmt: skip
    assert show_buckets(full_house.astype(np.int64)).tolist() == [[0, 3, 5]]
    flush = _orders(_shown, np.array([parse_cards("2s 5s 9s Js Ks")], dtype=np.int32), params, 1)
    assert show_buckets(flush.astype(np.int64))[0, 2] == 2  # four of one suit always show


def test_the_features_mark_one_bucket_per_round() -> None:
    orders = random_hands(41, 500)[:, :5]
    features = show_features(orders)
    assert features.shape == (500, 24)
    assert (features.reshape(500, 3, 8).sum(axis=2) == 1).all()
    buckets = show_buckets(orders)
    assert (features.reshape(500, 3, 8).argmax(axis=2) == buckets).all()


def test_a_strategy_with_a_show_array_plays_it() -> None:
    show = np.concatenate([[0.25], np.random.default_rng(5).normal(0, 1, SHOW_SIZE), keep_prior()])
    own = dataclasses.replace(get_strategy("learned"), show=tuple(show))
    array = own.param_array(6)
    assert array[SHOW_MODE] == 1.0
    assert np.array_equal(array[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE], show)
    assert "show=" in own.spec()
    for bad in ((0.0,) * 5, (-1.0, *show[1:]), (math.nan, *show[1:]), (*show[:-1], -0.5)):
        with pytest.raises(ValueError, match="show array of"):
            dataclasses.replace(get_strategy("learned"), show=bad).param_array(6)
    assert SHOW_SHAPE == (12, 3, 8)
