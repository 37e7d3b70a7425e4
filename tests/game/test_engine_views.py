"""What strategies see: the flat views, observations, and play_deal's protocol."""

from __future__ import annotations

import numpy as np
import pytest

from anaconda_sim import rng
from anaconda_sim.game.engine import Action, Game, Phase, deck_from_seed
from anaconda_sim.game.play import Bot, RandomPlayer, play_deal
from anaconda_sim.strategies import get_strategy, intent_to_action
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules


def test_pub_at_the_start() -> None:
    game = Game(Rules(players=4), dealer=2, seed=1)
    pub, own = game.seat_views(1)
    assert pub.dtype == np.int32 and pub.shape == (V.PUB_SIZE,)
    assert own.dtype == np.int32 and own.shape == (V.OWN_SIZE,)
    expected = {
        V.P_PLAYERS: 4, V.P_DEALER: 2, V.P_STAGE: 0, V.P_ROUND: 0, V.P_NROUNDS: 6,
        V.P_POT: 4, V.P_LEVEL: 0, V.P_MAX_LEVEL: 4, V.P_BET_SIZE: 1, V.P_TO_ACT: 3,
        V.P_OPENER: 3, V.P_ACTIVE: 4, V.P_PASS_COUNT: 0, V.P_REVEALED: 0,
        V.P_FIVE_CARD: 1, V.P_LOG_LEN: 0,
    }  # fmt: skip
    for offset, value in expected.items():
        assert pub[offset] == value, offset
    assert list(pub[V.P_FOLDED : V.P_FOLDED + 4]) == [0] * 4
    assert list(pub[V.P_IN_ROUND : V.P_IN_ROUND + 4]) == [0] * 4
    assert list(pub[V.P_INVESTED : V.P_INVESTED + 4]) == [1] * 4
    assert (pub[V.P_EXPOSED : V.P_EXPOSED + 28] == -1).all()
    assert own[V.O_SEAT] == 1 and own[V.O_NCARDS] == 7
    assert list(own[V.O_CARDS : V.O_CARDS + 7]) == game.hand(1)
    assert own[V.O_NPASSED] == 0 and own[V.O_NRECEIVED] == 0
    assert (own[V.O_DISCARDS : V.O_DISCARDS + 2] == -1).all()


def test_pub_betting_state_and_log() -> None:
    game = Game(Rules(players=3), dealer=0, seed=1)
    game.bet()  # seat 1
    game.raise_()  # seat 2
    pub, _ = game.seat_views(0)
    assert pub[V.P_LEVEL] == 2 and pub[V.P_TO_ACT] == 0 and pub[V.P_OPENER] == 1
    assert list(pub[V.P_IN_ROUND : V.P_IN_ROUND + 3]) == [0, 1, 2]
    assert list(pub[V.P_INVESTED : V.P_INVESTED + 3]) == [1, 2, 3]
    assert pub[V.P_POT] == 6 and pub[V.P_LOG_LEN] == 2
    assert pub[V.P_LOG] == (0 * 8 + 1) * 8 + V.A_BET
    assert pub[V.P_LOG + 1] == (0 * 8 + 2) * 8 + V.A_RAISE
    game.fold()  # seat 0
    game.call()  # seat 1
    assert game.phase is Phase.PASS
    pub, _ = game.seat_views(1)
    assert pub[V.P_FOLDED] == 1 and pub[V.P_ACTIVE] == 2
    assert pub[V.P_LOG + 3] == (0 * 8 + 1) * 8 + V.A_CALL


def test_pub_during_pass_is_common_and_ignores_commits() -> None:
    game = Game(Rules(players=3), dealer=0, seed=1)
    for _ in range(3):
        game.check()
    pubs = [game.seat_views(s)[0] for s in range(3)]
    for pub in pubs[1:]:
        assert (pub == pubs[0]).all()
    pub = pubs[0]
    assert pub[V.P_ROUND] == -1 and pub[V.P_TO_ACT] == -1 and pub[V.P_OPENER] == -1
    assert pub[V.P_STAGE] == 0 and pub[V.P_LEVEL] == 0
    assert (pub[V.P_PASS_COUNT], pub[V.P_PASS_DIR], pub[V.P_PASS_INDEX]) == (3, 1, 0)
    assert pub[V.P_LOG_LEN] == 3  # the betting log stays visible
    own_before = game.seat_views(1)[1]
    game.commit_pass(1, game.hand(1)[:3])
    pub_after, own_after = game.seat_views(1)
    assert (pub_after == pub).all() and (own_after == own_before).all()


def test_own_after_pass_discard_and_reveals() -> None:
    game = Game(Rules(players=2), dealer=0, seed=6)
    game.check()
    game.check()
    h0, h1 = game.hand(0), game.hand(1)
    game.commit_pass(0, [h0[5], h0[1], h0[3]])
    game.commit_pass(1, h1[:3])
    _, own = game.seat_views(0)
    assert list(own[V.O_CARDS : V.O_CARDS + 7]) == [h0[0], h0[2], h0[4], h0[6], *h1[:3]]
    assert list(own[V.O_PASSED : V.O_PASSED + 3]) == [h0[5], h0[1], h0[3]]
    assert list(own[V.O_RECEIVED : V.O_RECEIVED + 3]) == h1[:3]
    assert own[V.O_NPASSED] == 3 and own[V.O_NRECEIVED] == 3
    pub, _ = game.seat_views(0)
    assert pub[V.P_STAGE] == 1 and pub[V.P_ROUND] == 1 and pub[V.P_IN_ROUND] == 0
    game.check()
    game.check()
    assert game.phase is Phase.DISCARD
    pub, _ = game.seat_views(0)
    assert pub[V.P_ROUND] == -1 and pub[V.P_PASS_COUNT] == 0 and pub[V.P_STAGE] == 1
    hand = game.hand(0)
    game.commit_discard(0, hand[:2], hand[2:][::-1])
    game.commit_discard(1, game.hand(1)[:2])
    pub, own = game.seat_views(0)
    assert own[V.O_NCARDS] == 5
    assert list(own[V.O_CARDS : V.O_CARDS + 5]) == hand[2:][::-1]
    assert list(own[V.O_CARDS + 5 : V.O_CARDS + 7]) == [-1, -1]
    assert list(own[V.O_DISCARDS : V.O_DISCARDS + 2]) == hand[:2]
    assert pub[V.P_STAGE] == V.STAGE_REVEAL + 1 and pub[V.P_REVEALED] == 1
    assert pub[V.P_EXPOSED] == hand[-1] and pub[V.P_EXPOSED + 1] == -1
    assert pub[V.P_EXPOSED + 4] == game.hand(1)[0]
    assert pub[V.P_ROUND] == 2


