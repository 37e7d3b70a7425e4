"""Fitting the reveal order's show table (learning/showfit.py): the fit
recovers a table that makes the values, is seeded, averages its fits as
documented, and the command writes table size by table size."""

from __future__ import annotations

import json

import numpy as np
import pytest

from anaconda_sim.learning.showfit import fit_show, fit_table, main, order_regret, order_values
from anaconda_sim.strategies.learned.params import SHOW_SHAPE, SHOW_SIZE
from anaconda_sim.strategies.learned.show import show_features, show_prior
from anaconda_sim.strategies.learned.showdata import shipped_show

SMALL = dict(situations=3, deals=30, table_deals=300, settle=1)


def test_the_fit_finds_the_orders_a_table_prefers() -> None:
    """Values made by a known table (plus noise smaller than its gaps): the
    fitted table's choices lose nothing against the best."""
    rng = np.random.default_rng(3)
    truth = rng.normal(0.0, 1.0, SHOW_SIZE).reshape(12, -1)
    orders = np.array([rng.permutation(52)[:5] for _ in range(200)])
    every = np.array([[*p, o[h]] for o in orders for h in range(5)
                      for p in __import__("itertools").permutations(np.delete(o, h))])  # fmt: skip
    features = show_features(every.reshape(200, 120, 5))
    own = rng.integers(0, 3, 200)
    exact = np.einsum("skf,sf->sk", features, truth[own])
    fitted = fit_table(show_prior(), own, features, exact + rng.normal(0.0, 0.01, exact.shape))
    assert order_regret(fitted, own, features, exact) < 0.01
    assert order_regret(show_prior(), own, features, exact) > 0.2
    untouched = fitted.reshape(12, -1)[3:]  # no situation of these buckets
    assert np.array_equal(untouched, show_prior().reshape(12, -1)[3:])


def test_the_order_values_are_the_situations_orders() -> None:
    own, features, values = order_values(3, "learned", 2, 40, 1)
    assert features.shape == (2, 120, 24) and values.shape == (2, 120)
    assert (features.reshape(2, 120, 3, 8).sum(axis=3) == 1).all()
    assert ((own >= 0) & (own < 12)).all()


def test_the_fit_is_seeded_and_averages_its_fits() -> None:
    a = fit_show(2, rounds=2, seed=4, **SMALL)
    b = fit_show(2, rounds=2, seed=4, **SMALL)
    assert np.array_equal(a.show, b.show)
    assert np.array_equal(a.tables.array(), b.tables.array())
    assert [row["round"] for row in a.history] == [0, 1]
    assert a.strategy().spec().startswith("learned:") and "show=" in a.strategy().spec()
    with pytest.raises(ValueError, match="step=2"):
        fit_show(2, rounds=1, step=2.0, **SMALL)


def test_the_command_writes_each_table_size(tmp_path) -> None:
    show, tables = tmp_path / "show.npz", tmp_path / "equity.npz"
    argv = ["--rounds", "1", "--situations", "2", "--deals", "20", "--table-deals", "200",
            "--settle", "1", "--show-out", str(show), "--tables-out", str(tables)]
    assert main(["--players", "2", *argv]) == 0
    assert main(["--players", "3", *argv]) == 0
    with np.load(show) as data:
        assert data["show_2"].shape == SHOW_SHAPE and data["show_3"].shape == SHOW_SHAPE
        model = json.loads(str(data["model_3"]))
    assert model["command"].startswith("python -m anaconda_sim.learning.showfit")
    with np.load(tables) as data:
        assert {"factor_2", "curve_3", "model_2"} <= set(data.files)


def test_a_size_without_a_shipped_table_has_none() -> None:
    table = shipped_show(6)
    assert table is None or table.shape == (SHOW_SIZE,)
