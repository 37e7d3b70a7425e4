"""The rivals' posterior at a spot (anaconda_sim.spots.posterior) against
brute force, the reference engine and a planted strategy.

Rules cited: R7 (the pass: the right neighbour's packet, the hero's packet
in the left neighbour's hand), R8 (discard and reveal order), R9/R11 (the
reveals), R13-R16 (the betting actions a rival's cards must explain).
"""

from __future__ import annotations

from collections import Counter

import numba
import numpy as np
import pytest
from naive_spots import deal_of_draw, two_player_posterior

from anaconda_sim.game import Game, History, play_deal
from anaconda_sim.game.engine import Action, Phase, deck_for_hands
from anaconda_sim.hands import category, evaluate
from anaconda_sim.rng import root_key
from anaconda_sim.sim.spots import REACHED_DISCARD, Draws, sample_rivals, walk_rivals
from anaconda_sim.spots import ImpossibleSpotError, rival_posterior, spot_of
from anaconda_sim.spots.posterior import batch_mean_cov, draw_posterior, field_strategies
from anaconda_sim.strategies import Strategy, get_strategy
from anaconda_sim.strategies.common import hand_category, intent_to_action
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules


def _moves(history: History) -> list[dict]:
    return history.moves()


def _find_spot(players: int, strategy: str, want, seeds=range(200)):
    """The first (history, move) of deals played by ``strategy`` whose move
    satisfies ``want(game_before_move, event)``."""
    for seed in seeds:
        done = play_deal(Rules(players=players), [strategy] * players, seed=seed)
        history = done.history
        for number, event in enumerate(_moves(history), start=1):
            spot = spot_of(history, move=number)
            if want(spot, event):
                return history, number
    raise AssertionError("no such spot in the seeds tried")  # pragma: no cover


@pytest.mark.parametrize("method", ["importance", "walk"])
def test_two_player_posterior_matches_enumeration(method):
    # heads-up after the first reveals: the rival's own four are few enough
    # to enumerate, and its bets and reveal order narrow them down (R8, R9)
    def want(spot, event):
        g = spot.game
        rival = 1 - spot.seat
        shown = [c for c in g.exposed(rival) if c not in set(spot.arrays.hero_pass.tolist())]
        bets = [d for d in spot.decisions if d.kind == V.D_BET and d.action in (3, 4)]
        return g.phase is Phase.BETTING and 2 <= len(shown) and g.revealed >= 2 and bets

    history, move = _find_spot(2, "sensible", want)
    spot = spot_of(history, move=move)
    exact = two_player_posterior(spot, get_strategy("sensible"))
    assert 3 <= len(exact) < 2000  # a posterior worth testing: neither a point nor everything
    post = rival_posterior(history, "sensible", move=move, draws=4000, seed=11, method=method)
    rival = 1 - spot.seat
    received = post.draws.received[:, rival]
    fours = [
        tuple(sorted(int(c) for c in cards if c not in set(recv.tolist())))
        for cards, recv in zip(post.draws.cards[:, rival], received, strict=True)
    ]
    # every draw is a four the brute force finds consistent: no impossible deal
    assert set(fours) <= set(exact)
    # and the draws' shares match the exact posterior, within 5 standard
    # errors (importance weights, or the spread between the walk's chains)
    hits = np.array([[f == four for four in exact] for f in fours], dtype=float)
    share, cov = batch_mean_cov(hits, post.draws.weight, post.batch)
    p = np.array(list(exact.values()))
    se = np.sqrt(np.maximum(np.diag(cov), p * (1 - p) / len(fours)))
    assert np.all(np.abs(share - p) <= 5 * se), np.c_[share, p, se]


