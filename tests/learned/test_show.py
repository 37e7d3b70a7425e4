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
from anaconda_sim.hands.evaluator import eval5, eval_cards
from anaconda_sim.hands.sorting import best_five7_in_place
from anaconda_sim.rng import new_state
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import (
    EXPOSURE_BUCKETS,
    KEEP_BOUND0,
    LEARNED_SLOTS,
    OWN_BUCKETS,
    SHOW0,
    SHOW_ARRAY_SIZE,
    SHOW_BEST0,
    SHOW_CLASSES,
    SHOW_MODE,
    SHOW_SHAPE,
    SHOW_SIZE,
    SHOW_TAU,
)
from anaconda_sim.strategies.learned.show import (
    FIVE_SHOW_CLASS,
    SHOW_CLASS_BUCKET,
    SUIT_STATE,
    SUIT_STATES,
    best_show_by_class,
    discard_shown,
    fill_discard_tables,
    keep_prior,
    order_shown,
    show_buckets,
    show_features,
    show_prior,
    shown_bucket4,
)
from anaconda_sim.strategies.learned.winprob import OWN_BUCKET, exposure_bucket
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
        out += [(f"{name} at {tau}", np.concatenate([[tau], table, keep, [0.0]]))
                for tau in (0.0, 0.5)]  # fmt: skip
    # the discard drawn at a temperature (R8): scores close (0.3) and far (2.0)
    for name, keep in arrays[0:1] + arrays[3:4] + arrays[5:6]:
        table = rng.normal(0.0, 1.0, SHOW_SIZE)
        out += [(f"{name} drawn at {keep_tau}", np.concatenate([[0.5], table, keep, [keep_tau]]))
                for keep_tau in (0.3, 2.0)]  # fmt: skip
    return out


KEEPS = _keeps()


TABLES = _tables()


def _params(show: np.ndarray) -> np.ndarray:
    if show.size == 1 + SHOW_SIZE:  # no keep table given: the prior's, the best five
        show = np.concatenate([show, keep_prior()])
    if show.size == SHOW_ARRAY_SIZE - 1:  # no discard temperature: the five of best score
        show = np.append(show, 0.0)
    params = np.zeros(LEARNED_SLOTS)
    params[SHOW_MODE] = 1.0
    params[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE] = show
    fill_discard_tables(params)
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


