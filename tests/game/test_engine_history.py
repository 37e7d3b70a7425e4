"""Hand histories: events in order, JSON round trip, replay, readable text."""

from __future__ import annotations

import json

import pytest

from anaconda_sim.game.engine import Game
from anaconda_sim.game.history import History, format_history
from anaconda_sim.game.play import play_deal
from anaconda_sim.game.replayer import replay
from anaconda_sim.table.rules import Rules


def test_events_in_order() -> None:
    game = play_deal(Rules(players=3), ["call-down"] * 3, seed=4)
    kinds = [e["type"] for e in game.history.events]
    assert kinds[:4] == ["deal", "ante", "ante", "ante"]
    assert kinds[4] == "round"
    assert kinds.count("pass_commit") == 3 and kinds.count("pass") == 1
    assert kinds.index("pass") > max(i for i, k in enumerate(kinds) if k == "pass_commit")
    assert kinds.count("discard_commit") == 3 and kinds.count("reveal") == 4
    assert kinds[-3:] == ["showdown", "award", "end"] or kinds[-1] == "end"
    deal = game.history.events[0]
    assert deal["dealer"] == 0 and deal["deck"] == list(game.deck)


@pytest.mark.parametrize("rules", [Rules(players=6), Rules.bicycle(4), Rules(players=2)])
def test_json_round_trip_and_replay(rules: Rules) -> None:
    names = ["sensible", "random"] * 3
    for deal in range(4):
        game = play_deal(rules, names[: rules.players], seed=8, deal_index=deal)
        text = game.history.to_json()
        json.loads(text)  # plain JSON
        history = History.from_json(text)
        assert history == game.history
        again = replay(history)
        assert again.result == game.result
        assert again.snapshot() == game.snapshot()


def test_replay_detects_an_edited_history() -> None:
    game = play_deal(Rules(players=3), ["call-down"] * 3, seed=4)
    data = json.loads(game.history.to_json())
    end = data["events"][-1]
    end["net"] = [0, 0, 0]
    with pytest.raises(ValueError, match="replay differs from the history at event"):
        replay(History.from_dict(data))


def test_format_history_shows_everything() -> None:
    game = play_deal(Rules(players=3), ["sensible", "call-down", "random"], seed=12)
    text = format_history(game.history)
    assert text == game.history.format()
    assert "Anaconda (pagat), 3 players, dealer seat 0" in text
    assert any(s in text for s in "♣♦♥♠")
    assert "-- Pass 1" in text and "-- Betting round 1" in text
    if not game.result.ended_early:
        assert "-- Reveal 4" in text and "-- Showdown" in text and "shows" in text
        for hand in game.result.hands:
            assert hand.description in text
    assert text.splitlines()[-1].startswith("Net: seat 0 ")


def test_history_of_a_bicycle_deal() -> None:
    game = play_deal(Rules.bicycle(3), ["call-down"] * 3, seed=2)
    text = game.history.format()
    assert "-- Pass 3" in text and "Discard" not in text and "Reveal" not in text
    assert all(len(h.cards) == 7 for h in game.result.hands)
    assert all(len(h.best_five) == 5 for h in game.result.hands)


def test_game_repr_and_history_moves() -> None:
    game = Game(Rules(players=2), seed=1)
    game.check()
    assert "phase=betting" in repr(game)
    assert game.history.moves() == [game.history.events[-1]]
