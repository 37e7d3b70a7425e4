"""Strategy analysis: pass, discard and equity tables (showdown model).

Accuracy is checked row by row against the slow twins of naive_showdown.py
within 4 combined standard errors; standard errors, CI coverage and the
best-five property are checked as statistical facts.
"""

from __future__ import annotations

import math

import naive_showdown
import numpy as np
import pytest

from anaconda_sim.analysis import discard_values, equity, pass_values, reveal_values
from anaconda_sim.cards import CardError, format_cards, parse_cards
from anaconda_sim.hands.evaluator import best_five
from anaconda_sim.strategies import get_strategy

WORKED = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
AFTER_PASS = "Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠"


def _by_cards(table, column):
    return {frozenset(parse_cards(t)): i for i, t in enumerate(table[column])}


def test_pass_values_columns_and_shape():
    table = pass_values(WORKED, 6, deals=3000, seed=5)
    for column in ["pass", "keep", "value", "se", "ci_low", "ci_high", "rank",
                   "diff_vs_best", "diff_se", "left_gain", "left_gain_se",
                   "cat_full_house"]:  # fmt: skip
        assert column in table.columns
    assert len(table) == 35
    assert table["value"].is_monotonic_decreasing
    assert table["rank"].iloc[0] == 1 and table["diff_vs_best"].iloc[0] == 0
    cats = table.filter(like="cat_").sum(axis=1)
    assert np.allclose(cats, 1.0)
    assert np.allclose(table["ci_high"] - table["ci_low"], 2 * 1.959963984540054 * table["se"])
    assert table.attrs["deals"] == 3000


def test_R7_pass_values_agree_with_naive_twin():
    """Each pass's pot share agrees with a plain-Python simulation within 4 SE."""
    hand = parse_cards(WORKED)
    deals = 3000
    table = pass_values(hand, 4, opponents="random-pass", deals=deals, seed=11)
    _assert_pass_shares_agree(table, *naive_showdown.pass_shares(hand, 4, deals, seed=12))


def _assert_pass_shares_agree(table, choices, shares) -> None:
    """Each pass's pot share in ``table`` agrees with the twin's within 4 SE."""
    naive_mean = shares.mean(axis=0)
    naive_se = shares.std(axis=0, ddof=1) / math.sqrt(len(shares))
    rows = _by_cards(table, "pass")
    for k, choice in enumerate(choices):
        row = table.iloc[rows[frozenset(choice)]]
        tolerance = 4 * math.hypot(row["se"], naive_se[k])
        assert abs(row["value"] - naive_mean[k]) < tolerance, format_cards(choice)


def test_R7_default_opponents_are_learned_and_agree_with_naive_twin():
    """Without ``opponents`` every opponent plays "learned" (the shipped vector of the
    table size): the table says so, and each pass's pot share agrees with the plain-Python
    simulation whose opponents pass by the learned strategy's own decision, within 4 SE."""
    hand = parse_cards(WORKED)
    deals = 3000
    table = pass_values(hand, 4, deals=deals, seed=11)
    assert table.attrs["opponents"] == ["learned"] * 3
    assert table.attrs["model"] == "showdown"
    _assert_pass_shares_agree(table, *naive_showdown.pass_shares(
        hand, 4, deals, seed=12, strategy=get_strategy("learned")))  # fmt: skip


def test_R8_discard_values_agree_with_naive_twin():
    hand = parse_cards(AFTER_PASS)
    passed, received = parse_cards("3♠ 4♥ 2♣"), parse_cards("Q♦ 9♦ 5♠")
    deals = 3000
    table = discard_values(hand, 5, passed=passed, received=received, opponents="random-pass",
                           deals=deals, seed=3)  # fmt: skip
    discards, shares = naive_showdown.discard_shares(hand, 5, passed, received, deals, seed=4)
    naive_mean = shares.mean(axis=0)
    naive_se = shares.std(axis=0, ddof=1) / math.sqrt(deals)
    rows = _by_cards(table, "discard")
    for k, discard in enumerate(discards):
        row = table.iloc[rows[frozenset(discard)]]
        tolerance = 4 * math.hypot(row["se"], naive_se[k]) + 1e-12
        assert abs(row["value"] - naive_mean[k]) < tolerance, format_cards(discard)


