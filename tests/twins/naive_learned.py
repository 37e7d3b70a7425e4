"""Plain twins of the "learned" family's kernels (anaconda_sim/learned/play.py):
the pass features and pass by brute force over straights and counts, the
betting rule read off its documentation."""

from __future__ import annotations

import itertools

import numpy as np

from anaconda_sim.game import views as V
from anaconda_sim.hands.evaluator import exposed_cards_value, exposed_value_category
from anaconda_sim.rng import rand_float

FLOOR = [0, 1, 2, 3, 7]  # exposed R11 category -> least hand category
STRAIGHT, FLUSH = 4, 5


def _straight_kind(ranks: list[int]) -> int:
    """0 none, 1 gutshot/one-ended, 2 open-ended: four distinct ranks, by brute force."""
    if len(set(ranks)) < 4:
        return 0
    # the straights (as rank sets, ace low and high) containing all four ranks
    straights = [set(range(lo, lo + 5)) for lo in range(0, 9)] + [{12, 0, 1, 2, 3}]
    completing = set()
    for s in straights:
        if set(ranks) <= s:
            completing |= s - set(ranks)
    return 2 if len(completing) == 2 else (1 if completing else 0)


def naive_features(kept: list[int], passed: list[int]) -> list[float]:
    ranks = [c >> 2 for c in kept]
    counts = {r: ranks.count(r) for r in ranks}
    paired = [r for r, n in counts.items() if n >= 2]
    suits = [c & 3 for c in kept]
    suit_max = max(suits.count(s) for s in range(4))
    draw = _straight_kind(ranks)
    p_ranks = [c >> 2 for c in passed]
    p_suits = [c & 3 for c in passed]
    close = sum(1 for x, y in itertools.combinations(p_ranks, 2) if 1 <= abs(x - y) <= 2)
    return [
        float(len(paired)),
        float(max(counts.values()) >= 3),
        sum(ranks) / 48,
        max(paired) / 12 if paired else 0.0,
        float(suit_max == 4),
        float(suit_max == 3),
        float(draw == 2),
        float(draw == 1),
        float(len(set(p_ranks)) < 3),
        (max(p_suits.count(s) for s in range(4)) - 1) / 2,
        close / 3,
        sum(p_ranks) / 36,
    ]


def naive_pass(weights, hand: list[int]) -> list[int]:
    """The three of seven cards whose pass scores best (first best in
    combinations order of positions), in hand order."""
    best, chosen = None, None
    for at in itertools.combinations(range(7), 3):
        passed = [hand[i] for i in at]
        kept = [c for i, c in enumerate(hand) if i not in at]
        score = sum(w * f for w, f in zip(weights, naive_features(kept, passed), strict=True))
        if best is None or score > best:
            best, chosen = score, passed
    assert chosen is not None
    return chosen


def _threat(pub, seat: int, draws: bool) -> int:
    revealed = int(pub[V.P_REVEALED])
    threat = 0
    for other in range(int(pub[V.P_PLAYERS])):
        if other == seat or pub[V.P_FOLDED + other]:
            continue
        base = V.P_EXPOSED + 4 * other
        cards = [int(c) for c in pub[base : base + revealed]]
        value = exposed_cards_value(np.array(cards, dtype=np.int64), len(cards))
        threat = max(threat, FLOOR[int(exposed_value_category(value))])
        if draws and revealed == 4:
            if len({c & 3 for c in cards}) == 1:
                threat = max(threat, FLUSH)
            elif _straight_kind([c >> 2 for c in cards]) > 0:
                threat = max(threat, STRAIGHT)
    return threat


def naive_bet(pub, own, params, rng, strength: int) -> int:
    """The learned betting intent, as documented in anaconda_sim.learned.play."""
    from anaconda_sim.learned.params import PARAM_NAMES

    p = dict(zip(PARAM_NAMES, params, strict=False))
    r = min(int(pub[V.P_REVEALED]), 4)
    bluff = p["bluff"] > 0 and rand_float(rng) < p["bluff"]
    if strength >= p[f"aggressive_r{r}"] or bluff:
        return V.INTENT_AGGRESSIVE
    seat = int(own[V.O_SEAT])
    if pub[V.P_LEVEL] * pub[V.P_BET_SIZE] <= pub[V.P_IN_ROUND + seat]:
        return V.INTENT_PASSIVE
    if strength < p[f"continue_r{r}"]:
        return V.INTENT_FOLD
    if r > 0 and p["respect_exposed"] > 0 and _threat(pub, seat, p["respect_draws"] > 0) > strength:
        return V.INTENT_FOLD
    return V.INTENT_PASSIVE