def _passes_in_some_order(strategy, pub, own, packet, state, orders: int = 200) -> bool:
    """Does ``strategy`` pass ``packet`` from the dealt seven in ``own`` in
    some order of the seven? A draw fixes a rival's cards, not the order it
    was dealt them in (R5: uniformly random), and "learned" breaks ties
    between passes by hand position: the order it held is one of those that
    pass the packet (tried: the order given, then ``orders`` random ones)."""
    rng = np.random.default_rng(0)
    seven = own[V.O_CARDS : V.O_CARDS + 7].copy()
    for k in range(orders + 1):
        shuffled = own.copy()
        shuffled[V.O_CARDS : V.O_CARDS + 7] = seven if k == 0 else rng.permutation(seven)
        chosen = sorted(int(c) for c in strategy.decide_pass(pub, shuffled, state))
        if chosen == sorted(packet):
            return True
    return False


#: the board-reading field without its bluffs: the replay checks replay each draw
#: with one fixed random stream, so they hold for a strategy whose decisions follow
#: from the cards (a bluffing rival's move is possible, not certain); "learned-v2",
#: whose reveal order is its order weights' (the default "learned" draws its order
#: at a temperature, so its recorded order is possible, not certain)
LEARNED_NO_BLUFF = "learned-v2:bluff_hidden=0,bluff_weak=0,bluff_draw=0,bluff_strong=0"


def _replays(spot, draws, i, strategies) -> bool:
    """Draw ``i`` as a deal: do the strategies' bots, replaying the deal up to
    the spot, take every rival move the history records?"""
    hands, packets, discards = deal_of_draw(spot, draws, i)
    history = spot.game.history
    game = Game(spot.rules, history.dealer, deck=deck_for_hands(hands, history.dealer))
    state = np.zeros(1, dtype=np.uint64)
    for event in _moves(history)[: spot.move - 1]:
        s = event["seat"]
        kind = event["type"]
        if s != spot.seat and kind == "action":
            pub, own = game.seat_views(s)
            intent = strategies[s].decide_bet(pub, own, state)
            if int(intent_to_action(pub, own, intent)) != int(Action.parse(event["action"])):
                return False
        if kind == "action":
            game.act(s, event["action"])
        elif kind == "pass_commit":
            if s != spot.seat and s in packets:
                pub, own = game.seat_views(s)
                if not _passes_in_some_order(strategies[s], pub, own, packets[s], state):
                    return False
            if s == spot.seat or s in packets:
                game.commit_pass(s, event["cards"] if s == spot.seat else packets[s])
        elif s == spot.seat:
            game.commit_discard(s, event["discard"], event["order"])
        elif s in discards:
            pub, own = game.seat_views(s)
            _, order = strategies[s].decide_discard(pub, own, state)
            if [int(c) for c in order] != discards[s][1]:
                return False
            game.commit_discard(s, *discards[s])
    for s in range(spot.players):
        if s != spot.seat and game.exposed(s) != spot.game.exposed(s):
            return False
    return True


@pytest.mark.parametrize(
    ("players", "strategy", "phase", "min_reveals"),
    [(4, "sensible", Phase.BETTING, 2), (3, "learned-v1", Phase.BETTING, 1),
     (5, "sensible", Phase.DISCARD, 0), (6, "learned-v1", Phase.BETTING, 3),
     (6, LEARNED_NO_BLUFF, Phase.BETTING, 3)],
)  # fmt: skip
def test_every_draw_replays_the_history_in_the_engine(players, strategy, phase, min_reveals):
    # the whole pass chain (R7): each rival's dealt seven, made of its own
    # four and the packet it passed, must make its strategy pass that packet,
    # discard and reveal what it showed (R8, R9) and bet as it bet
    def want(spot, event):
        g = spot.game
        return g.phase is phase and g.revealed >= min_reveals and len(spot.decisions) >= players

    history, move = _find_spot(players, strategy, want)
    post = rival_posterior(history, strategy, move=move, draws=64, seed=3)
    spot = post.spot
    strategies = field_strategies(spot, strategy, None)
    assert all(_replays(spot, post.draws, i, strategies) for i in range(64))
    # the walk moves: its draws are not all the starting ones
    assert len({post.draws.cards[i].tobytes() for i in range(64)}) > 8


