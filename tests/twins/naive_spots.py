"""Plain twins of the spot kernels (anaconda_sim/sim/kernels/spot.py).

* :func:`two_player_posterior`: the exact posterior of a two-player rival's
  hidden cards after the pass, by enumerating every four cards it could
  have kept of its deal and replaying each of its recorded decisions with
  the reference engine's strategy calls (``Strategy.decide_*`` on views
  built here from the card lists).
* :func:`deal_of_draw` and :func:`engine_net`: a posterior draw made a
  whole deal, replayed through the reference engine up to the spot with
  the draw's hidden moves, the hero's choice applied, and played on by the
  engine's bots: the hero's net chips, which the kernel must match.
* :func:`two_player_values`: the exact value of each action at a two-player
  betting spot after the discard, the mean of :func:`engine_net` over the
  enumerated posterior.
"""

from __future__ import annotations

import itertools

import numpy as np

from anaconda_sim import rng as R
from anaconda_sim.game.engine import Action, Game, Phase, deck_for_hands
from anaconda_sim.game.play import run_game
from anaconda_sim.strategies.common import intent_to_action
from anaconda_sim.table import views as V


def _own(seat: int, cards, passed=(), received=(), discards=()) -> np.ndarray:
    own = V.new_own(seat)
    own[V.O_NCARDS] = len(cards)
    own[V.O_CARDS : V.O_CARDS + len(cards)] = cards
    own[V.O_NPASSED] = len(passed)
    own[V.O_PASSED : V.O_PASSED + len(passed)] = passed
    own[V.O_NRECEIVED] = len(received)
    own[V.O_RECEIVED : V.O_RECEIVED + len(received)] = received
    own[V.O_DISCARDS : V.O_DISCARDS + len(discards)] = discards
    return own


def _consistent(spot, strategy, rival: int, four: list[int]) -> bool:
    """Does ``strategy`` holding ``four`` (its own four after the pass) take
    every recorded decision of ``rival``?"""
    a = spot.arrays
    passed = [int(c) for c in a.hero_recv]
    received = [int(c) for c in a.hero_pass]
    dealt = _own(rival, four + passed)
    after_pass = _own(rival, four + received, passed, received)
    kept = None
    state = np.zeros(1, dtype=np.uint64)
    for d in spot.decisions:
        if d.seat != rival:
            continue
        if d.kind == V.D_PASS:
            chosen = strategy.decide_pass(d.pub, dealt, state)
            if sorted(int(c) for c in chosen) != sorted(passed):
                return False
        elif d.kind == V.D_DISCARD:
            discard, order = strategy.decide_discard(d.pub, after_pass, state)
            shown = spot.game.exposed(rival)[:4]
            if [int(c) for c in order[: len(shown)]] != list(shown):
                return False
            kept = _own(rival, [int(c) for c in order], passed, received,
                        [int(c) for c in discard])  # fmt: skip
        else:
            own = {0: dealt, 1: after_pass, 2: kept}[d.view]
            intent = strategy.decide_bet(d.pub, own, state)
            if int(intent_to_action(d.pub, own, intent)) != d.action:
                return False
    return True


def two_player_posterior(spot, strategy) -> dict[tuple[int, ...], float]:
    """Posterior of the rival's own four (sorted) at a two-player spot after
    the pass, under a deterministic ``strategy``: uniform over the fours
    with which it takes every recorded decision."""
    a = spot.arrays
    rival = 1 - spot.seat
    shown = [c for c in spot.game.exposed(rival)[:4] if c not in set(a.hero_pass.tolist())]
    pool = [int(c) for c in a.unseen]
    support = []
    for rest in itertools.combinations(pool, 4 - len(shown)):
        four = sorted(shown + list(rest))
        if _consistent(spot, strategy, rival, four):
            support.append(tuple(four))
    return {four: 1.0 / len(support) for four in support}


def deal_of_draw(spot, draws, i: int) -> tuple[list[list[int]], dict[int, list[int]],
                                               dict[int, tuple[list[int], list[int]]]]:  # fmt: skip
    """Draw ``i`` as a whole deal: every seat's dealt seven, the packets
    the rivals passed and the rivals' discards and orders."""
    a = spot.arrays
    n = spot.players
    hands = []
    packets: dict[int, list[int]] = {}
    discards: dict[int, tuple[list[int], list[int]]] = {}
    for s in range(n):
        if s == spot.seat:
            hands.append(list(spot.game.history.events[0]["hands"][s]))
            continue
        cards = [int(c) for c in draws.cards[i, s]]
        if a.reached[s] == 0:
            hands.append(cards)
            continue
        received = [int(c) for c in draws.received[i, s]]
        passed = [int(c) for c in draws.passed[i, s]]
        hands.append([c for c in cards if c not in received] + passed)
        packets[s] = passed
        if a.reached[s] == 2:
            discards[s] = (cards[5:], cards[:5])
    return hands, packets, discards


