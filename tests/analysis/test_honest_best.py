"""Honest "best": p_best, ties marked, and confirmation on fresh deals."""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim import discard_values, pass_values, reveal_values
from anaconda_sim.analysis.driver import P_BEST_DRAWS, Z95

WORKED = "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"
AFTER_PASS = "Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠"


def test_p_best_is_a_distribution_led_by_the_best_row():
    table = pass_values(WORKED, 6, deals=20_000, seed=1, progress=False)
    p = table["p_best"].to_numpy()
    assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    assert p.argmax() == 0
    # a row more than 4 paired SEs behind the best is (almost) never the best
    far = (-table["diff_vs_best"]) > 4 * table["diff_se"]
    assert (table.loc[far, "p_best"] <= 10 / P_BEST_DRAWS).all()
    # the same seed gives the same column
    again = pass_values(WORKED, 6, deals=20_000, seed=1, progress=False)
    assert again["p_best"].tolist() == p.tolist()


def test_a_clear_winner_has_p_best_one_and_no_ties():
    table = discard_values(AFTER_PASS, 6, passed="3♠ 4♥ 2♣", received="Q♦ 9♦ 5♠",
                           deals=3000, seed=2, progress=False)  # fmt: skip
    assert table["discard"].iloc[0] == "8♦ 5♠"  # keeps the full house
    assert table["p_best"].iloc[0] == pytest.approx(1.0)
    assert table["tied_with_best"].tolist() == [True] + [False] * 20


def test_ties_are_marked_by_the_paired_interval():
    # against random-pass opponents several passes of the worked example tie
    table = pass_values(WORKED, 6, opponents="random-pass", deals=20_000, seed=1,
                        progress=False)  # fmt: skip
    expected = np.abs(table["diff_vs_best"]) <= Z95 * table["diff_se"]
    assert table["tied_with_best"].tolist() == expected.tolist()
    assert table["tied_with_best"].iloc[0] and table["tied_with_best"].sum() >= 2


def test_choices_equal_on_every_deal_share_p_best():
    """Hiding any of three queens shows the same cards: the three rows are one choice."""
    # against the field in which hiding a queen is the best by far (learned-v1's)
    table = reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 5, by="hidden", deals=2000, seed=1, progress=False,
                          fold=False, opponents="learned-v1")  # fmt: skip
    queens = table[table["hidden"].str.startswith("Q")]
    assert queens["value"].nunique() == 1
    assert queens["p_best"].tolist() == pytest.approx([1 / 3] * 3)
    # folded, Q♠ and Q♥ (alike up to the suits) are one row: two rows share
    folded = reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 5, by="hidden", deals=2000, seed=1,
                           progress=False, opponents="learned-v1")  # fmt: skip
    queens = folded[folded["hidden"].str.startswith("Q")]
    assert queens["count"].sum() == 3 and queens["p_best"].tolist() == pytest.approx([0.5] * 2)


def test_confirm_reestimates_the_top_rows_on_fresh_deals():
    table = pass_values(WORKED, 5, deals=4000, seed=9, progress=False, confirm=3)
    top, rest = table.iloc[:3], table.iloc[3:]
    assert top["confirm_value"].notna().all() and rest["confirm_value"].isna().all()
    assert table.attrs["confirm"] == 3 and table.attrs["confirm_deals"] == 4000
    # fresh deals: other numbers, the same precision
    assert (top["confirm_value"] != top["value"]).any()
    assert np.allclose(top["confirm_se"], top["se"], rtol=0.2)
    # and the screening table itself does not change
    plain = pass_values(WORKED, 5, deals=4000, seed=9, progress=False)
    assert plain["value"].tolist() == table["value"].tolist()


@pytest.mark.slow
def test_the_screened_best_is_biased_upwards_and_confirmation_removes_it():
    """The winner's curse, measured: over many seeds the best row's screening
    value exceeds its value on fresh deals by more than 3 standard errors."""
    gaps = []
    for seed in range(80):
        table = pass_values("K♠ Q♥ 9♣ 8♦ 6♠ 4♥ 2♣", 6, deals=300, seed=seed, progress=False,
                            confirm=1)  # fmt: skip
        gaps.append(table["value"].iloc[0] - table["confirm_value"].iloc[0])
    gaps = np.array(gaps)
    se = gaps.std(ddof=1) / np.sqrt(len(gaps))
    assert gaps.mean() > 3 * se


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"confirm": 36}, ValueError, "confirm=36 is too large: it counts the best rows to re-estimate, of 35"),  # noqa: E501
        ({"confirm": -1}, ValueError, "confirm=-1 is too small: it counts the best rows to re-estimate, of 35"),  # noqa: E501
        ({"confirm": True}, TypeError, "confirm=True must be an int"),
        ({"confirm": 2.0}, TypeError, "confirm=2.0 must be an int"),
    ],
)
def test_bad_confirm_is_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        pass_values(WORKED, 6, deals=10, progress=False, **kwargs)


def test_confirm_needs_single_orders():
    with pytest.raises(ValueError, match="use it with by=None"):
        reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 5, by="hidden", confirm=1, deals=10)


def test_rules_are_recorded_and_other_rule_sets_refused():
    from anaconda_sim import Rules

    table = pass_values(WORKED, 4, rules=Rules.pagat(4), deals=200, seed=1, progress=False)
    assert table.attrs["rules"] == "pagat"
    with pytest.raises(ValueError, match="rules='bicycle' is not a rule set the analyses model"):
        pass_values(WORKED, 4, rules="bicycle", deals=200)
    with pytest.raises(ValueError, match="differ from the presets the analyses model"):
        discard_values(AFTER_PASS, 4, rules=Rules.bicycle(4), deals=200)
    with pytest.raises(ValueError, match="differ from the presets the analyses model"):
        reveal_values("Q♠ Q♥ Q♦ 9♣ 9♦", 5, rules=Rules.pagat(4), deals=200)
    # hi-lo is a rule set of its own (tests/analysis/test_hilo_analyses.py)
    assert pass_values(WORKED, 4, rules="hi-lo", deals=200).attrs["rules"] == "hi-lo"