def _trips_bet(pub, own, params, rng):
    """Bets or raises with trips or better in hand, else checks or calls."""
    if hand_category(own) >= 3:
        return V.INTENT_AGGRESSIVE
    return V.INTENT_PASSIVE


TRIPS = Strategy.custom("trips-bettor", bet=numba.njit(_trips_bet))


def _first_round_spot(rival_cards: str, hero_cards: str):
    """Heads-up, dealer 0: seat 1 acts first (R13) holding ``rival_cards``
    and playing the planted strategy; the spot is seat 0's reply."""
    deck = deck_for_hands([hero_cards, rival_cards], dealer=0)
    game = Game(Rules(players=2), dealer=0, deck=deck)
    pub, own = game.seat_views(1)
    intent = TRIPS.decide_bet(pub, own, np.zeros(1, dtype=np.uint64))
    game.act(1, Action(int(intent_to_action(pub, own, intent))))
    return game


def test_a_planted_trips_bettor_bets_only_with_trips():
    # it bets with its trips: every posterior hand of the bettor holds trips
    game = _first_round_spot("9s 9h 9d 2c 5h Jc Kd", "As Ad 4c 7h 8s Qd 3c")
    assert game.level == 1
    post = rival_posterior(game, [TRIPS, TRIPS], draws=2000, seed=5)
    cats = category(evaluate(post.draws.cards[:, 1]))
    assert min(cats) >= 3
    assert post.ess > 100
    # it checks without them: no posterior hand holds trips or better
    game = _first_round_spot("9s 8h 2d 2c 5h Jc Kd", "As Ad 4c 7h 8s Qd 3c")
    assert game.level == 0
    post = rival_posterior(game, [TRIPS, TRIPS], draws=2000, seed=5)
    cats = category(evaluate(post.draws.cards[:, 1]))
    assert max(cats) <= 2
    # without the planted strategy the same check leaves trips possible
    post = rival_posterior(game, "call-down", draws=2000, seed=5)
    cats = category(evaluate(post.draws.cards[:, 1]))
    assert Counter(c >= 3 for c in cats)[True] > 20


def test_an_impossible_action_is_named():
    # call-down never bets (R13-R15): a recorded bet has probability zero
    game = Game(Rules(players=3), seed=4)
    game.bet()
    with pytest.raises(ImpossibleSpotError, match=r"seat 1's bet in betting round 1 \(move 1\) "
                                                  r"is impossible.*call-down"):  # fmt: skip
        rival_posterior(game, "call-down", draws=20, seed=1)


def test_same_seed_same_draws_on_any_thread_count():
    history, move = _find_spot(4, "sensible", lambda s, e: s.game.revealed >= 1)
    spot = spot_of(history, move=move)
    strategies = field_strategies(spot, "sensible", None)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = draw_posterior(spot, strategies, 300, root_key(9), None)
        numba.set_num_threads(before)
        many = draw_posterior(spot, strategies, 300, root_key(9), None)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.draws.cards, many.draws.cards)
    assert np.array_equal(one.draws.weight, many.draws.weight)
    assert one.attempts == many.attempts


def test_bad_spots_get_clear_errors():
    history = play_deal(Rules(players=3), ["sensible"] * 3, seed=1).history
    n = len(history.moves())
    with pytest.raises(ValueError, match=rf"move=0 is not a move of this history; its moves "
                                         rf"are 1..{n}"):  # fmt: skip
        spot_of(history, move=0)
    with pytest.raises(ValueError, match="give move=N"):
        spot_of(history)
    game = Game(Rules(players=3), seed=4)
    with pytest.raises(ValueError, match="seat 0 cannot decide now: it is seat 1's turn"):
        spot_of(game, seat=0)
    with pytest.raises(ValueError, match="spots support the high-only rules"):
        spot_of(Game(Rules.hilo(3), seed=1))
    with pytest.raises(ValueError, match="draws=0 is too small"):
        rival_posterior(game, "sensible", draws=0)


