"""The batch simulator's public API: results, determinism, inputs, choices."""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pandas as pd
import pytest

from anaconda_sim.cards import CardError, parse_cards
from anaconda_sim.sim.simulator import ChoiceScores, SimulationResult, score_choices, simulate
from anaconda_sim.strategies import Strategy, get_strategy
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules

RECORD_COLUMNS = [
    "deal", "seat", "dealer", "strategy", "pot", "showdown", "win_category", "winner", "net",
    "fold_round", "value", "category", *(f"dealt_{j}" for j in range(7)),
    *(f"passed_{j}" for j in range(6)), *(f"hand_{j}" for j in range(7)), "discard_0",
    "discard_1",
]  # fmt: skip
MIX = ["sensible", get_strategy("sensible", bluff=0.2), "random", "call-down", "random-pass"]


def _same(a: SimulationResult, b: SimulationResult) -> None:
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    assert a.mean_pot == b.mean_pot and a.pot_se == b.pot_se
    np.testing.assert_array_equal(a.open_rate, b.open_rate)


# ------------------------------------------------------------ determinism --
def test_same_seed_same_numbers_any_thread_count_and_batch_size() -> None:
    rules = Rules(players=5)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(rules, MIX, 3000, seed=42, progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = simulate(rules, MIX, 3000, seed=42, progress=False)
        small = simulate(rules, MIX, 3000, seed=42, batch_size=7, progress=False)
        big = simulate(rules, MIX, 3000, seed=42, batch_size=5000, progress=False)
    finally:
        numba.set_num_threads(before)
    _same(one, many)
    _same(one, small)
    _same(one, big)
    other = simulate(rules, MIX, 3000, seed=43, progress=False)
    assert not np.array_equal(one.mean_net, other.mean_net)


def test_a_deal_depends_only_on_seed_and_index() -> None:
    # deal d of a long run is deal d of a short run (streams per deal)
    long = simulate(Rules.bicycle(4), "random", 50, seed=9, records=True, progress=False)
    short = simulate(Rules.bicycle(4), "random", 20, seed=9, records=True, progress=False)
    pd.testing.assert_frame_equal(long.records.iloc[: 20 * 4], short.records)


def test_seed_sequence_equals_int_seed() -> None:
    a = simulate(3, "sensible", 300, seed=5, progress=False)
    b = simulate(3, "sensible", 300, seed=np.random.SeedSequence(5), progress=False)
    _same(a, b)


# ---------------------------------------------------------------- results --
def test_result_fields_and_frame() -> None:
    r = simulate(Rules(players=4), "sensible", 4000, seed=1, progress=False)
    assert r.deals == 4000 and not r.interrupted
    assert r.mean_net.shape == (4,) and r.fold_rate.shape == (4, 6)
    assert r.category_freq.shape == (4, 9)
    assert abs(r.mean_net.sum()) < 1e-12  # chips change hands only
    np.testing.assert_allclose(r.category_freq.sum(axis=1), r.showdown_rate)
    # every deal is won by someone: sole wins + shared wins cover all deals
    assert r.win_rate.sum() <= 1.0 + 1e-12
    assert r.win_rate.sum() + r.tie_rate.sum() >= 1.0 - 1e-12
    np.testing.assert_allclose(r.ci_high - r.ci_low, 2 * 1.959963984540054 * r.se)
    frame = r.to_frame()
    assert list(frame.columns[:10]) == [
        "seat", "strategy", "deals", "value", "se", "ci_low", "ci_high",
        "win_rate", "tie_rate", "showdown_rate",
    ]  # fmt: skip
    assert [c for c in frame.columns if c.startswith("fold_rate")] == [
        f"fold_rate_r{i}" for i in range(1, 7)
    ]
    assert "mean_pot" in frame and "cat_full_house" in frame
    assert len(frame) == 4
    np.testing.assert_array_equal(frame["value"], r.mean_net)
    np.testing.assert_array_equal(frame["ci_low"], r.ci_low)
    assert frame.attrs == r.model and frame.attrs["function"] == "anaconda_sim.simulate"
    assert frame.attrs["value_unit"] == "chips per deal" and frame.attrs["model"] == "betting"
    # each round has exactly one opener per deal that reaches it
    assert np.all(r.open_rate.sum(axis=0) <= 1.0 + 1e-12)
    np.testing.assert_allclose(r.open_rate[:, 0].sum(), 1.0)


def test_symmetric_table_breaks_even_within_four_standard_errors() -> None:
    # identical strategies and a rotating button: every seat's expectation is 0
    r = simulate(Rules(players=3), "sensible", 20000, seed=11, progress=False)
    assert np.all(np.abs(r.mean_net) < 4 * r.se)


def test_no_betting_means_showdown_equity() -> None:
    rules = Rules(players=6)
    r = simulate(rules, "sensible", 5000, seed=2, betting=False, progress=False)
    assert np.all(r.showdown_rate == 1.0) and np.all(r.fold_rate == 0.0)
    assert r.mean_pot == 6.0 and r.pot_se == 0.0
    # equity: net = 6 * share - 1, so its mean is 0 for a symmetric table
    assert np.all(np.abs(r.mean_net) < 4 * r.se)
    # sole wins plus split pots cover every deal (a split counts for each seat in it)
    assert r.win_rate.sum() < 1.0 <= r.win_rate.sum() + r.tie_rate.sum()


def test_records_columns_and_button() -> None:
    r = simulate(Rules(players=3), "random", 7, seed=4, dealer=2, records=True, progress=False)
    rec = r.records
    assert list(rec["deal"]) == [d for d in range(7) for _ in range(3)]
    assert list(rec["seat"]) == [0, 1, 2] * 7
    assert list(rec["dealer"]) == [(2 + d) % 3 for d in range(7) for _ in range(3)]  # R6
    assert list(rec.columns) == RECORD_COLUMNS
    assert {str(t) for t in rec.dtypes} <= {"int8", "int16", "int32", "int64", "bool",
                                            "category"}  # fmt: skip
    dealt = rec[[f"dealt_{j}" for j in range(7)]].to_numpy().reshape(7, 21)
    assert all(len(set(row)) == 21 for row in dealt)  # 21 different cards per deal
    assert (rec.groupby("deal")["net"].sum() == 0).all()
    # the pot goes to the winners; the winning category is the best shown
    won = rec[rec["winner"]].groupby("deal")["net"].sum()
    invested = rec.groupby("deal")["pot"].first()
    assert (won <= invested).all()
    shown = rec[rec["showdown"]]
    assert (shown.groupby("deal")["category"].max() ==
            shown.groupby("deal")["win_category"].first()).all()  # fmt: skip
    assert rec.loc[~rec["showdown"], "win_category"].isna().all()
    assert set(r.records.attrs) >= {"strategies", "players", "seed", "key", "deals"}
    assert r.records.attrs["deals"] == 7 and r.records.attrs["key"] == r.key
    fixed = simulate(3, "random", 5, seed=4, dealer=1, rotate=False, records=True,
                     progress=False)  # fmt: skip
    assert set(fixed.records["dealer"]) == {1}


def test_progress_callable_and_ctrl_c_return_what_finished() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        3, "sensible", 5000, seed=1, batch_size=100, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (5000, 5000)
    assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    r = simulate(3, "sensible", 100_000, seed=1, batch_size=100, progress=stop)
    assert r.interrupted and 0 < r.deals < 100_000
    full = simulate(3, "sensible", r.deals, seed=1, progress=False)
    np.testing.assert_array_equal(r.mean_net, full.mean_net)


# ----------------------------------------------------------------- inputs --
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"rules": 8}, ValueError, "2 to 7 players"),
        ({"rules": "six"}, TypeError, "Rules object or a number"),
        ({"strategies": "bluffer"}, ValueError, "unknown strategy 'bluffer'"),
        ({"strategies": ["sensible"] * 2}, ValueError, "2 strategies given for 3 players"),
        ({"strategies": 5}, TypeError, "one per seat"),
        ({"deals": 0}, ValueError, "deals=0 is too small; give deals >= 1"),
        ({"deals": 2.5}, TypeError, "deals=2.5 must be an int"),
        ({"dealer": 3}, ValueError, "dealer=3 is too large: seats are 0..2"),
        ({"batch_size": 0}, ValueError, "batch_size=0"),
        ({"seed": -1}, ValueError, "negative"),
        ({"fixed": {0: "As Ks", 1: "As"}}, CardError, "fixed twice"),
        ({"fixed": {0: "As As"}}, CardError, "duplicate card As"),
        ({"fixed": {5: "As"}}, ValueError, "fixed seat=5 is too large: seats are 0..2"),
        ({"fixed": {0: "As Ks Qs Js Ts 9s 8s 7s"}}, CardError, "it needs 1 or 2"),
        ({"fixed": {0: "As"}, "known": "As"}, CardError, "also fixed to seat 0"),
        ({"known": "Xs"}, CardError, "unknown rank"),
        ({"records": True, "deals": 3_000_000}, ValueError, "records='deals.parquet'"),
        ({"records": "deals.csv"}, ValueError, "give a path ending in .parquet"),
        ({"records": 5}, TypeError, "path of a .parquet file"),
        ({"chunk_size": 0}, ValueError, "chunk_size=0 is too small; give chunk_size >= 1"),
        ({"outcomes": "yes"}, TypeError, "outcomes='yes' must be True or False"),
    ],
)
def test_bad_inputs_raise_clear_errors(kwargs: dict, error: type, match: str) -> None:
    args = {"rules": 3, "strategies": "sensible", "deals": 10, "progress": False} | kwargs
    with pytest.raises(error, match=match):
        simulate(**args)


