"""Every analysis under the hi-lo declare rules (R21-R26).

The twins: ``discard_values`` is replayed deal by deal through the reference
engine (the kernel's pass model gives the opponents' hands and packets; the
engine plays the discard, the reveals, the declarations and the split, R22-R25);
``pass_values`` is the simulator's ``score_choices``, itself tested deal by
deal against the engine (tests/sim/test_agreement.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_at_discard import deal_states, game_at_discard, model_pass

from anaconda_sim import Rules, discard_values, equity, pass_values, reveal_values
from anaconda_sim.analysis.fromdiscard import sensible_order
from anaconda_sim.cards import format_cards, parse_cards
from anaconda_sim.game.play import Bot, run_game
from anaconda_sim.hands.low import evaluate_low
from anaconda_sim.rng import root_key
from anaconda_sim.sim import score_choices
from anaconda_sim.stats import SHARE_SCALE
from anaconda_sim.strategies import get_strategy

#: a seven with a low draw and a high pair: passes and keeps split by plan
SPLIT = "5♠ 4♥ 3♦ 2♣ K♠ K♥ 9♣"
PASSED = "Q♠ J♥ T♦"
RECEIVED = "3♦ 2♣ 9♣"


def _halves_fit(table) -> None:
    """Both halves are part of the share: their sum never exceeds the value."""
    assert (table["high_share"] >= 0).all() and (table["low_share"] >= 0).all()
    assert (table["high_share"] + table["low_share"] <= table["value"] + 1e-12).all()


@pytest.mark.parametrize("rules", ["hi-lo", Rules.hilo(4)])
def test_every_analysis_accepts_the_hilo_rules_and_says_so(rules):
    tables = {
        "pass": pass_values(SPLIT, 4, rules=rules, deals=300, seed=2),
        "discard": discard_values(SPLIT, 4, rules=rules, passed=PASSED, deals=300, seed=2),
        "equity": equity(SPLIT, 4, rules=rules, deals=300, seed=2),
        "reveal": reveal_values("5♠ 4♥ 3♦ 2♣ 7♠", 4, rules=rules, deals=100, seed=2),
    }
    for analysis, table in tables.items():
        assert table.attrs["rules"] == "hi-lo", analysis
        assert table.attrs["hero"] is not None, analysis  # the hero declares by a strategy
        assert {"high_share", "low_share"} <= set(table.columns), analysis
    for analysis in ("pass", "discard", "equity"):
        assert tables[analysis].attrs["value_unit"] == "pot share"
        _halves_fit(tables[analysis])
    # with betting the value is chips; the share column keeps the halves
    reveal = tables["reveal"]
    assert reveal.attrs["value_unit"] == "chips per deal"
    assert (reveal["high_share"] + reveal["low_share"] <= reveal["share"] + 1e-12).all()


@pytest.mark.parametrize("opponents", [None, "random-pass"])
def test_hilo_pass_values_are_the_simulators_scores(opponents):
    """``None``: the default opponents, "learned" (under hi-lo: sensible's hi-lo card play)."""
    given = {} if opponents is None else {"opponents": opponents}
    table = pass_values(SPLIT, 3, rules="hi-lo", deals=600, seed=8, batch_size=4096, **given)
    field = opponents or "learned"
    assert table.attrs["opponents"] == [field, field]
    hero7 = parse_cards(SPLIT)
    choices = [list(c) for c in __import__("itertools").combinations(hero7, 3)]
    key = int(root_key(8))
    scores = score_choices(Rules.hilo(3), ["sensible", field, field], hero=0,
                           kind="pass", choices=choices, deals=600, seed=key, dealer=2,
                           fixed={0: hero7}, betting=False, progress=False)  # fmt: skip
    by_pass = table.set_index("pass")
    for k, row in enumerate(choices):
        got = by_pass.loc[format_cards(row, unicode=True)]
        assert got["value"] == pytest.approx(scores.mean_share[k], abs=1e-12)
        assert got["high_share"] == pytest.approx(scores.high_share[k], abs=1e-12)
        assert got["low_share"] == pytest.approx(scores.low_share[k], abs=1e-12)


def test_hilo_pass_values_with_betting_are_chips():
    table = pass_values(SPLIT, 3, rules="hi-lo", betting=True, deals=300, seed=8)
    assert table.attrs["value_unit"] == "chips per deal" and table.attrs["betting"] is True
    assert table["value"].abs().max() > 0


class _ForcedDiscard(Bot):
    """The hero: discards ``dead`` and reveals ``order``; declares by its strategy."""

    def __init__(self, strategy, dead, order):
        super().__init__(strategy)
        self.dead, self.order = dead, order

    def choose_discard(self, obs):
        return list(self.dead), list(self.order)


def _engine_discard_shares(hand7, passed, received, players, seed, deals):
    """Mean pot share of every discard (hi-lo, nobody bets), deal by deal in the engine."""
    n, key = players, root_key(seed)
    opponent = get_strategy("random-pass")
    seats = [get_strategy("sensible"), *[opponent] * (n - 1)]
    discards = [list(d) for d in __import__("itertools").combinations(hand7, 2)]
    totals = np.zeros(len(discards))
    for deal in range(deals):
        kept, packets, states, _ = model_pass(key, deal, n, "hi-lo", seats, hand7 + passed,
                                              received, 0)  # fmt: skip
        packets[0] = passed
        hero_before_pass = [c for c in hand7 if c not in received] + passed
        for k, dead in enumerate(discards):
            five = [c for c in hand7 if c not in dead]
            game = game_at_discard(Rules.hilo(n), hero_before_pass, kept, packets)
            # random-pass bets passively and the hero only checks: nobody bets
            players_ = [_ForcedDiscard(get_strategy("call-down"), dead, sensible_order(five)),
                        *[opponent] * (n - 1)]  # fmt: skip
            run_game(game, players_, deal_states(key, deal, states))
            result = game.result
            assert sum(result.payouts) == result.pot == n  # antes only
            high, low = result.high_winners, result.low_winners
            half = SHARE_SCALE // 2 if high and low else SHARE_SCALE
            share = (half // len(high) if 0 in high else 0) + (half // len(low) if 0 in low else 0)
            totals[k] += share / SHARE_SCALE
    return discards, totals / deals


def test_R22_R25_hilo_discard_values_agree_with_the_engine_deal_by_deal():
    hand7, passed, received = parse_cards(SPLIT), parse_cards(PASSED), parse_cards(RECEIVED)
    deals = 120
    # random-pass opponents: nobody bets in the engine either (see the twin)
    table = discard_values(SPLIT, 3, rules="hi-lo", passed=PASSED, received=RECEIVED,
                           opponents="random-pass", deals=deals, seed=31,
                           batch_size=50)  # fmt: skip
    discards, engine = _engine_discard_shares(hand7, passed, received, 3, 31, deals)
    by_discard = table.set_index("discard")
    for dead, value in zip(discards, engine, strict=True):
        assert by_discard.loc[format_cards(dead, unicode=True), "value"] == pytest.approx(
            value, abs=1e-12
        )


def test_hilo_discard_values_rank_low_and_high_plans():
    table = discard_values(SPLIT, 4, rules="hi-lo", passed=PASSED, received=RECEIVED,
                           deals=3000, seed=5)  # fmt: skip
    best = table.iloc[0]
    # 5-4-3-2 with a nine is a nine-low: the low half is where its value is
    assert best["discard"] == "K♠ K♥" and best["low_share"] > best["high_share"]
    assert best["low_value"] == evaluate_low(np.array([parse_cards("5♠ 4♥ 3♦ 2♣ 9♣")]))[0]
    # keeping the kings plays for high: the best such row takes its share from the high half
    kings = table[table["keep"].str.contains("K♠") & table["keep"].str.contains("K♥")].iloc[0]
    assert kings["high_share"] > kings["low_share"]
    assert best["value"] - kings["value"] > 3 * np.hypot(best["se"], kings["se"])


def test_hilo_equity_at_each_stage():
    # against random passers (the wheel's shares below are theirs)
    field = {"opponents": "random-pass"}
    at_deal = equity(SPLIT, 4, rules="hi-lo", deals=500, seed=3, **field)
    after_pass = equity(SPLIT, 4, rules="hi-lo", passed=PASSED, deals=500, seed=3, **field)
    after_discard = equity("5♠ 4♥ 3♦ 2♣ A♠", 4, rules="hi-lo", deals=500, seed=3, **field)
    assert at_deal["stage"].item() == "at deal" and "hero_pass" in at_deal
    assert after_pass["stage"].item() == "after pass" and "hero_keep" in after_pass
    assert after_discard["stage"].item() == "after discard"
    # a wheel is the best low and a straight: the hero swings (R24), taking both
    # halves (half the pot each) unless a better high hand shows, then nothing
    wheel = after_discard.iloc[0]
    assert wheel["value"] > 0.6 and wheel["swing_failed"] > 0.1, wheel
    assert wheel["low_share"] == pytest.approx(wheel["high_share"], abs=0.02)
    for row in (at_deal, after_pass, after_discard):
        _halves_fit(row)
        assert 0 < row["value"].item() <= 1


def test_the_hilo_pagat_difference_is_visible():
    """The same pass is worth different amounts when low hands count."""
    high = pass_values(SPLIT, 4, deals=2000, seed=9).set_index("pass")["value"]
    hilo = pass_values(SPLIT, 4, rules="hi-lo", deals=2000, seed=9).set_index("pass")["value"]
    # keeping 5-4-3-2 and passing the kings is a low plan: far better under hi-lo
    low_plan = "K♠ K♥ 9♣"
    assert hilo[low_plan] > high[low_plan] + 0.05


def test_hilo_reveal_values_with_the_hilo_columns():
    table = reveal_values("5♠ 4♥ 3♦ 2♣ A♠", 3, rules="hi-lo", deals=200, seed=4)
    assert len(table) == 120 and {"swing_failed", "high_share", "low_share"} <= set(table)
    same = reveal_values("5♠ 4♥ 3♦ 2♣ A♠", 3, rules="hi-lo", deals=200, seed=4)
    assert table.equals(same)
    hidden = reveal_values("5♠ 4♥ 3♦ 2♣ A♠", 3, rules="hi-lo", by="hidden", deals=200, seed=4)
    assert {"high_share", "low_share", "swing_failed"} <= set(hidden)
    by_card = table.groupby("hidden")["low_share"].mean()
    assert hidden.set_index("hidden")["low_share"].to_dict() == pytest.approx(by_card.to_dict())
    with pytest.raises(ValueError, match="differ from the presets the analyses model"):
        reveal_values("5♠ 4♥ 3♦ 2♣ A♠", 3, rules=Rules.hilo(4), deals=200)