def test_a_walk_from_arbitrary_cards_finds_the_posterior():
    # when no importance draw can be found, each chain starts from arbitrary
    # hidden cards and searches for consistent ones; from then on the walk is
    # the exact one, and its draws match the exact posterior
    def want(spot, event):
        g = spot.game
        bets = [d for d in spot.decisions if d.kind == V.D_BET and d.action in (3, 4)]
        return g.phase is Phase.BETTING and g.revealed >= 2 and bets

    history, move = _find_spot(2, "sensible", want)
    spot = spot_of(history, move=move)
    exact = two_player_posterior(spot, get_strategy("sensible"))
    strategies = field_strategies(spot, "sensible", None)
    starts = sample_rivals(spot.rules, strategies, spot.arrays, root_key(3), 16,
                           np.ones(1, dtype=np.int64), fallback=True)  # fmt: skip
    drawn, moves = walk_rivals(spot.rules, strategies, spot.arrays, root_key(4), starts, 250,
                               40, 2, 20_000)  # fmt: skip
    assert (moves > 0).all()
    rival = 1 - spot.seat
    fours = [
        tuple(sorted(int(c) for c in cards if c not in set(recv.tolist())))
        for cards, recv in zip(drawn.cards[:, rival], drawn.received[:, rival], strict=True)
    ]
    assert set(fours) <= set(exact)
    hits = np.array([[f == four for four in exact] for f in fours], dtype=float)
    share, cov = batch_mean_cov(hits, drawn.weight, np.repeat(np.arange(16), 250))
    p = np.array(list(exact.values()))
    se = np.sqrt(np.maximum(np.diag(cov), p * (1 - p) / len(fours)))
    assert np.all(np.abs(share - p) <= 5 * se), np.c_[share, p, se]


def _late_spots(players: int, count: int, strategy: str = "sensible") -> list[tuple[History, int]]:
    """``count`` spots of deals the engine's ``strategy`` bots played at
    ``players`` seats, seeds ``1000 * players, ...`` in turn: up to six
    moves of the second half of each deal (the most evidence), drawn with
    the deal's seed."""
    found: list[tuple[History, int]] = []
    seed = 1000 * players
    while len(found) < count:
        history = play_deal(Rules(players=players), [strategy] * players, seed=seed).history
        seed += 1
        n = len(history.moves())
        if n < 4:
            continue
        picks = np.random.default_rng(seed).integers(n // 2, n + 1, size=6)
        found += [(history, int(m)) for m in sorted(set(picks.tolist()))][: count - len(found)]
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("strategy", "per_table"),
                         [("sensible", 36), ("learned-v1", 18), (LEARNED_NO_BLUFF, 18)])
def test_a_spot_that_happened_is_never_declared_impossible(strategy, per_table):
    # 216 spots of deals the engine's "sensible" bots played at 2-7 players,
    # and 108 of "learned" ones (R7-R16: every pass, discard, reveal order
    # and bet a rival made is one its strategy makes). Small samples and few
    # candidates per rival on purpose: the importance draws that start the
    # walk then often find nothing and the chains must search, the part that
    # used to give up (20 of the 216 "sensible" spots were declared
    # impossible when one chain's local search was stuck). Every spot is
    # answered, and its draws replay the deal in the engine.
    spots = [spot for players in range(2, 8) for spot in _late_spots(players, per_table,
                                                                      strategy)]  # fmt: skip
    assert len(spots) == 6 * per_table
    for history, move in spots:
        post = rival_posterior(history, strategy, move=move, draws=4, seed=move, chains=2,
                               tries=32)  # fmt: skip
        strategies = field_strategies(post.spot, strategy, None)
        assert _replays(post.spot, post.draws, 0, strategies), (history.seed, move)


