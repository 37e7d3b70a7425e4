"""Slow, obviously correct twins of the showdown model (analysis module).

Plain Python loops over deals with numpy's Generator for the randomness and
the public ``evaluate`` (itself tested exhaustively against ``naive.py``) for
hand values. Opponents play ``"random-pass"`` (three uniformly random cards
passed to the left, best five kept, no folding) unless a twin is given
another built-in ``strategy`` (its own pass, best five kept, no folding).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from anaconda_sim.hands.evaluator import evaluate


def _share(values: list[int], seat: int) -> float:
    top = max(values)
    winners = [i for i, v in enumerate(values) if v == top]
    return 1.0 / len(winners) if seat in winners else 0.0


def _strategy_pass(strategy, pub, seat: int, seven: list[int]) -> list[int]:
    """The three cards ``strategy`` passes from ``seven`` (its own decision function)."""
    from anaconda_sim.table import views as V

    own = V.new_own(seat)
    own[V.O_NCARDS] = 7
    own[V.O_CARDS : V.O_CARDS + 7] = seven
    return strategy.decide_pass(pub, own, np.zeros(1, dtype=np.uint64)).tolist()


def pass_shares(hand7, players, deals, seed, strategy=None):
    """Per-deal hero pot share for each of the 35 passes (rows = deals).

    ``strategy``: ``None`` for ``"random-pass"`` opponents, else a built-in
    :class:`~anaconda_sim.strategies.Strategy` every opponent passes by
    (dealt seven cards, nothing known yet, the showdown model's table)."""
    from anaconda_sim.analysis.driver import pub_at_pass

    rng = np.random.default_rng(seed)
    pub = pub_at_pass(players)
    unseen = np.array([c for c in range(52) if c not in hand7])
    choices = list(combinations(hand7, 3))
    shares = np.zeros((deals, len(choices)))
    for d in range(deals):
        deck = rng.permutation(unseen)
        hands = {s: [int(c) for c in deck[7 * (s - 1) : 7 * s]] for s in range(1, players)}
        if strategy is None:
            packets = {s: list(rng.choice(hands[s], 3, replace=False)) for s in hands}
        else:
            packets = {s: _strategy_pass(strategy, pub, s, hands[s]) for s in hands}
        kept = {s: [c for c in hands[s] if c not in packets[s]] for s in hands}
        received = packets[players - 1]
        fixed = [kept[s] + packets[s - 1] for s in range(2, players)]
        rows = []
        for choice in choices:
            hero = [c for c in hand7 if c not in choice] + received
            rows += [hero, kept[1] + list(choice)]
        values = evaluate(np.array(rows + fixed)).tolist()
        fixed_values = values[2 * len(choices) :]
        for k in range(len(choices)):
            shares[d, k] = _share([values[2 * k], values[2 * k + 1], *fixed_values], 0)
    return choices, shares


def discard_shares(hand7, players, passed, received, deals, seed):
    """Per-deal hero pot share for each of the 21 discards, given the pass."""
    rng = np.random.default_rng(seed)
    unseen = np.array([c for c in range(52) if c not in hand7 and c not in passed])
    discards = list(combinations(hand7, 2))
    fives = [[c for c in hand7 if c not in d] for d in discards]
    hero_values = evaluate(np.array(fives)).tolist()
    shares = np.zeros((deals, len(discards)))
    for d in range(deals):
        deck = list(rng.permutation(unseen))
        hands, packets = {}, {}
        for s in range(1, players):
            if s == players - 1:
                hands[s] = [deck.pop() for _ in range(4)] + list(received)
                packets[s] = list(received)
            else:
                hands[s] = [deck.pop() for _ in range(7)]
                packets[s] = list(rng.choice(hands[s], 3, replace=False))
        packets[0] = list(passed)
        finals = [
            [c for c in hands[s] if c not in packets[s]] + packets[s - 1] for s in range(1, players)
        ]
        opponent_values = evaluate(np.array(finals)).tolist()
        for k in range(len(discards)):
            shares[d, k] = _share([hero_values[k], *opponent_values], 0)
    return discards, shares


def received_shares(hand7, players, passed, received, strategy, deals, seed):
    """Per-deal hero pot share of its best five after the pass when every
    opponent plays ``strategy`` (a built-in with a deterministic pass, best
    five kept) and the right neighbour passed the hero ``received``.

    Rejection sampling, plainly: shuffle the unseen cards, give the right
    neighbour four of them with ``received``, and keep the deal only when its
    own pass (``Strategy.decide_pass``) gives exactly ``received``. Returns the
    shares of the accepted deals and the share of shuffles accepted.
    """
    from anaconda_sim.analysis.driver import pub_at_pass
    from anaconda_sim.table import views as V

    rng = np.random.default_rng(seed)
    pub = pub_at_pass(players)
    unseen = np.array([c for c in range(52) if c not in hand7 and c not in passed])
    right = players - 1
    hero_value = evaluate(np.array(hand7)).item()
    shares, tries = [], 0
    while len(shares) < deals:
        deck = list(rng.permutation(unseen))
        tries += 1
        four = deck[:4]
        own = V.new_own(right)
        own[V.O_NCARDS] = 7
        own[V.O_CARDS : V.O_CARDS + 7] = four + list(received)
        if set(strategy.decide_pass(pub, own, np.zeros(1, dtype=np.uint64))) != set(received):
            continue
        kept, packets = {right: four}, {0: list(passed), right: list(received)}
        for s in range(1, right):
            seven = deck[4 + 7 * (s - 1) : 4 + 7 * s]
            own = V.new_own(s)
            own[V.O_NCARDS] = 7
            own[V.O_CARDS : V.O_CARDS + 7] = seven
            packets[s] = strategy.decide_pass(pub, own, np.zeros(1, dtype=np.uint64)).tolist()
            kept[s] = [c for c in seven if c not in packets[s]]
        finals = [kept[s] + packets[s - 1] for s in range(1, players)]
        values = [hero_value, *evaluate(np.array(finals)).tolist()]
        shares.append(_share(values, 0))
    return np.array(shares), deals / tries


def unnamed_received_shares(held, players, passed, strategy, deals, seed):
    """Per-deal hero pot share when the packet the hero received is not named.

    ``held``: the hero's known held cards after the pass (seven, or its kept
    five: then its two discards are unknown cards); ``passed``: the three it
    passed, or ``None`` (unknown: three unseen cards). Every opponent plays
    ``strategy`` (a built-in with a deterministic pass, best five kept).

    Rejection sampling, plainly: shuffle the unseen cards (the hero's unknown
    discards and packet first), take a uniform three of the hero's seven
    held cards as the packet it received and four unseen cards as the right
    neighbour's kept four, and keep the deal only when the neighbour's own
    pass (``Strategy.decide_pass``) gives exactly that three. The hero keeps
    its best five of the seven (the known five when only five are known).
    Returns the shares of the accepted deals and the share of tries accepted.
    """
    from anaconda_sim.analysis.driver import pub_at_pass

    rng = np.random.default_rng(seed)
    pub = pub_at_pass(players)
    held = [int(c) for c in held]
    named = list(passed) if passed is not None else []
    unseen = np.array([c for c in range(52) if c not in held and c not in named])
    right = players - 1
    shares, tries = [], 0
    while len(shares) < deals:
        tries += 1
        deck = [int(c) for c in rng.permutation(unseen)]
        seven = held + [deck.pop() for _ in range(7 - len(held))]
        hero_packet = named or [deck.pop() for _ in range(3)]
        received = [seven[i] for i in rng.choice(7, 3, replace=False)]
        four = [deck.pop() for _ in range(4)]
        if set(_strategy_pass(strategy, pub, right, four + received)) != set(received):
            continue
        kept, packets = {right: four}, {0: hero_packet, right: received}
        for s in range(1, right):
            hand = [deck.pop() for _ in range(7)]
            packets[s] = _strategy_pass(strategy, pub, s, hand)
            kept[s] = [c for c in hand if c not in packets[s]]
        finals = [kept[s] + packets[s - 1] for s in range(1, players)]
        hero = held if len(held) == 5 else seven
        values = [evaluate(np.array(hero)).item(), *evaluate(np.array(finals)).tolist()]
        shares.append(_share(values, 0))
    return np.array(shares), deals / tries