@njit(cache=False)
def _every_five_by_class(params):
    """For every five of the deck: its show class's best show score (read
    as the discard reads it) against the score of the order
    :func:`order_shown` plays at temperature 0 (each prefix's bucket by
    ``exposure_bucket``). Returns the fives whose scores or own buckets
    differ, the first of them, and how many fives each class holds."""
    out = np.zeros(8, dtype=np.int64)
    rng = new_state(np.uint64(1), 0, 0)
    f = V.OUT_FIVE
    differ, first = 0, np.zeros(5, dtype=np.int64)
    sizes = np.zeros(SHOW_CLASSES, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        suits = (a & 3) | (b & 3) << 2 | (c & 3) << 4 | (d & 3) << 6 | (e & 3) << 8
                        value = eval5(a, b, c, d, e)
                        show_class = FIVE_SHOW_CLASS[value * SUIT_STATES + SUIT_STATE[suits]]
                        sizes[show_class] += 1
                        out[f], out[f + 1], out[f + 2], out[f + 3], out[f + 4] = e, c, a, d, b
                        order_shown(params, out, -1, rng)
                        bucket = np.int64(OWN_BUCKET[value])
                        row = SHOW0 + bucket * 3 * EXPOSURE_BUCKETS
                        x = out[f : f + 4]
                        b2 = exposure_bucket(x[0], x[1], x[2], x[3], 2)
                        b3 = exposure_bucket(x[0], x[1], x[2], x[3], 3)
                        b4 = exposure_bucket(x[0], x[1], x[2], x[3], 4)
                        shown = (params[row + b2] + params[row + EXPOSURE_BUCKETS + b3]) + params[
                            row + 2 * EXPOSURE_BUCKETS + b4]  # fmt: skip
                        if (params[SHOW_BEST0 + show_class] != shown
                                or SHOW_CLASS_BUCKET[show_class] != bucket):  # fmt: skip
                            if differ == 0:
                                first[:] = np.array([a, b, c, d, e])
                            differ += 1
    return differ, first, sizes


@pytest.mark.parametrize(("name", "show"), TABLES[:8], ids=[name for name, _ in TABLES[:8]])
def test_every_five_s_best_show_score_is_its_class_s(name: str, show: np.ndarray) -> None:
    """All 2,598,960 fives: the best show score the discard reads off a
    five's show class (by its hand value and suits, R8-R9, R11) is, bit for
    bit, the score of the order the order kernel plays at temperature 0
    (itself checked against all 120 orders below), and every class holds
    fives."""
    differ, first, sizes = _every_five_by_class(_params(show))
    assert differ == 0, (name, differ, first.tolist())
    assert sizes.sum() == math.comb(52, 5) and (sizes > 0).all()


def test_the_keep_bounds_are_the_best_class_score_of_each_bucket() -> None:
    """The bound the discard prunes by is, per own bucket, the best of its
    classes' scores: no five of the bucket shows more, and one shows that."""
    params = _params(TABLES[1][1])
    best = params[SHOW_BEST0 : SHOW_BEST0 + SHOW_CLASSES]
    assert np.array_equal(best, best_show_by_class(params[SHOW0 : SHOW0 + SHOW_SIZE]))
    for bucket in range(OWN_BUCKETS):
        assert params[KEEP_BOUND0 + bucket] == best[SHOW_CLASS_BUCKET == bucket].max()
    assert set(SHOW_CLASS_BUCKET.tolist()) == set(range(OWN_BUCKETS))


def test_a_suit_state_names_the_four_of_one_suit() -> None:
    """A five's suits, two bits a card: 1 when all five are of one suit,
    2 + h when the four other than card h are, 0 otherwise."""
    code = sum(s << (2 * i) for i, s in enumerate([2, 2, 2, 2, 2]))
    assert SUIT_STATE[code] == 1
    code = sum(s << (2 * i) for i, s in enumerate([1, 3, 1, 1, 1]))
    assert SUIT_STATE[code] == 2 + 1
    code = sum(s << (2 * i) for i, s in enumerate([1, 3, 1, 1, 0]))
    assert SUIT_STATE[code] == 0
    assert np.bincount(SUIT_STATE).tolist() == [1024 - 4 - 5 * 4 * 3, 4, *[12] * 5]
    assert OWN_BUCKET.size * SUIT_STATES == FIVE_SHOW_CLASS.size


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
    out = np.zeros(8, dtype=np.int64)  # as the kernels hold it
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
    show = np.concatenate([[0.25], np.random.default_rng(5).normal(0, 1, SHOW_SIZE), keep_prior(),
                           [0.3]])  # fmt: skip
    own = dataclasses.replace(get_strategy("learned"), show=tuple(show))
    array = own.param_array(6)
    assert array[SHOW_MODE] == 1.0
    assert np.array_equal(array[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE], show)
    assert "show=" in own.spec()
    # an array written before the discard had a temperature keeps the five of best score
    older = dataclasses.replace(get_strategy("learned"), show=tuple(show[:-1]))
    assert np.array_equal(older.param_array(6)[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE],
                          [*show[:-1], 0.0])  # fmt: skip
    for bad in ((0.0,) * 5, (-1.0, *show[1:]), (math.nan, *show[1:]), (*show[:-1], -0.5),
                (*show[:-2], -0.5, 0.3)):  # fmt: skip
        with pytest.raises(ValueError, match="show array of"):
            dataclasses.replace(get_strategy("learned"), show=bad).param_array(6)
    assert SHOW_SHAPE == (12, 3, 8)