@pytest.mark.parametrize(
    "hand", [AFTER_PASS, "Ah Kh Qh Jh 2h 2c 2d", "As Ad Ks Kd Qc Qh 3s", "9c 8d 7h 6s 5c 4d 2h"]
)
def test_best_discard_is_best_five_without_other_information(hand):
    table = discard_values(hand, 6, deals=2000, seed=8)
    five, discards = best_five(parse_cards(hand))
    assert set(parse_cards(table["keep"].iloc[0])) == set(five)
    assert set(parse_cards(table["discard"].iloc[0])) == set(discards)


@pytest.mark.slow
def test_standard_errors_shrink_as_one_over_sqrt_deals():
    small = equity("Q♠ Q♥ Q♦ 9♣ 9♦", 5, deals=4000, seed=21)
    large = equity("Q♠ Q♥ Q♦ 9♣ 9♦", 5, deals=64000, seed=21)
    ratio = large["se"].item() / small["se"].item()
    assert ratio == pytest.approx(0.25, rel=0.1)


@pytest.mark.slow
def test_confidence_intervals_cover_about_95_percent():
    hand = "K♠ K♥ 7♣ 7♦ 2♠"
    reference = equity(hand, 4, deals=400_000, seed=1000)["value"].item()
    runs = 200
    covered = sum(
        row["ci_low"].item() <= reference <= row["ci_high"].item()
        for row in (equity(hand, 4, deals=400, seed=s) for s in range(runs))
    )
    tolerance = 4 * math.sqrt(0.95 * 0.05 / runs)
    assert abs(covered / runs - 0.95) < tolerance + 0.01


def test_same_seed_same_table_whatever_the_batch_size():
    a = pass_values(WORKED, 3, deals=5000, seed=9, batch_size=1000)
    b = pass_values(WORKED, 3, deals=5000, seed=9, batch_size=4096)
    assert a.equals(b)
    c = pass_values(WORKED, 3, deals=5000, seed=10)
    assert not a["value"].equals(c["value"])


def test_precision_stops_when_every_se_is_small_enough():
    table = discard_values(AFTER_PASS, 4, precision=0.004, seed=2, batch_size=2048)
    assert table["se"].max() < 0.004
    assert table.attrs["deals"] < 2_000_000
    capped = discard_values(AFTER_PASS, 4, precision=1e-6, max_deals=4096, seed=2)
    assert capped.attrs["deals"] == 4096


def test_paired_difference_is_more_precise_than_either_value():
    # against random passers the queens' two best passes share most outcomes
    table = pass_values(WORKED, 6, opponents="random-pass", deals=4000, seed=4)
    second = table.iloc[1]
    assert second["diff_se"] < second["se"]


def test_left_gain_is_centred_and_shows_gifts():
    table = pass_values(WORKED, 6, deals=4000, seed=6)
    gains = table.set_index(table["pass"].map(lambda t: frozenset(parse_cards(t))))["left_gain"]
    assert abs(gains.mean()) < 1e-9
    # passing both queens gives the left neighbour more than passing three low cards
    assert gains[frozenset(parse_cards("Q♠ Q♥ 2♣"))] > gains[frozenset(parse_cards("3♠ 4♥ 2♣"))]


def test_equity_stages():
    at_deal = equity(WORKED, 6, deals=3000, seed=1)
    after_pass = equity(AFTER_PASS, 6, passed="3♠ 4♥ 2♣", received="Q♦ 9♦ 5♠", deals=3000,
                        seed=1)  # fmt: skip
    final = equity("Q♠ Q♥ Q♦ 9♣ 9♦", 6, deals=3000, seed=1)
    assert at_deal["stage"].item() == "at deal"
    assert after_pass["stage"].item() == "after pass"
    assert final["stage"].item() == "after discard"
    assert after_pass["cat_full_house"].item() == 1.0
    for row in (at_deal, after_pass, final):
        assert 0 <= row["ci_low"].item() <= row["value"].item() <= row["ci_high"].item() <= 1.1


