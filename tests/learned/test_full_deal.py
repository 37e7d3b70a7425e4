"""The full-deal best response, exploitability(decisions="all")
(anaconda_sim.learning.fulldeal): one seat re-optimises every decision of
the deal (R7 pass, R8 discard and order, R13-R16 betting) by its action
values, against the strategy's own play of the same deal."""

from __future__ import annotations

import numpy as np

from anaconda_sim import exploitability
from anaconda_sim.game import play_deal
from anaconda_sim.game.engine import deck_from_seed
from anaconda_sim.rng import root_key
from anaconda_sim.table.rules import Rules


def test_each_situation_is_a_paired_replay_of_the_strategy():
    table = exploitability("sensible", 3, "all", hands=2, deals=40, seed=4, by="situation")
    key = root_key(4)
    for _, row in table.iterrows():
        i = int(row["situation"])
        seat, dealer = i % 3, (i // 3) % 3
        deck = deck_from_seed(key=key, deal_index=i)
        plain = play_deal(Rules(players=3), ["sensible"] * 3, deck=deck, dealer=dealer, key=key,
                          deal_index=i)  # fmt: skip
        # the first play is the strategy's own deal, the gain the paired difference
        assert row["strategy_net"] == plain.result.net[seat]
        assert row["value"] == row["deviator_net"] - row["strategy_net"]
        assert row["decisions"] >= 1 and 0 <= row["deviations"] <= row["decisions"]


def test_the_summary_states_its_model():
    first = exploitability("sensible", 2, "all", hands=2, deals=40, seed=7)
    assert first["decision"].tolist() == ["all", "bet", "pass", "discard", "order"]
    assert first["kind"].tolist() == ["realised"] + ["estimate"] * 4
    assert np.isfinite(first["value"]).all() and (first["unit"] == "chips per deal").all()
    attrs = first.attrs
    assert attrs["decisions"] == ["all"] and attrs["model"] == "betting"
    assert "lower bound" in attrs["definition"] and attrs["strategy"].startswith("sensible")
