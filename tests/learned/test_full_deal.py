"""The full-deal best response, exploitability(decisions="all")
(anaconda_sim.learning.fulldeal): one seat re-optimises every decision of
the deal (R7 pass, R8 discard and order, R13-R16 betting) by its action
values, against the strategy's own play of the same deal."""

from __future__ import annotations

import numpy as np
import pytest

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
    assert first["decision"].tolist() == ["all", "all", "bet", "pass", "discard", "order"]
    assert first["kind"].tolist() == ["realised"] + ["advantage"] * 5
    assert np.isfinite(first["value"]).all() and (first["unit"] == "chips per deal").all()
    attrs = first.attrs
    assert attrs["decisions"] == ["all"] and attrs["model"] == "betting"
    assert "lower bound" in attrs["definition"] and attrs["strategy"].startswith("sensible")


def test_the_advantage_is_the_sum_of_its_decisions_and_zero_without_a_deviation():
    table = exploitability("learned", 4, "all", hands=8, deals=60, seed=11, by="situation")
    parts = table[[f"advantage_{d}" for d in ("bet", "pass", "discard", "order")]].sum(axis=1)
    np.testing.assert_allclose(table["advantage"], parts, atol=1e-9)
    still = table["deviations"] == 0
    assert (table.loc[still, "advantage"] == 0).all()
    # a deal the deviator played as the strategy did is the same deal
    assert (table.loc[still, "value"] == 0).all()
    # a deviation is made only for a choice that screened better: its
    # estimate on the screening draws is positive
    changed = table["deviations"] > 0
    assert changed.any()
    screened = table[[f"estimate_{d}" for d in ("bet", "pass", "discard", "order")]].sum(axis=1)
    assert (screened[changed] > 0).all()


@pytest.mark.slow
def test_the_two_estimates_agree_within_their_standard_errors():
    """Both are unbiased for the deviating strategy's gain (the realised
    paired difference; the sum of re-valued advantages, by the performance
    difference identity): over the same situations their per-situation
    difference has mean zero within 4 standard errors of it."""
    table = exploitability("sensible", 2, "all", hands=160, deals=100, seed=5, by="situation")
    gap = (table["value"] - table["advantage"]).to_numpy(dtype=float)
    se = gap.std(ddof=1) / np.sqrt(len(gap))
    assert abs(gap.mean()) < 4 * se, (gap.mean(), se)
    assert table["advantage"].mean() > 0  # the deviator gains against sensible


def test_later_situations_extend_a_measurement_and_pool_into_one_summary():
    """Situations first .. first + hands - 1 are the same situations a longer
    run measures there, and pooling two summaries of disjoint situations
    gives the summary of all of them (means, pooled standard errors)."""
    from anaconda_sim.learning.fulldeal import (
        _summarise,
        full_deal_exploitability,
        pool_summaries,
    )
    from anaconda_sim.strategies import get_strategy

    sensible = get_strategy("sensible")
    whole = full_deal_exploitability(sensible, 2, hands=5, deals=40, seed=9, by="situation")
    head = full_deal_exploitability(sensible, 2, hands=2, deals=40, seed=9, by="situation")
    tail = exploitability(sensible, 2, "all", hands=3, deals=40, seed=9, by="situation",
                          first=2)  # fmt: skip
    assert tail["situation"].tolist() == [2, 3, 4]
    assert tail.attrs["first_situation"] == 2
    columns = ["situation", "seat", "dealt", "value", "advantage", "deviations"]
    assert whole[columns].iloc[2:].reset_index(drop=True).equals(tail[columns])
    pooled = pool_summaries(_summarise(tail, None), _summarise(head, None))
    expected = _summarise(whole, None)
    for column in ("value", "se", "ci_low", "ci_high", "changed"):
        np.testing.assert_allclose(pooled[column].to_numpy(dtype=float),
                                   expected[column].to_numpy(dtype=float), rtol=1e-12,
                                   atol=1e-12)  # fmt: skip
    assert pooled["situations"].tolist() == [5] * len(expected)
    with pytest.raises(ValueError, match="first=-1"):
        full_deal_exploitability(sensible, 2, hands=2, deals=40, seed=9, by=None, first=-1)