def test_folded_seat_keeps_what_it_showed() -> None:
    game = Game(Rules(players=3), dealer=0, seed=6)
    while game.phase is not Phase.COMPLETE and game.revealed < 1:
        if game.phase is Phase.BETTING:
            game.check()
        elif game.phase is Phase.PASS:
            for s in game.waiting_for():
                game.commit_pass(s, game.hand(s)[:3])
        else:
            for s in game.waiting_for():
                game.commit_discard(s, game.hand(s)[:2])
    game.bet()  # the opener bets
    folder = game.to_act
    shown = game.exposed(folder)
    game.fold()
    game.call()
    assert game.folded[folder] and game.revealed == 2
    for seat in range(3):
        pub, _ = game.seat_views(seat)
        assert pub[V.P_EXPOSED + 4 * folder] == shown[0]
        assert pub[V.P_EXPOSED + 4 * folder + 1] == -1  # it reveals nothing more (R16)
        assert pub[V.P_REVEALED] == 2


def test_observation_holds_only_the_seats_information() -> None:
    game = Game(Rules(players=3), dealer=0, seed=2)
    obs = game.observation(1)
    assert obs.hand == tuple(game.hand(1)) and obs.legal_actions == (Action.CHECK, Action.BET)
    assert obs.is_my_turn and obs.to_call == 0
    other = game.observation(2)
    assert other.legal_actions == () and not other.is_my_turn
    names = set(type(obs).__dataclass_fields__)
    assert not names & {"deck", "hands", "other_hands"}
    for s in (0, 2):
        for card in game.hand(s):
            assert card not in obs.hand
    # simultaneous phases: a commit is not visible to the others
    for _ in range(3):
        game.check()
    game.commit_pass(0, game.hand(0)[:3])
    assert game.observation(0).committed and not game.observation(1).committed
    assert game.observation(1) == game.observation(1)


def test_deck_from_seed_is_the_simulator_shuffle() -> None:
    key = rng.root_key(11)
    out = np.empty(52, dtype=np.int64)
    rng.deal_cards(rng.new_state(key, 4, 0), np.uint64(0), 52, out)
    assert deck_from_seed(11, deal_index=4) == list(out)
    assert Game(Rules(players=7), seed=11, deal_index=4).deck == tuple(out)


def test_play_deal_follows_the_protocol_by_hand() -> None:
    """Re-implement the documented call protocol and compare event by event."""
    rules = Rules(players=4)
    names = ["sensible", "random", "call-down", "random-pass"]
    strategies = [get_strategy(n) for n in names]
    seed, dealer, deal_index = 21, 3, 5
    played = play_deal(rules, names, seed=seed, dealer=dealer, deal_index=deal_index)

    key = rng.root_key(seed)
    game = Game(rules, dealer=dealer, seed=seed, deal_index=deal_index)
    states = [rng.new_state(key, deal_index, 1 + s) for s in range(4)]
    while game.phase is not Phase.COMPLETE:
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        order = [s for s in order if not game.folded[s]]
        if game.phase is Phase.BETTING:
            s = game.to_act
            pub, own = game.seat_views(s)
            intent = strategies[s].decide_bet(pub, own, states[s])
            game.act(s, int(intent_to_action(pub, own, intent)))
        elif game.phase is Phase.PASS:
            views = {s: game.seat_views(s) for s in order}
            picks = {s: strategies[s].decide_pass(*views[s], states[s]) for s in order}
            for s in order:
                game.commit_pass(s, picks[s])
        else:
            views = {s: game.seat_views(s) for s in order}
            picks = {s: strategies[s].decide_discard(*views[s], states[s]) for s in order}
            for s in order:
                game.commit_discard(s, *picks[s])
    assert game.history.events == played.history.events


@pytest.mark.parametrize("rules", [Rules(players=5), Rules.bicycle(5)])
def test_bots_play_exactly_like_bare_strategies(rules: Rules) -> None:
    names = ["sensible", "random", "sensible", "call-down", "random"]
    for deal in range(5):
        bare = play_deal(rules, names, seed=3, deal_index=deal, dealer=deal % 5)
        bots = play_deal(rules, [Bot(n) for n in names], seed=3, deal_index=deal,
                         dealer=deal % 5)  # fmt: skip
        assert bare.history.events == bots.history.events


def test_python_players_and_errors_in_play_deal() -> None:
    game = play_deal(Rules(players=3), [RandomPlayer() for _ in range(3)], seed=4)
    assert game.is_over
    with pytest.raises(ValueError, match="2 strategies for 3 players"):
        play_deal(Rules(players=3), ["random", "random"], seed=1)
    with pytest.raises(TypeError, match="neither a strategy name"):
        play_deal(Rules(players=2), [object(), "random"], seed=1)