def test_a_stuck_chain_starts_where_another_found_consistent_cards():
    # a 6-player deal of "sensible" bots at seat 5 facing a bet in betting
    # round 3 whose walk needs the search (importance draws find no seat 3
    # reproducing its pass, R7): a chain whose search is stuck takes another
    # chain's consistent state, so the spot is answered
    history = play_deal(Rules(players=6), ["sensible"] * 6, seed=103).history
    move = next(k for k in range(1, len(history.moves()) + 1)
                if (s := spot_of(history, move=k)).seat == 5 and s.phase is Phase.BETTING
                and s.game.betting_round == 2 and s.game.to_call(5) > 0)  # fmt: skip
    spot = spot_of(history, move=move)
    strategies = field_strategies(spot, "sensible", None)
    key = root_key(1)  # one of the keys under which a chain's search is stuck
    with pytest.raises(ImpossibleSpotError):  # strong evidence: importance draws find none
        draw_posterior(spot, strategies, 8, key, 32, "importance")
    post = draw_posterior(spot, strategies, 64, key, 32, "walk", 8)
    assert len(post.draws.weight) == 64 and len(set(post.batch.tolist())) == 8
    assert all(_replays(spot, post.draws, i, strategies) for i in range(0, 64, 8))


def _true_draw(spot) -> Draws:
    """The deal's true hidden cards at ``spot``, laid out as a draw."""
    a, game, n = spot.arrays, spot.game, spot.players
    cards = np.full((1, n, 7), -1, dtype=np.int64)
    received = np.full((1, n, 3), -1, dtype=np.int64)
    passed = np.full((1, n, 3), -1, dtype=np.int64)
    for r in a.order:
        if a.reached[r] == REACHED_DISCARD:
            event = next(e for e in game.history.events
                         if e["type"] == "discard_commit" and e["seat"] == r)  # fmt: skip
            cards[0, r] = event["order"] + event["discard"]
        else:
            cards[0, r] = game.hand(int(r))
        if game._received[r]:
            received[0, r], passed[0, r] = game._received[r], game._passed[r]
    return Draws(cards, received, passed, np.ones(1), np.full(1, -1), np.ones((1, len(a.order))))


def test_the_true_cards_are_consistent_when_a_pass_breaks_a_tie_by_hand_position():
    # "learned" breaks ties between equally scored passes by hand position,
    # and a hand is held in the order it was dealt (R5, R7): in this deal
    # seat 0 passed T♠ where T♥ scores the same. The check must weigh every
    # order of the dealt seven: the true cards pass it (in some orders),
    # where the check on one fixed order found them impossible
    history = play_deal(Rules(players=2), ["learned"] * 2, seed=61).history
    spot = spot_of(history, move=5)
    strategies = field_strategies(spot, "learned", None)
    truth = _true_draw(spot)
    passes = sum(int(walk_rivals(spot.rules, strategies, spot.arrays, root_key(k), truth, 1, 0,
                                 1, 0)[1][0] >= 0) for k in range(40))  # fmt: skip
    assert 0 < passes < 40  # some orders pass it, not all
    post = rival_posterior(history, "learned", move=5, draws=64, seed=2)
    assert all(_replays(spot, post.draws, i, strategies) for i in range(0, 64, 4))


def test_the_recorded_tables_every_thread_reads_hold_their_betting_summary():
    """R13-R15: the spot kernels' threads read the recorded decisions' tables
    at once; each holds the betting summary of its whole log, so the learned
    bet reads it and writes nothing into them."""
    from anaconda_sim.strategies.learned.reads import action_flags

    history = play_deal(Rules(players=5), ["learned"] * 5, seed=7).history
    d_pub = spot_of(history, move=20).arrays.d_pub
    read = numba.njit(lambda pub: action_flags(pub))
    assert len(d_pub) > 0
    for row in d_pub:
        length = int(row[V.P_LOG_LEN])
        expect = 0
        for entry in row[V.P_LOG : V.P_LOG + length]:
            expect |= V.summary_bit(int(entry))
        assert row[V.P_SUMMARY_LEN] == length
        assert V.stored_summary(row) == expect
        before = row.copy()
        assert int(read(row)) == expect
        assert (row == before).all()
