"""Fitting the reveal order's show table (learning/showfit.py): the fit
recovers a table that makes the values, is seeded, averages its fits as
documented, and the command writes table size by table size."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from anaconda_sim.cards import parse_cards
from anaconda_sim.learning.showfit import (
    DiscardData,
    OrderData,
    best_show_scores,
    candidate_orders,
    fit_keep,
    fit_show,
    fit_table,
    keep_regret,
    main,
    order_values,
    policy_regret,
)
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned import show as show_module
from anaconda_sim.strategies.learned.params import SHOW_ARRAY_SIZE, SHOW_SHAPE, SHOW_SIZE
from anaconda_sim.strategies.learned.show import (
    keep_prior,
    show_buckets,
    show_features,
    show_prior,
)
from anaconda_sim.strategies.learned.showdata import shipped_show

SMALL = dict(situations=3, deals=30, table_deals=300, settle=1, discard_situations=2)


def test_the_fit_finds_the_orders_a_table_prefers() -> None:
    """Values made by a known table (plus noise smaller than its gaps): the
    fitted table's first best candidates lose next to nothing against the
    best, and its draw at the fit's temperature little."""
    rng = np.random.default_rng(3)
    truth = rng.normal(0.0, 1.0, SHOW_SIZE).reshape(12, -1)
    fives = [rng.permutation(52)[:5] for _ in range(200)]
    every = np.array([list(itertools.permutations(f)) for f in fives])
    features = show_features(every)
    own = rng.integers(0, 3, 200)
    exact = np.einsum("skf,sf->sk", features, truth[own])
    candidates = np.array([candidate_orders(o) for o in every])
    noisy = OrderData(own, features, exact + rng.normal(0.0, 0.01, exact.shape), candidates)
    fitted = fit_table(show_prior(), noisy, 0.05)
    truth_data = OrderData(own, features, exact, candidates)
    assert policy_regret(fitted, 0.0, truth_data) < 0.01
    assert policy_regret(fitted, 0.05, truth_data) < 0.1
    assert policy_regret(show_prior(), 0.0, truth_data) > 0.2
    untouched = fitted.reshape(12, -1)[3:]  # no situation of these buckets
    assert np.array_equal(untouched, show_prior().reshape(12, -1)[3:])


def test_the_candidates_are_the_kernel_s() -> None:
    """One order per hidden card and way of showing ranks after two and three
    cards, as many as the kernel scores: 16 for a queen-nine two pair with a
    deuce (4 with the deuce hidden, 3 with each other card), 5 for five
    distinct ranks (the hidden card only), 18 for a full house; they show
    every bucket sequence the 120 orders do."""
    for text, count in (("Qs Qh 9c 9d 2c", 16), ("2c 5d 9h Js Ks", 5), ("Qs Qh Qd 9c 9d", 18)):
        five = sorted(parse_cards(text))
        scored = 0
        for h in range(5):
            q = [c >> 2 for i, c in enumerate(five) if i != h]
            scored += show_module._CANDIDATE_COUNTS[(q[0] == q[1]) + 2 * (q[1] == q[2])
                                                    + 4 * (q[2] == q[3])]  # fmt: skip
        orders = np.array(list(itertools.permutations(five)))
        keep = candidate_orders(orders)
        assert keep.sum() == count == scored, text
        buckets = show_buckets(orders)
        assert {tuple(b) for b in buckets[keep]} == {tuple(b) for b in buckets}


def test_the_order_values_are_the_situations_orders() -> None:
    data = order_values(3, get_strategy("learned"), 2, 40, 1)
    assert data.features.shape == (2, 120, 24) and data.values.shape == (2, 120)
    assert (data.features.reshape(2, 120, 3, 8).sum(axis=3) == 1).all()
    assert ((data.own >= 0) & (data.own < 12)).all()
    assert (data.candidates.sum(axis=1) >= 5).all()


def test_the_fit_is_seeded_and_averages_its_fits() -> None:
    a = fit_show(2, rounds=2, seed=4, **SMALL)
    b = fit_show(2, rounds=2, seed=4, **SMALL)
    assert np.array_equal(a.show, b.show)
    assert np.array_equal(a.tables.array(), b.tables.array())
    assert [row["round"] for row in a.history] == [0, 1]
    assert np.array_equal(a.keep, b.keep) and a.keep[-1] >= 0
    assert a.strategy().param_array(2).size > 0
    assert a.strategy().spec().startswith("learned-v2:") and "show=" in a.strategy().spec()
    with pytest.raises(ValueError, match="step=2"):
        fit_show(2, rounds=1, step=2.0, **SMALL)
    with pytest.raises(ValueError, match="temperature=-1"):
        fit_show(2, rounds=1, temperature=-1.0, **SMALL)


def test_the_command_writes_each_table_size(tmp_path) -> None:
    show, tables = tmp_path / "show.npz", tmp_path / "equity.npz"
    argv = ["--rounds", "1", "--situations", "2", "--deals", "20", "--table-deals", "200",
            "--settle", "1", "--discard-situations", "2", "--show-out", str(show),
            "--tables-out", str(tables)]
    assert main(["--players", "2", *argv]) == 0
    assert main(["--players", "3", *argv]) == 0
    with np.load(show) as data:
        assert data["show_2"].shape == SHOW_SHAPE and data["show_3"].shape == SHOW_SHAPE
        assert float(data["temperature_2"]) == 0.3 and data["keep_3"].shape == (13,)
        model = json.loads(str(data["model_3"]))
    assert model["command"].startswith("python -m anaconda_sim.learning.showfit")
    with np.load(tables) as data:
        assert {"factor_2", "curve_3", "model_2"} <= set(data.files)


def test_a_size_without_a_shipped_table_has_none() -> None:
    table = shipped_show(6)
    assert table is None or table.shape == (SHOW_ARRAY_SIZE,)


def test_the_keep_fit_and_the_best_show_scores() -> None:
    """The discard's features: one own bucket per five and its best show
    score (the first best order's score, as the kernel plays at temperature
    0); a keep table fitted to values made by a known one picks as it does."""
    five = np.array([parse_cards("Qs Qh 9c 9d 2c")])
    table = show_prior()
    orders = np.array(list(itertools.permutations(five[0])))
    scores = show_features(orders) @ table.reshape(12, -1)[4]
    assert best_show_scores(five, table)[0] == scores.max()
    rng = np.random.default_rng(9)
    features = np.zeros((300, 21, 13))
    features[np.arange(300)[:, None], np.arange(21)[None, :], rng.integers(0, 12, (300, 21))] = 1
    features[:, :, 12] = rng.normal(0.0, 1.0, (300, 21))
    truth = np.append(rng.normal(0.0, 1.0, 12), 0.5)
    values = features @ truth
    data = DiscardData(features, values)
    fitted = fit_keep(keep_prior(), data)
    # the prior keeps the highest bucket; the fit loses a small part of that
    assert keep_regret(fitted, data) < 0.05 * keep_regret(keep_prior(), data)