def test_too_many_known_cards() -> None:
    known = parse_cards("2c 2d 2h 2s")
    with pytest.raises(ValueError, match="known cards leave 48 cards"):
        simulate(7, "sensible", 10, known=known, progress=False)


def test_two_different_user_strategies_are_refused() -> None:
    a = Strategy.custom("a", bet=_always_raise)
    b = Strategy.custom("b", bet=_always_raise, pass_cards=_pass_highest)
    with pytest.raises(ValueError, match="one run takes one user strategy"):
        simulate(3, [a, b, "sensible"], 10, progress=False)


# ---------------------------------------------------------- user strategy --
@numba.njit
def _always_raise(pub, own, params, rng):
    return V.INTENT_AGGRESSIVE


@numba.njit
def _pass_highest(pub, own, params, rng, out):
    # pass the highest-index cards, highest first
    n = own[V.O_NCARDS]
    taken = 0
    for k in range(pub[V.P_PASS_COUNT]):
        best = -1
        best_i = 0
        for i in range(n):
            c = own[V.O_CARDS + i]
            if not (taken >> i) & 1 and c > best:
                best = c
                best_i = i
        taken |= 1 << best_i
        out[k] = best


def test_user_numba_strategy_runs_in_the_kernel() -> None:
    maniac = Strategy.custom("maniac", bet=_always_raise, pass_cards=_pass_highest)
    rules = Rules(players=3)
    r = simulate(rules, [maniac, "call-down", "call-down"], 400, seed=8, records=True,
                 progress=False)  # fmt: skip
    assert r.strategies == ("maniac", "call-down", "call-down")
    # the maniac bets every round and the call-downs call: pot = 3 * (ante + 6 bets)
    assert r.mean_pot == 21.0
    seat0 = r.records[r.records["seat"] == 0]
    dealt = seat0[[f"dealt_{j}" for j in range(7)]].to_numpy()
    passed = seat0[["passed_0", "passed_1", "passed_2"]].to_numpy()
    np.testing.assert_array_equal(passed, -np.sort(-dealt, axis=1)[:, :3])
    assert (seat0[["passed_3", "passed_4", "passed_5"]] == -1).all(axis=None)
    # the same strategy in the reference engine gives the same deals
    from anaconda_sim.game.play import play_deal

    rows = r.records[r.records["deal"] == 5]
    game = play_deal(rules, [maniac, "call-down", "call-down"], key=r.key, deal_index=5,
                     dealer=int(rows["dealer"].iloc[0]))  # fmt: skip
    assert tuple(game.result.net) == tuple(rows["net"])