def test_R2_two_players_swap_packets():
    table = pass_values(WORKED, 2, deals=2000, seed=1)
    assert len(table) == 35 and table["value"].between(0, 1).all()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: pass_values("Qs Qh 9c", 6), CardError, "has 3 cards; it needs 7"),
        (lambda: pass_values("Qs Qh 9c 8d 3s 4h Qs", 6), CardError, "duplicate card Qs"),
        (lambda: pass_values(WORKED, 8), ValueError, r"players=8 is too large: Anaconda is played by 2 to 7 players"),  # noqa: E501
        (lambda: pass_values(WORKED, 1), ValueError, r"players=1 is too small: Anaconda is played by 2 to 7 players"),  # noqa: E501
        (lambda: pass_values(WORKED, 6, opponents="shark"), ValueError, "unknown strategy 'shark'"),
        (lambda: pass_values(WORKED, 6, opponents=["random-pass"] * 3), ValueError,
         "3 strategies for 5 opponents"),
        (lambda: pass_values(WORKED, 6, deals=1), ValueError, "deals=1"),
        (lambda: pass_values(WORKED, 6, deals=10, precision=0.1), ValueError, "not both"),
        (lambda: pass_values(WORKED, 6, precision=-1), ValueError, "precision=-1"),
        (lambda: discard_values(AFTER_PASS, 6, passed="Q♠ 4♥ 2♣"), CardError,
         "passed card Qs is still in the hand"),
        (lambda: discard_values(AFTER_PASS, 6, received="A♠ 9♦ 5♠"), CardError,
         "received card As is not in the hand"),
        (lambda: discard_values(AFTER_PASS, 6, passed="3♠ 4♥"), CardError, "needs 3"),
        (lambda: equity("Q♠ Q♥ Q♦ 9♣ 9♦", 6, passed="3♠ 4♥ 2♣"), ValueError,
         "seven-card hand after the pass"),
        (lambda: equity("Q♠ Q♥ Q♦ 9♣", 6), CardError, "needs 5 or 7"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_a_clear_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------------ reveal --
FULL_HOUSE = "Q♠ Q♥ Q♦ 9♣ 9♦"
TWO_PAIR = "K♠ K♥ 7♣ 7♦ A♠"


def test_R9_reveal_values_cover_the_120_orders_with_diagnostics():
    table = reveal_values(TWO_PAIR, 4, deals=400, seed=3, fold=False)
    assert len(table) == 120
    assert table["order"].nunique() == 120
    assert all(row["order"].split()[-1] == row["hidden"] for _, row in table.iterrows())
    assert all(row["order"].split()[0] == row["first"] for _, row in table.iterrows())
    for column in ["open_r1", "open_r4", "opp_fold_r1", "showdown_rate", "share"]:
        assert table[column].between(0, 1).all()
    assert (table["mean_pot"] >= 4).all()  # at least the antes
    assert table["value"].is_monotonic_decreasing
    assert table.attrs["value_unit"] == "chips per deal"


def test_R10_without_betting_every_reveal_order_is_worth_the_same():
    """With nobody betting, the order cannot change the showdown (R10)."""
    table = reveal_values(TWO_PAIR, 5, betting=False, deals=600, seed=4)
    assert table["value"].nunique() == 1
    assert table["diff_se"].max() == 0


def test_reveal_by_hidden_is_the_average_of_its_24_orders():
    orders = reveal_values(TWO_PAIR, 4, deals=500, seed=5, fold=False)
    hidden = reveal_values(TWO_PAIR, 4, deals=500, seed=5, by="hidden", fold=False)
    assert len(hidden) == 5
    means = orders.groupby("hidden")["value"].mean()
    for _, row in hidden.iterrows():
        assert row["value"] == pytest.approx(means[row["hidden"]], abs=1e-12)
        best = orders[orders["hidden"] == row["hidden"]]["value"].max()
        assert row["best_order_value"] == pytest.approx(best)


def test_reveal_same_seed_same_table_whatever_the_batch_size():
    a = reveal_values(TWO_PAIR, 3, deals=700, seed=8, batch_size=100)
    b = reveal_values(TWO_PAIR, 3, deals=700, seed=8, batch_size=512)
    assert a.equals(b)


@pytest.mark.parametrize("opponents", [None, "random-pass"])
def test_pass_values_with_betting_match_the_batch_simulator(opponents):
    """``None``: the default opponents, which are "learned", as the default hero is."""
    from anaconda_sim.sim.simulator import score_choices

    given = {} if opponents is None else {"opponents": opponents}
    table = pass_values(WORKED, 3, betting=True, deals=600, seed=12, batch_size=4096, **given)
    hand = parse_cards(WORKED)
    choices = [list(c) for c in __import__("itertools").combinations(hand, 3)]
    from anaconda_sim.rng import root_key

    field = opponents or "learned"
    assert table.attrs["opponents"] == [field, field]
    assert table.attrs["hero"] == "learned"
    scores = score_choices(3, ["learned", field, field], hero=0, kind="pass",
                           choices=choices, deals=600, seed=int(root_key(12)), dealer=2,
                           fixed={0: hand}, progress=False)  # fmt: skip
    rows = _by_cards(table, "pass")
    for k, choice in enumerate(choices):
        row = table.iloc[rows[frozenset(choice)]]
        assert row["value"] == pytest.approx(scores.mean_net[k], abs=1e-12)
        assert row["se"] == pytest.approx(scores.se_net[k], rel=1e-9)
    assert table.attrs["value_unit"] == "chips per deal"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hand5": "Q♠ Q♥ Q♦ 9♣"}, CardError, "has 4 cards; it needs 5"),
        ({"by": "first"}, ValueError, "by='first' is not supported"),
        ({"discards": "Q♠ 2♣"}, CardError, "discards include Qs, which is in the kept five"),
        ({"discards": "3♣ 2♣", "passed": "3♣ 4♥ 5♥"}, CardError, "passed cards include 3c"),
        ({"discards": "3♣ 2♣", "received": "A♣ 9♦ Q♠"}, CardError,
         "received card Ac is neither kept nor discarded"),
        ({"dealer": 9}, ValueError, "dealer=9 is too large: seats are 0..3"),
        ({"opponents": "nobody"}, ValueError, "unknown strategy 'nobody'"),
    ],
)  # fmt: skip
def test_reveal_bad_input(kwargs, error, message):
    hand = kwargs.pop("hand5", FULL_HOUSE)
    with pytest.raises(error, match=message):
        reveal_values(hand, 4, deals=10, **kwargs)


