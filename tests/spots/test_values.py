"""Action values at a spot (anaconda_sim.spots.values) against the reference engine.

The kernel plays each posterior draw on from the spot; the twin replays the
same draw through the engine up to the spot, makes the same choice and lets
the engine's bots play on with the same streams (R7-R20). They must agree
chip for chip, at betting spots (R13-R16), at the pass (R7) and at the
discard (R8).
"""

from __future__ import annotations

import numpy as np
import pytest
from naive_spots import engine_net, two_player_values

from anaconda_sim.game import play_deal
from anaconda_sim.game.engine import Phase
from anaconda_sim.rng import root_key
from anaconda_sim.sim.spots import play_spot
from anaconda_sim.spots import action_values, spot_of
from anaconda_sim.spots.posterior import draw_posterior, field_strategies
from anaconda_sim.spots.state import spot_choices
from anaconda_sim.spots.values import MIN_ESS, _play_key, tied_ranks
from anaconda_sim.strategies import get_strategy
from anaconda_sim.table.rules import Rules


def _spot_at(players: int, strategy: str, phase: Phase, revealed: int = 0, seeds=range(100)):
    for seed in seeds:
        history = play_deal(Rules(players=players), [strategy] * players, seed=seed).history
        for number in range(1, len(history.moves()) + 1):
            spot = spot_of(history, move=number)
            if spot.phase is phase and spot.game.revealed >= revealed:
                return spot
    raise AssertionError("no such spot")  # pragma: no cover