# ---------------------------------------------------------- score_choices --
HERO7 = "As Ad Kc 7h 5d 3s 2c"
PASSES = ["7h 3s 2c", "As Ad Kc", "Kc 5d 2c"]


def test_pass_choices_on_common_random_numbers() -> None:
    s = score_choices(4, "sensible", hero=1, kind="pass", choices=PASSES, deals=3000, seed=3,
                      fixed={1: HERO7}, betting=False, records=True, progress=False)  # fmt: skip
    assert isinstance(s, ChoiceScores)
    assert s.choices.shape == (3, 3) and s.deals == 3000
    assert np.all(s.missed == 0)
    # passing the trash beats passing the aces, far beyond the paired error
    d, se = s.diff(0, 1, "share")
    assert d > 4 * se > 0
    # the paired error is smaller than the unpaired one (common random numbers)
    assert se < np.hypot(s.se_share[0], s.se_share[1])
    # what the hero passes shows in the left neighbour's results
    assert s.left_mean_share[1] > s.left_mean_share[0]
    assert np.all(s.showdown_rate == 1.0) and np.all(s.mean_pot == 4.0)
    np.testing.assert_allclose(s.category_counts.sum(axis=1), 3000)
    rec = s.records
    assert len(rec) == 3000 * 3 * 4 and list(rec.columns[:3]) == ["deal", "choice", "seat"]
    hero = rec[rec["seat"] == 1]
    for k, cards in enumerate(PASSES):
        passed = hero.loc[hero["choice"] == k, ["passed_0", "passed_1", "passed_2"]]
        assert set(map(tuple, passed.to_numpy().tolist())) == {tuple(parse_cards(cards))}
    # the same deck for every choice
    dealt = [f"dealt_{j}" for j in range(7)]
    assert rec.groupby(["deal", "seat"])[dealt].nunique().max().max() == 1
    assert not rec["missed"].any()
    frame = s.to_frame()
    assert list(frame["cards"]) == ["7h 3s 2c", "As Ad Kc", "Kc 5d 2c"]
    assert {"value", "se", "ci_low", "ci_high", "mean_share", "se_share", "open_r1"} <= set(
        frame.columns)
    np.testing.assert_array_equal(frame["value"], s.mean_net)
    np.testing.assert_array_equal(frame["se"], s.se_net)
    assert frame.attrs["analysis"] == "score_choices" and frame.attrs["kind"] == "pass"
    assert frame.attrs["value_unit"] == "chips per deal"


