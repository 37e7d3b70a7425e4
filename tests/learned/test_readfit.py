"""Fitting the board-reading betting with its tables (learning/readfit.py):
seeded, within the parameters' ranges, damped as documented, and written
table size by table size."""

from __future__ import annotations

import json

import numpy as np

from anaconda_sim.learning.readfit import fit_reads, main, settle_tables
from anaconda_sim.strategies.learned.params import READ_DEFAULTS, READ_RANGES

SMALL = dict(passes=1, deals=300, table_deals=300, settle=1)


def test_the_fit_is_seeded_and_stays_in_range() -> None:
    a = fit_reads(2, rounds=2, seed=4, **SMALL)
    b = fit_reads(2, rounds=2, seed=4, **SMALL)
    assert a.betting == b.betting
    assert np.array_equal(a.tables.array(), b.tables.array())
    assert [row["round"] for row in a.history] == [0, 1]
    assert all(READ_RANGES[k].admits(v) for k, v in a.betting.items())
    assert a.strategy().spec().startswith("learned-v2:")


def test_a_zero_step_keeps_the_first_round_s_betting() -> None:
    """After the first round the field moves ``step`` of the way toward the
    search's response: with 0 it does not move."""
    one = fit_reads(2, rounds=1, seed=5, **SMALL)
    still = fit_reads(2, rounds=3, seed=5, step=0.0, **SMALL)
    assert still.betting == one.betting
    assert one.betting != READ_DEFAULTS  # the first round moved it all the way


def test_settled_tables_are_the_mean_of_the_last_two_estimates() -> None:
    """From the second settling estimate on, the tables are the mean of the
    fresh estimate (against the field on the tables before) and those."""
    from anaconda_sim.learning.equity import estimate_equity
    from anaconda_sim.learning.family import child_seed
    from anaconda_sim.learning.readfit import reads_strategy

    fit = fit_reads(2, rounds=1, seed=6, **SMALL)
    once = settle_tables(2, fit.betting, fit.tables, 1, 300, 6)
    twice = settle_tables(2, fit.betting, fit.tables, 2, 300, 6)
    fresh = estimate_equity(2, reads_strategy(fit.betting, once), deals=300,
                            seed=child_seed(6, 3, 1))  # fmt: skip
    assert np.array_equal(twice.factor, (fresh.factor + once.factor) / 2)
    assert np.array_equal(twice.curve, (fresh.curve + once.curve) / 2)
    assert np.array_equal(twice.decisions, fresh.decisions + once.decisions)
    assert np.all(np.diff(twice.curve, axis=2) >= 0)


def test_the_command_writes_each_table_size(tmp_path) -> None:
    betting, tables = tmp_path / "readbet.json", tmp_path / "equity.npz"
    argv = ["--rounds", "1", "--passes", "1", "--deals", "200", "--table-deals", "200",
            "--settle", "1", "--betting-out", str(betting), "--tables-out", str(tables)]
    assert main(["--players", "2", *argv]) == 0
    assert main(["--players", "3", *argv]) == 0
    data = json.loads(betting.read_text())
    assert sorted(data["players"]) == ["2", "3"]
    assert data["command"].startswith("python -m anaconda_sim.learning.readfit --players 3")
    with np.load(tables) as stored:
        assert {"factor_2", "curve_3", "model_3"} <= set(stored.files)
