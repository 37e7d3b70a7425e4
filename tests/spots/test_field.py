"""A history carries its model: the rules, every seat's strategy with its
parameters and the seed, written by ``play_deal``, a session and the
terminal game; a spot of it is valued under the recorded strategies unless
others are given, and says which it used.

Rules cited: R4-R6 (a session's seats and button: the recorded strategies
are those of the seats dealt in), R7-R16 (the moves a spot's posterior
weighs under the field's strategies).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from anaconda_sim.cli.app import main
from anaconda_sim.game import Game, History, play_deal
from anaconda_sim.game.play import Bot
from anaconda_sim.game.replayer import load_history, verify
from anaconda_sim.game.session import Session
from anaconda_sim.rng import root_key
from anaconda_sim.spots import action_values, rival_posterior, spot_of
from anaconda_sim.spots.field import ASSUMED, resolve_field
from anaconda_sim.strategies import get_strategy
from anaconda_sim.table.rules import Rules

#: a 4-player deal of "sensible" bots saved by the library before histories
#: recorded who played (format 1): it must still load, and a spot of it
#: says which strategies it assumes
FORMAT_1 = Path(__file__).parent / "data" / "format1-sensible-4.json"
DEALS = 300


def run(argv: list[object]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _first_rival_bet(history: History) -> int:
    """The first move made after some other seat has acted (a spot with evidence)."""
    moves = history.moves()
    return next(k for k in range(2, len(moves) + 1) if moves[k - 1]["type"] == "action")


# --------------------------------------------------------- what is recorded --


def test_a_played_deal_records_every_strategy_exactly_and_its_seed(tmp_path: Path) -> None:
    odd = get_strategy("sensible", bluff=0.123456789, continue_late=3)
    game = play_deal(Rules(players=3), [odd, "random", Bot("call-down")], seed=7, deal_index=2)
    history = game.history
    assert history.seed == 7 and history.key == int(root_key(7)) and history.deal_index == 2
    assert history.strategies is not None and len(history.strategies) == 3
    # every parameter at full precision: the spec reads back the same strategy
    assert get_strategy(history.strategies[0]) == odd
    assert history.strategies[1:] == ("random", "call-down")
    # the file keeps it, and the record plays the same deal again
    path = tmp_path / "deal.json"
    history.save(path)
    loaded = load_history(path)
    assert loaded == history and json.loads(path.read_text())["format"] == 2
    again = play_deal(loaded.rules, list(loaded.strategies or ()), seed=loaded.seed,
                      deal_index=loaded.deal_index)  # fmt: skip
    assert again.history.events == history.events
    assert "Played by: seat 0 sensible:continue_late=3,bluff=0.123457" in history.format()


def test_a_session_records_the_seats_dealt_in_and_its_seed() -> None:
    # R4: seat 1 sits out below the reserve; the deal's table is seats 0 and 2
    session = Session(Rules(players=3), ["sensible", "random", "call-down"],
                      stacks=[100, 10, 100], seed=5)  # fmt: skip
    record = session.play_deal()
    history = record.history
    assert record.seats == (0, 2)
    assert history.strategies == (get_strategy("sensible").spec(), "call-down")
    assert history.seed == 5 and history.key == int(session.key)
    again = play_deal(history.rules, list(history.strategies), seed=5,
                      deal_index=history.deal_index, dealer=history.dealer)  # fmt: skip
    assert again.history.events == history.events


def test_a_game_moved_by_hand_records_its_seed_but_not_who_played() -> None:
    game = Game(Rules(players=3), seed=4)
    game.bet()
    assert game.history.strategies is None and game.history.seed == 4
    assert History.from_json(game.history.to_json()) == game.history


def test_a_history_of_the_old_format_loads_without_a_model() -> None:
    assert json.loads(FORMAT_1.read_text())["format"] == 1
    history = load_history(FORMAT_1)  # read and replayed move by move
    assert (history.strategies, history.seed, history.key) == (None, None, None)
    assert spot_of(history, move=5).recorded is None
    assert verify(History.from_json(history.to_json())).strategies is None


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [("strategies", ["sensible"], "'strategies' has 1 entries; it must have 3"),
     ("strategies", ["sensible", 3, "random"], r"'strategies'\[1\] must be a string"),
     ("seed", -1, "'seed' is -1; it must be 0 or more"),
     ("key", "x", "'key' must be an integer")],
)  # fmt: skip
def test_a_bad_model_in_a_file_is_named(key: str, value: object, message: str) -> None:
    data = play_deal(Rules(players=3), ["random"] * 3, seed=1).history.to_dict()
    data[key] = value
    with pytest.raises(ValueError, match=message):
        History.from_dict(data)


# ---------------------------------------------------------- spots use it --


@pytest.fixture(scope="module")
def sensible_deal() -> History:
    return play_deal(Rules(players=3), ["sensible"] * 3, seed=3).history


def test_a_spot_uses_the_recorded_strategies_unless_others_are_given(sensible_deal) -> None:
    move = _first_rival_bet(sensible_deal)
    recorded = action_values(sensible_deal, move=move, deals=DEALS, seed=1)
    a = recorded.attrs
    assert a["field"] == "recorded" and a["field_is_recorded"] is True
    assert a["recorded_strategies"] == list(sensible_deal.strategies or ())
    assert a["opponents"] == [get_strategy("sensible").spec()] * 2
    # the same numbers as naming the recorded strategy
    named = action_values(sensible_deal, "sensible", move=move, deals=DEALS, seed=1)
    assert named["value"].tolist() == recorded["value"].tolist()
    assert named.attrs["field"] == "given" and named.attrs["field_is_recorded"] is True
    other = action_values(sensible_deal, "random", move=move, deals=DEALS, seed=1)
    assert other.attrs["field"] == "given" and other.attrs["field_is_recorded"] is False
    post = rival_posterior(sensible_deal, move=move, draws=50, seed=1).frame()
    assert post.attrs["field"] == "recorded" and post.attrs["field_is_recorded"] is True


def test_a_spot_of_an_old_history_says_the_field_is_assumed() -> None:
    table = action_values(str(FORMAT_1), move=5, deals=DEALS, seed=2)
    assert table.attrs["field"] == "assumed" and table.attrs["field_is_recorded"] is None
    assert table.attrs["recorded_strategies"] is None
    assumed = action_values(str(FORMAT_1), ASSUMED, move=5, deals=DEALS, seed=2)
    assert assumed["value"].tolist() == table["value"].tolist()
    code, out, err = run(["spot", FORMAT_1, "--move", "5", "--deals", DEALS, "--seed", "2"])
    assert code == 0 and err == "", err
    assert (
        "opponents: learned (assumed: the history does not record who played; give "
        "--opponents to choose)"
    ) in out.splitlines()


def test_a_rival_the_library_cannot_rebuild_needs_opponents() -> None:
    # a person played seat 0 (recorded as "human"): its moves have no likelihood
    history = play_deal(Rules(players=3), ["sensible"] * 3, seed=3).history
    history.strategies = ("human", *(history.strategies or ())[1:])
    moves = history.moves()
    after = next(k for k in range(2, len(moves) + 1) if moves[k - 1]["seat"] != 0
                 and any(m["seat"] == 0 for m in moves[: k - 1]))  # fmt: skip
    with pytest.raises(ValueError, match=r"seat 0 was played by 'human'.*give opponents="):
        resolve_field(spot_of(history, move=after), None, None)
    assert resolve_field(spot_of(history, move=after), "sensible", None).source == "given"
    # at the person's own decisions the rivals are bots: it plays on as the next seat
    mine = next(spot_of(history, move=k) for k in range(1, len(history.moves()) + 1)
                if spot_of(history, move=k).seat == 0)  # fmt: skip
    field = resolve_field(mine, None, None)
    assert field.source == "recorded" and field.strategies[0] == get_strategy("sensible")


def test_the_shell_says_which_field_it_used(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    assert run(["play", "--players", "3", "--seed", "3", "--save", path])[0] == 0
    move = _first_rival_bet(History.load(path))
    argv = ["spot", path, "--move", move, "--deals", DEALS, "--seed", "1"]
    code, out, err = run(argv)
    assert code == 0 and err == "", err
    assert "opponents: sensible (recorded in the history)" in out.splitlines()
    code, out, err = run([*argv, "--opponents", "random"])
    assert code == 0 and err == "", err
    assert "opponents: random (given by --opponents; the history records sensible)" in out
    code, out, _ = run([*argv, "--opponents", "sensible"])
    assert "opponents: sensible (given by --opponents, the ones the history records)" in out
    # a copy saved before the model was recorded is valued under the assumed field
    old = json.loads(path.read_text())
    for key in ("strategies", "seed", "key"):
        del old[key]
    old["format"] = 1
    (tmp_path / "old.json").write_text(json.dumps(old))
    code, out, _ = run(["spot", tmp_path / "old.json", "--move", move, "--deals", DEALS,
                        "--seed", "1"])  # fmt: skip
    assert code == 0 and "opponents: learned (assumed: the history does not record" in out