def engine_net(spot, draws, i: int, choice, strategies, key) -> int:
    """The hero's net chips when draw ``i`` is replayed in the engine up to
    the spot, ``choice`` is made and the bots play on (seat ``s`` on stream
    ``1 + s`` of deal ``i`` under ``key``, as the kernel)."""
    hands, packets, discards = deal_of_draw(spot, draws, i)
    history = spot.game.history
    game = Game(spot.rules, history.dealer, deck=deck_for_hands(hands, history.dealer))
    moves = [e for e in history.events if e["type"] in ("action", "pass_commit", "discard_commit")]
    for event in moves[: spot.move - 1]:
        s = event["seat"]
        if s != spot.seat and event["type"] != "action" and (
            (event["type"] == "pass_commit" and s not in packets)
            or (event["type"] == "discard_commit" and s not in discards)
        ):
            # a commit made face down in the phase of the spot: decided afresh below
            continue
        if event["type"] == "action":
            game.act(s, event["action"])
        elif event["type"] == "pass_commit":
            game.commit_pass(s, event["cards"] if s == spot.seat else packets[s])
        elif s == spot.seat:
            game.commit_discard(s, event["discard"], event["order"])
        else:
            game.commit_discard(s, *discards[s])
    states = [R.new_state(key, i, R.STREAM_SEAT + s) for s in range(spot.players)]
    if game.phase is Phase.BETTING:
        game.act(spot.seat, Action(int(choice[0])))
    else:
        # a pass or discard: every seat decides from views that show no
        # commit, so the hero's choice and the bots' decisions go in together
        phase = game.phase
        seats = [(game.dealer + 1 + k) % spot.players for k in range(spot.players)]
        chosen = {}
        for s in seats:
            if game.folded[s] or s == spot.seat:
                continue
            pub, own = game.seat_views(s)
            if phase is Phase.PASS:
                chosen[s] = [int(c) for c in strategies[s].decide_pass(pub, own, states[s])]
            else:
                discard, order = strategies[s].decide_discard(pub, own, states[s])
                chosen[s] = ([int(c) for c in discard], [int(c) for c in order])
        for s in seats:
            if game.folded[s]:
                continue
            if phase is Phase.PASS:
                game.commit_pass(s, [int(c) for c in choice[:3]] if s == spot.seat else chosen[s])
            elif s == spot.seat:
                game.commit_discard(s, [int(c) for c in choice[:2]], [int(c) for c in choice[2:]])
            else:
                game.commit_discard(s, *chosen[s])
    run_game(game, strategies, states)
    return int(game.result.net[spot.seat])


def two_player_values(spot, strategy, key) -> dict[str, float]:
    """Exact values of a two-player betting spot after the discard: the mean
    over the rival's posterior (:func:`two_player_posterior`, uniform over
    the fours it could hold) of the hero's net chips for each legal action,
    every deal played on by the engine (:func:`engine_net`; the strategies
    must decide without chance for the mean to be exact)."""
    from anaconda_sim.sim.spots import Draws

    a = spot.arrays
    rival = 1 - spot.seat
    passed = [int(c) for c in a.hero_recv]
    received = [int(c) for c in a.hero_pass]
    state = np.zeros(1, dtype=np.uint64)
    pub = next(d.pub for d in spot.decisions if d.seat == rival and d.kind == V.D_DISCARD)
    strategies = [strategy, strategy]
    legal = spot.game.legal_actions(spot.seat)
    totals = {action.label: 0 for action in legal}
    support = two_player_posterior(spot, strategy)
    for four in support:
        after_pass = _own(rival, list(four) + received, passed, received)
        discard, order = strategy.decide_discard(pub, after_pass, state)
        cards = np.full((1, 2, 7), -1, dtype=np.int64)
        cards[0, rival] = [int(c) for c in order] + [int(c) for c in discard]
        packets = np.full((1, 2, 3), -1, dtype=np.int64)
        got, gave = packets.copy(), packets.copy()
        got[0, rival], gave[0, rival] = received, passed
        draws = Draws(cards, got, gave, np.ones(1), np.full(1, -1), np.ones((1, 1)))
        for action in legal:
            row = [int(action)] + [-1] * 6
            totals[action.label] += engine_net(spot, draws, 0, row, strategies, key)
    return {label: total / len(support) for label, total in totals.items()}