@pytest.mark.parametrize(
    ("players", "strategy", "phase", "revealed", "decision"),
    [(3, "sensible", Phase.BETTING, 0, None), (4, "learned", Phase.BETTING, 2, None),
     (2, "random", Phase.BETTING, 3, None), (3, "sensible", Phase.PASS, 0, None),
     (4, "learned", Phase.DISCARD, 0, "discard"), (5, "sensible", Phase.BETTING, 4, None)],
)  # fmt: skip
def test_kernel_plays_on_as_the_engine(players, strategy, phase, revealed, decision):
    spot = _spot_at(players, strategy, phase, revealed)
    strategies = field_strategies(spot, strategy, None)
    key = root_key(7)
    post = draw_posterior(spot, strategies, 24, key, None)
    kind, choices, _ = spot_choices(spot, decision)
    rows = choices[:: max(1, len(choices) // 6)]
    net = play_spot(spot.rules, strategies, spot.arrays, kind, rows, post.draws, _play_key(key))
    for i in range(len(post.draws.weight)):
        for k, row in enumerate(rows):
            assert net[i, k] == engine_net(spot, post.draws, i, row, strategies, _play_key(key))


def test_order_choices_play_as_the_engine():
    spot = _spot_at(3, "sensible", Phase.DISCARD)
    strategies = field_strategies(spot, "sensible", None)
    held = spot.game.hand(spot.seat)
    kind, choices, _ = spot_choices(spot, "order", keep=held[:5])
    key = root_key(3)
    post = draw_posterior(spot, strategies, 12, key, None)
    rows = choices[::20]
    net = play_spot(spot.rules, strategies, spot.arrays, kind, rows, post.draws, _play_key(key))
    for i in range(12):
        for k, row in enumerate(rows):
            discard = [c for c in held if c not in row[:5]]
            full = np.array(discard + list(row[:5]))
            assert net[i, k] == engine_net(spot, post.draws, i, full, strategies, _play_key(key))


def test_the_table_is_a_model_stated_analysis():
    spot = _spot_at(3, "sensible", Phase.BETTING, 1)
    table = action_values(spot, "sensible", deals=600, seed=2)
    assert set(table["choice"]) == {a.label for a in spot.game.legal_actions(spot.seat)}
    assert table["rank"].iloc[0] == 1 and table["diff_vs_best"].iloc[0] == 0
    assert np.isclose(table["p_best"].sum(), 1.0)
    assert (table["se"] >= 0).all() and (table["ess"] > 0).all()
    fold = table[table["choice"] == "fold"]
    if len(fold):  # folding loses exactly what is in the pot already, with no noise
        assert float(fold["value"].iloc[0]) == -spot.game.invested[spot.seat]
        assert float(fold["se"].iloc[0]) == 0
    attrs = table.attrs
    assert attrs["analysis"] == "action_values" and attrs["model"] == "betting"
    assert attrs["hero"].startswith("sensible") and len(attrs["opponents"]) == 2
    assert attrs["draws"] == 600 and attrs["method"] == "walk" and attrs["ess"] > 0
    again = action_values(spot, "sensible", deals=600, seed=2)
    assert table.equals(again)


def test_choices_at_a_discard_and_their_errors():
    spot = _spot_at(3, "sensible", Phase.DISCARD)
    _, choices, labels = spot_choices(spot, None)
    assert len(choices) == 21 and len(set(labels)) == 21
    with pytest.raises(ValueError, match="decision='order' needs keep="):
        spot_choices(spot, "order")
    other = [c for c in range(52) if c not in spot.game.hand(spot.seat)][:5]
    with pytest.raises(ValueError, match="does not hold"):
        spot_choices(spot, "order", keep=other)
    with pytest.raises(ValueError, match="the spot is a pass"):
        spot_choices(_spot_at(3, "sensible", Phase.PASS), "discard")


def test_action_values_reads_a_history_file_by_its_path(tmp_path) -> None:
    """A saved history's path is read (and verified) as the history itself."""
    game = play_deal(Rules(players=3), ["call-down"] * 3, seed=4)
    path = tmp_path / "deal.json"
    game.history.save(path)
    spot = spot_of(str(path), move=2)
    assert (spot.seat, spot.phase) == (spot_of(game.history, move=2).seat,
                                       spot_of(game.history, move=2).phase)  # fmt: skip
    from_path = action_values(path, "call-down", move=2, deals=200, seed=1)
    from_history = action_values(game.history, "call-down", move=2, deals=200, seed=1)
    assert from_path.equals(from_history)
    with pytest.raises(FileNotFoundError):
        spot_of(tmp_path / "missing.json", move=2)
    with pytest.raises(TypeError, match="must be a Game, a History, a history file's path"):
        spot_of(3, move=2)  # type: ignore[arg-type]


def test_tied_ranks_order_only_what_the_errors_tell_apart():
    # a and b within 1.96 SEs of their difference share rank 1; c is worse
    # than both; d and e are equal on every draw (no variance, no gap): one
    # rank; f is a constant one chip below them: its own rank
    mean = np.array([1.00, 0.90, 0.00, -2.0, -2.0, -3.0])
    cov = np.diag([0.01, 0.01, 0.01, 0.0, 0.0, 0.0])
    assert tied_ranks(mean, cov).tolist() == [1, 1, 3, 4, 4, 6]
    # a strong positive correlation makes the same gap tell: the paired SE is small
    cov2 = np.array([[0.01, 0.0099], [0.0099, 0.01]])
    assert tied_ranks(np.array([1.0, 0.9]), cov2).tolist() == [1, 2]


def test_an_all_equal_spot_and_a_small_sample_are_said():
    history = play_deal(Rules(players=3), ["call-down"] * 3, seed=2).history
    # call-down rivals keep their best five and call down (R13-R15): here the
    # seat loses its ante whatever it discards, on every drawn deal
    table = action_values(history, "call-down", move=12, deals=300, seed=3)
    a = table.attrs
    assert a["all_equal"] and (table["rank"] == 1).all() and (table["value"] == -1).all()
    assert a["summary"] == ("every one of the 21 choices is worth -1.000 chips on every drawn "
                            "deal: the choice changes nothing here")  # fmt: skip
    assert a["ess"] < MIN_ESS and f"effective sample size {a['ess']:,.0f} is low" in a[
        "ess_warning"]  # fmt: skip
    # random rivals: every deal weighs the same, the sample is large enough,
    # and the discards are not all worth the same
    other = action_values(history, "random", move=12, deals=300, seed=3)
    assert not other.attrs["all_equal"] and other.attrs["ess"] >= MIN_ESS
    assert other.attrs["ess_warning"] is None
    assert other["rank"].is_monotonic_increasing  # best first, ties by value
    for _, rows in other.groupby("rank"):
        assert rows["value"].is_monotonic_decreasing


def test_a_betting_spot_ranks_a_constant_fold_apart_from_what_is_tied():
    spot = _spot_at(3, "sensible", Phase.BETTING, 1)
    table = action_values(spot, "sensible", deals=600, seed=2).set_index("choice")
    assert table["rank"].min() == 1
    tied = table[table["tied_with_best"]]
    best = table["value"].idxmax()
    assert table.loc[best, "rank"] == 1 and best in tied.index
    # a row's rank counts the rows better than it by more than 1.96 SEs: a row
    # no better than the best by its own paired SE is never ranked above it
    assert (table.loc[~table["tied_with_best"], "rank"] > 1).all()


def _last_round_spot(players: int = 2):
    """The first spot of seeds 0.. where a seat faces a bet in the last
    betting round (after the fourth reveal, R11), "sensible" bots."""
    for seed in range(200):
        history = play_deal(Rules(players=players), ["sensible"] * players, seed=seed).history
        for number in range(1, len(history.moves()) + 1):
            spot = spot_of(history, move=number)
            g = spot.game
            if spot.phase is Phase.BETTING and g.revealed == 4 and g.to_call(spot.seat) > 0:
                return spot
    raise AssertionError("no such spot")  # pragma: no cover


@pytest.mark.slow
def test_standard_errors_match_the_spread_of_independent_repeats():
    # heads-up, last betting round (R11, R13-R16): folding loses what is in
    # the pot, a constant; calling and raising depend on the rival's hidden
    # cards. 64 independent tables (seeds) of 500 deals each, by the walk
    # (SEs from the spread between its chains) and by importance sampling
    # (the delta method); measured: variance ratios 1.03 and 1.005, and
    # means 6.16 and 5.87 for calling (exact 6.0), 7.19 and 6.85 for raising (7.0)
    spot = _last_round_spot()
    # the exact values, by enumerating the rival's posterior and playing
    # each deal on in the engine
    exact = two_player_values(spot, get_strategy("sensible"), root_key(0))
    assert exact["fold"] == -spot.game.invested[spot.seat]
    repeats = 64
    for method in ("walk", "importance"):
        tables = [action_values(spot, "sensible", deals=500, seed=s, method=method)
                  .set_index("choice") for s in range(repeats)]  # fmt: skip
        _check_repeats(tables, repeats, exact)


def _check_repeats(tables: list, repeats: int, exact: dict[str, float]) -> None:
    for t in tables:
        best = t["value"].idxmax()
        # a difference from a constant has exactly the other choice's SE
        assert float(t.loc["fold", "se"]) == 0.0
        assert np.isclose(t.loc["fold", "diff_se"], t.loc[best, "se"], rtol=1e-12, atol=0)
    for choice in ("call", "raise"):
        values = np.array([t.loc[choice, "value"] for t in tables])
        reported = np.array([t.loc[choice, "se"] for t in tables])
        assert (reported > 0).all()
        # if the reported SEs are right, (R - 1) * spread^2 / se^2 is about
        # chi-square with R - 1 degrees of freedom: inside its 0.1% and
        # 99.9% quantiles (33.9 and 103.5 for 63, Wilson-Hilferty), i.e. a
        # ratio of 0.54..1.64 (SEs 1.55 times too wide, a ratio of 0.42, fail)
        ratio = values.var(ddof=1) / np.mean(reported**2)
        assert 33.9 / (repeats - 1) < ratio < 103.5 / (repeats - 1), (choice, ratio)
        # and unbiased: the mean of the repeats within 4 of its SEs of the exact value
        assert abs(values.mean() - exact[choice]) <= 4 * np.sqrt(np.mean(reported**2) / repeats)
