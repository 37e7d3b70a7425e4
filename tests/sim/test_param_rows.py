"""Seats of one strategy read one parameter row (``layout.C_PARAM_ROW``,
``driver.share_param_rows``): the rows are equal, so the deals are the same
as with a row a seat, seed for seed, at a table that mixes families (R13-R17:
each seat decides by its own strategy, whichever row holds it)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from anaconda_sim import action_values, play_deal, reveal_values
from anaconda_sim.sim import driver
from anaconda_sim.sim import layout as L
from anaconda_sim.sim.simulator import simulate
from anaconda_sim.strategies import get_strategy
from anaconda_sim.table.rules import Rules

SEATS = ("learned", "sensible", "learned", "learned-v2", "sensible")


def _cfg(players: int) -> np.ndarray:
    return driver.make_cfg(Rules(players=players), dealer=0, rotate=False, betting=True, hero=-1,
                           force=L.FORCE_NONE, random_cards=0, has_cpass=0, has_cdiscard=0,
                           record=False)  # fmt: skip


def test_each_seat_reads_the_first_row_equal_to_its_own() -> None:
    cfg = _cfg(len(SEATS))
    assert cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + 7].tolist() == list(range(7))  # each its own
    params = np.stack([get_strategy(name).param_array(len(SEATS)) for name in SEATS])
    driver.share_param_rows(cfg, params)
    rows = cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + len(SEATS)]
    assert rows.tolist() == [0, 1, 0, 3, 1]
    for seat, row in enumerate(rows):
        assert np.array_equal(params[row], params[seat])


def test_rows_that_differ_in_one_slot_are_not_shared() -> None:
    params = np.stack([get_strategy("learned").param_array(3)] * 3)
    params[2, -1] = 1.0
    cfg = _cfg(3)
    driver.share_param_rows(cfg, params)
    assert cfg[L.C_PARAM_ROW : L.C_PARAM_ROW + 3].tolist() == [0, 0, 2]


@pytest.mark.parametrize("betting", [True, False])
def test_shared_rows_play_the_deals_a_row_a_seat_plays(
    betting: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules(players=len(SEATS))
    shared = simulate(rules, list(SEATS), 3_000, seed=7, betting=betting, progress=False)
    monkeypatch.setattr(driver, "share_param_rows", lambda cfg, params: None)
    own = simulate(rules, list(SEATS), 3_000, seed=7, betting=betting, progress=False)
    for name in ("outcome_counts", "mean_net", "se", "fold_rate", "mean_pot", "win_rate"):
        assert np.array_equal(np.asarray(getattr(shared, name)),
                              np.asarray(getattr(own, name))), name  # fmt: skip


def test_the_analyses_read_shared_rows_as_a_row_a_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    # the reveal analysis (driver.seat_param_rows in its model) and a spot's
    # action values (its tables), each with shared rows and with a row a seat
    def both() -> tuple:
        reveal = reveal_values("Q♠ Q♥ 9♣ 8♦ 3♠", 5, opponents=list(SEATS[1:]), deals=300,
                               seed=3, progress=False)  # fmt: skip
        game = play_deal(Rules(players=5), list(SEATS), seed=7)
        values = action_values(game.history, list(SEATS), move=12, deals=300, seed=1)
        return reveal, values

    shared = both()
    monkeypatch.setattr(driver, "share_param_rows", lambda cfg, params: None)
    own = both()
    for a, b in zip(shared, own, strict=True):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