def test_identical_choices_give_identical_scores() -> None:
    s = score_choices(3, MIX[:3], hero=0, kind="pass", choices=[PASSES[0]] * 2, deals=500,
                      seed=1, fixed={0: HERO7}, progress=False)  # fmt: skip
    assert s.mean_net[0] == s.mean_net[1]
    assert s.diff(0, 1) == (0.0, 0.0)


def test_reveal_order_does_not_matter_without_betting() -> None:
    # with nobody betting, the order only changes who opens: shares are equal
    hero7 = "Qs Qh 9c 8d 3s 4h 2c"
    orders = ["9c Qs 8d Qh 3s", "Qs Qh 9c 8d 3s", "3s 8d 9c Qh Qs"]
    s = score_choices(Rules(players=4, passes=()), "sensible", hero=2, kind="order",
                      choices=orders, deals=800, seed=6, fixed={2: hero7}, betting=False,
                      records=True, progress=False)  # fmt: skip
    assert np.all(s.missed == 0)
    assert s.mean_share[0] == s.mean_share[1] == s.mean_share[2]
    assert s.diff(0, 2, "share") == (0.0, 0.0)
    hero = s.records[s.records["seat"] == 2]
    for k, order in enumerate(orders):
        mine = hero[hero["choice"] == k]
        hands = set(map(tuple, mine[[f"hand_{j}" for j in range(7)]].to_numpy().tolist()))
        assert hands == {(*parse_cards(order), -1, -1)}
        discards = set(map(tuple, mine[["discard_0", "discard_1"]].to_numpy().tolist()))
        assert discards == {tuple(parse_cards("4h 2c"))}
    # pairs shown early open the reveal rounds more often
    assert s.open_rate[1, 0] > s.open_rate[0, 0]