def test_known_dead_cards_are_never_dealt_and_change_equity():
    """A five-card hand's own discards are dead cards: naming them is honoured."""
    free = equity("A♠ K♠ Q♠ J♠ 9♠", 4, deals=4000, seed=2)
    # the hero's two discards were spades: fewer spades left for opponents' flushes
    known = equity("A♠ K♠ Q♠ J♠ 9♠", 4, known="2♠ 3♠", deals=4000, seed=2)
    assert known["value"].item() >= free["value"].item() - 4 * free["se"].item()
    table = discard_values(AFTER_PASS, 4, known="A♠ A♥ A♦", deals=1000, seed=1)
    assert len(table) == 21


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: equity("Q♠ Q♥ Q♦ 9♣ 9♦", 7, known="2c 3c 4c 5c 6c", deals=10),
         "impossible: 7 players need 45 cards"),
        (lambda: equity(WORKED, 7, known="Ac Ad Ah As", deals=10), "impossible"),
        (lambda: equity("Q♠ Q♥ Q♦ 9♣ 9♦", 4, known="Q♠", deals=10),
         "known cards include Qs, which is in the hero's cards"),
        (lambda: discard_values(AFTER_PASS, 4, known="9♣ 2♣"), "known cards include 9c"),
    ],
)  # fmt: skip
def test_impossible_or_conflicting_known_cards_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
