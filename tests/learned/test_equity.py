"""The equity estimate's tables (estimated by simulating a field) and their
calibration on fresh deals.

Calibration is the estimate's contract: in every bin of its prediction
holding at least 1% of the decisions, the observed rate of winning the pot
is within 0.03 of the mean prediction. The test allows the bin's sampling
error on top (four cluster-robust SEs: a false alarm about once in 15,000
bins), so it fails only when the true gap is above 0.03.
"""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim.learning.equity import _pool_adjacent_violators, estimate_equity, main
from anaconda_sim.learning.reliability import calibration
from anaconda_sim.sim.decisions import decision_rows
from anaconda_sim.sim.logged import play_logged
from anaconda_sim.strategies.learned.equitydata import shipped_equity, shipped_equity_model
from anaconda_sim.strategies.learned.reads import CURVE_SHAPE, EQUITY_SIZE, FACTOR_SHAPE


def test_pool_adjacent_violators_is_the_closest_non_decreasing_sequence() -> None:
    y = np.array([0.1, 0.3, 0.2, 0.2, 0.5, 0.4])
    w = np.array([1.0, 1.0, 1.0, 2.0, 1.0, 3.0])
    fitted = _pool_adjacent_violators(y, w)
    assert fitted.tolist() == pytest.approx([0.1, 0.225, 0.225, 0.225, 0.425, 0.425])
    assert (np.diff(fitted) >= 0).all()
    assert np.average(fitted, weights=w) == pytest.approx(np.average(y, weights=w))


def test_the_tables_count_every_decision_and_rival_of_their_deals() -> None:
    tables = estimate_equity(4, "sensible", deals=400, seed=5)
    assert tables.factor.shape == FACTOR_SHAPE and tables.curve.shape == CURVE_SHAPE
    assert ((tables.factor > 0) & (tables.factor < 1)).all()
    assert (np.diff(tables.curve, axis=2) >= 0).all()
    # the first table's deals are the child seed 1's, the curve's child seed 2's
    from anaconda_sim.learning.family import child_seed

    for table, part, counts in ((1, "pairs", tables.pairs), (2, "decisions", tables.decisions)):
        chunks: list = []
        play_logged(4, "sensible", 400, child_seed(5, table), chunks.append)
        rows = decision_rows(chunks[0])
        expected = rows.rivals.sum() if part == "pairs" else rows.seat.size
        assert counts.sum() == expected
    assert tables.array().shape == (EQUITY_SIZE,)
    again = estimate_equity(4, "sensible", deals=400, seed=5)
    assert np.array_equal(again.array(), tables.array())
    assert not np.array_equal(estimate_equity(4, "sensible", deals=400, seed=6).array(),
                              tables.array())  # fmt: skip


def test_a_rival_who_bets_is_stronger_than_one_who_only_called() -> None:
    """The point of reading the betting: against the same exposure (nothing
    of note), a hand of middling strength beats a rival who bet or raised
    this round less often than one who only called, pooled over the reveal
    rounds and buckets and weighted by the pairs seen (in the learned field
    few rivals reach the reveals having only checked: that class is too
    thin to compare). The gap must exceed four standard errors of a
    difference of two rates on those counts."""
    tables = estimate_equity(4, "learned", deals=4000, seed=2)
    pairs, factor = tables.pairs[2:, 2:6, 0], tables.factor[2:, 2:6, 0]

    def pooled(classes: list[int]) -> tuple[float, float]:
        seen = pairs[..., classes].sum()
        return float((factor[..., classes] * pairs[..., classes]).sum() / seen), float(seen)

    called, n_called = pooled([1])
    bet_now, n_bet = pooled([4, 5])
    assert min(n_called, n_bet) >= 100
    se = np.sqrt(called * (1 - called) / n_called + bet_now * (1 - bet_now) / n_bet)
    assert bet_now < called - 4 * se


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_shipped_estimate_is_calibrated_on_fresh_deals(players: int) -> None:
    table = calibration("learned", players, deals=6000, seed=900 + players)
    assert table.attrs["tables"]["shipped"]["players"] == players
    assert table["fraction"].sum() == pytest.approx(1.0)
    big = table[table["fraction"] >= 0.01]
    assert len(big) >= 5
    excess = (big["gap"].abs() - 0.03 - 4 * big["se"]).max()
    assert excess <= 0, table.to_string()


def test_the_win_table_ignores_the_betting_and_is_not_calibrated() -> None:
    """The learned family's previous estimate, for contrast: its gaps are
    far beyond the shipped estimate's at 6 players."""
    table = calibration("learned", 6, deals=3000, seed=77, estimate="win-table")
    big = table[table["fraction"] >= 0.01]
    assert (big["gap"].abs() - 4 * big["se"]).max() > 0.1


def test_calibration_rejects_what_it_cannot_check() -> None:
    with pytest.raises(ValueError, match="estimate='nope' is not one of 'reads', 'win-table'"):
        calibration("learned", 3, deals=10, estimate="nope")
    with pytest.raises(ValueError, match="has none: give a 'learned' strategy"):
        calibration("sensible", 3, deals=10, estimate="win-table")
    with pytest.raises(ValueError, match=r"tables has shape \(3,\)"):
        calibration("learned", 3, deals=10, tables=np.zeros(3))
    with pytest.raises(ValueError, match="players"):
        calibration("learned", 8, deals=10)


def test_a_given_table_is_used_and_named() -> None:
    tables = estimate_equity(3, "sensible", deals=300, seed=1)
    table = calibration("sensible", 3, deals=200, seed=3, tables=tables)
    assert table.attrs["tables"] == {"given": tables.model}
    same = calibration("sensible", 3, deals=200, seed=3, tables=tables.array())
    assert np.allclose(same["predicted"], table["predicted"])


def test_the_shipped_tables_say_how_they_were_made() -> None:
    for players in range(2, 8):
        model = shipped_equity_model(players)
        assert model["players"] == players
        assert model["command"].startswith("python -m anaconda_sim.learning.readfit")
        assert shipped_equity(players).shape == (EQUITY_SIZE,)


def test_the_command_writes_each_table_size_as_it_finishes(tmp_path) -> None:
    out = tmp_path / "equity.npz"
    assert main([str(out), "--players", "2", "--deals", "200", "--seed", "1"]) == 0
    assert main([str(out), "--players", "3", "--deals", "200", "--seed", "1"]) == 0
    with np.load(out) as data:
        assert {"factor_2", "curve_2", "model_2", "factor_3"} <= set(data.files)