def test_discard_after_a_known_pass() -> None:
    # hero (seat 0) passes 3s 4h 2c and receives Qd 9d 5s from seat 2 (docs/rules.md example)
    s = score_choices(
        3, "call-down", hero=0, kind="discard",
        choices=["8d 5s Qs Qh Qd 9c 9d", "9c 9d Qs Qh Qd 8d 5s"],
        deals=600, seed=2, fixed={0: "Qs Qh 9c 8d 3s 4h 2c", 2: "Qd 9d 5s"},
        forced_pass={2: "Qd 9d 5s"}, betting=False, records=True, progress=False,
    )  # fmt: skip
    assert np.all(s.missed == 0)
    assert s.mean_share[0] > s.mean_share[1]
    assert s.category_counts[0, 6] == 600  # the full house every time
    rec = s.records
    passed = rec[["passed_0", "passed_1", "passed_2"]].to_numpy()
    hero = np.sort(passed[rec["seat"] == 0], axis=1)
    assert set(map(tuple, hero.tolist())) == {tuple(sorted(parse_cards("3s 4h 2c")))}
    assert set(map(tuple, passed[rec["seat"] == 2].tolist())) == {tuple(parse_cards("Qd 9d 5s"))}
    hero_shows = rec.loc[rec["seat"] == 0].groupby("choice")["category"]
    assert hero_shows.unique().map(list).tolist() == [["full_house"], ["trips"]]


def test_missed_choices_are_counted() -> None:
    # without fixing the hero's cards, most deals do not hold the pass choice
    s = score_choices(3, "sensible", hero=0, kind="pass", choices=[PASSES[0]], deals=200,
                      seed=1, progress=False)  # fmt: skip
    assert 150 < s.missed[0] <= 200


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"kind": "fold"}, ValueError, "kind='fold' is not one of"),
        ({"hero": 3}, ValueError, "hero=3 is too large: seats are 0..2"),
        ({"choices": []}, ValueError, "choices is empty"),
        ({"choices": "As Ad Kc"}, TypeError, "list of card rows"),
        ({"choices": ["As Ad"]}, CardError, "pass choice 0 'As Ad' has 2 cards; it needs 3"),
        ({"choices": ["As Ad Qc"]}, CardError, "Qc, not in the hero's fixed hand"),
        ({"kind": "discard", "choices": ["As Ad Kc 7h 5d"]}, CardError, "it needs 7"),
        ({"rules": Rules.bicycle(3), "kind": "order", "choices": ["As Ad Kc 7h 5d"]},
         ValueError, "needs rules with a discard"),
        ({"rules": Rules(players=3, passes=())}, ValueError, "needs rules with a pass"),
        ({"forced_pass": {0: "2c 3c 4c"}}, ValueError, "cannot force the hero"),
    ],
)  # fmt: skip
def test_score_choices_bad_inputs(kwargs: dict, error: type, match: str) -> None:
    args = {
        "rules": 3, "strategies": "sensible", "hero": 0, "kind": "pass",
        "choices": [PASSES[0]], "deals": 10, "fixed": {0: HERO7}, "progress": False,
    }  # fmt: skip
    with pytest.raises(error, match=match):
        score_choices(**(args | kwargs))
