"""Plain twins of the "learned" family's kernels (anaconda_sim/strategies/learned/play.py):
the pass features and pass by brute force over straights and counts, the
win probability from rank counts of the best five and of the exposed cards,
the betting rule read off its documentation."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter

import numpy as np

from anaconda_sim.hands.evaluator import best_five_into, eval_cards, value_category
from anaconda_sim.rng import rand_float
from anaconda_sim.table import views as V


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


def naive_own_bucket(cards: list[int]) -> int:
    """The own-strength bucket of five or seven cards, from the best five's
    category and rank counts (anaconda_sim.strategies.learned.winprob.OWN_BUCKET's rule)."""
    hand = np.array(cards, dtype=np.int64)
    out = np.empty(7, dtype=np.int64)
    best_five_into(hand, len(hand), out)
    five = [int(c) for c in out[:5]]
    category = int(value_category(eval_cards(np.array(five, dtype=np.int64), 5)))
    counts = Counter(c >> 2 for c in five)
    most = max(counts.values())
    top_group = max(r for r, n in counts.items() if n == most)
    top_card = max(counts)
    ten, jack, king = 8, 9, 11
    return {
        0: 0,
        1: 1 if top_group < ten else 2,
        2: 3 if top_group < ten else 4,
        3: 5,
        4: 6,
        5: 7 if top_card < king else 8,
        6: 9 if top_group < jack else 10,
    }.get(category, 11)


def naive_exposure_bucket(shown: list[int]) -> int:
    """What one rival's exposed cards read as (winprob.exposure_bucket's rule)."""
    # the rule reads the cards as a set; one answer per set keeps the show
    # twins, which ask about the same few sets thousands of times, quick
    return _exposure_bucket_of_set(tuple(sorted(shown)))


@functools.cache
def _exposure_bucket_of_set(shown: tuple[int, ...]) -> int:
    counts = Counter(c >> 2 for c in shown)
    groups = sorted(counts.values(), reverse=True)
    if groups and groups[0] == 4:
        return 7
    if groups and groups[0] == 3:
        return 6
    if groups.count(2) == 2:
        return 5
    if groups and groups[0] == 2:
        pair = max(r for r, n in counts.items() if n == 2)
        return 4 if pair >= 8 else 3
    if len(shown) == 4:
        if len({c & 3 for c in shown}) == 1:
            return 2
        windows = [set(range(lo, lo + 5)) for lo in range(0, 9)] + [{12, 0, 1, 2, 3}]
        if any({c >> 2 for c in shown} <= w for w in windows):
            return 1
    return 0


def naive_win_probability(pub, own, params) -> float:
    """The product over active rivals of the win table's entries."""
    from anaconda_sim.strategies.learned.params import EXPOSURE_BUCKETS, OWN_BUCKETS, TABLE0

    revealed = min(int(pub[V.P_REVEALED]), 4)
    if revealed > 0:
        stage = 1 + revealed
    else:
        stage = 0 if pub[V.P_STAGE] == 0 else 1
    me = int(own[V.O_SEAT])
    bucket = naive_own_bucket([int(c) for c in own[V.O_CARDS : V.O_CARDS + own[V.O_NCARDS]]])
    p = 1.0
    for seat in range(int(pub[V.P_PLAYERS])):
        if seat == me or pub[V.P_FOLDED + seat]:
            continue
        base = V.P_EXPOSED + 4 * seat
        e = naive_exposure_bucket([int(c) for c in pub[base : base + revealed]])
        p *= params[TABLE0 + (stage * OWN_BUCKETS + bucket) * EXPOSURE_BUCKETS + e]
    return p


def naive_bet(pub, own, params, rng) -> int:
    """The learned betting intent, as documented in anaconda_sim.strategies.learned.play."""
    from anaconda_sim.strategies.learned.params import PARAM_NAMES

    p = dict(zip(PARAM_NAMES, params, strict=False))
    r = min(int(pub[V.P_REVEALED]), 4)
    win = naive_win_probability(pub, own, params)
    bluff = p["bluff"] > 0 and rand_float(rng) < p["bluff"]
    seat = int(own[V.O_SEAT])
    to_call = int(pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat])
    if to_call <= 0:
        return V.INTENT_AGGRESSIVE if win >= p[f"bet_r{r}"] or bluff else V.INTENT_PASSIVE
    if win >= p[f"raise_r{r}"] or bluff:
        return V.INTENT_AGGRESSIVE
    if win * (int(pub[V.P_POT]) + to_call) >= p[f"call_r{r}"] * to_call:
        return V.INTENT_PASSIVE
    return V.INTENT_FOLD


def _r11_category(cards: list[int]) -> int:
    """R11 category of up to four exposed cards: 0 none, 1 pair, 2 two pair, 3 trips, 4 quads."""
    groups = sorted(Counter(c >> 2 for c in cards).values(), reverse=True)
    if groups[0] == 4:
        return 4
    if groups[0] == 3:
        return 3
    return min(groups.count(2), 2)


def naive_order_features(order: list[int]) -> list[float]:
    shown, hidden = order[:4], order[4]
    ranks = [c >> 2 for c in shown]
    windows = [set(range(lo, lo + 5)) for lo in range(0, 9)] + [{12, 0, 1, 2, 3}]
    draw = len({c & 3 for c in shown}) == 1 or (
        len(set(ranks)) == 4 and any(set(ranks) <= w for w in windows)
    )
    return [
        float((hidden >> 2) in ranks),
        (hidden >> 2) / 12,
        _r11_category(shown) / 4,
        float(draw),
        sum(ranks) / 48,
        ranks[0] / 12,
        (_r11_category(shown[:2]) + _r11_category(shown[:3])) / 8,
    ]


def naive_order(weights, five: list[int]) -> list[int]:
    """The reveal order of five cards whose score is best (the first best:
    the five by card index, the hidden card outer, the shown four in
    permutations order inner)."""
    ordered = sorted(five)
    best, chosen = None, None
    for h in range(5):
        shown = [c for i, c in enumerate(ordered) if i != h]
        for perm in itertools.permutations(shown):
            order = [*perm, ordered[h]]
            score = sum(w * f for w, f in zip(weights, naive_order_features(order), strict=True))
            if best is None or score > best:
                best, chosen = score, order
    assert chosen is not None
    return chosen


# ---------------------------------------------------------------------------
# The board-reading betting ("learned"; anaconda_sim/strategies/learned/readbet.py)
# ---------------------------------------------------------------------------


def naive_action_class(pub, seat: int) -> int:
    """What ``seat`` did this deal, seen from the current round, read off the
    log entry by entry (reads.ACTION_CLASS_NAMES)."""
    now = int(pub[V.P_ROUND])
    aggressive_rounds, called = set(), False
    for i in range(int(pub[V.P_LOG_LEN])):
        rnd, who, action = V.log_fields(int(pub[V.P_LOG + i]))
        if who != seat:
            continue
        if action in (V.A_BET, V.A_RAISE):
            aggressive_rounds.add(min(rnd, 7))
        elif action == V.A_CALL:
            called = True
    earlier = len([r for r in aggressive_rounds if r < min(now, 7)])
    if min(now, 7) in aggressive_rounds:
        return 4 if earlier == 0 else 5
    if earlier:
        return 2 if earlier == 1 else 3
    return 1 if called else 0


def naive_reads_equity(pub, own, params) -> tuple[float, int]:
    """The equity estimate: the factors of the active rivals multiplied in
    seat order, their geometric mean through the curve of the stage and the
    number of rivals (linear between the points at (m + 1/2) / 20)."""
    from anaconda_sim.strategies.learned.params import (
        ACTION_CLASSES,
        CURVE_POINTS,
        EQUITY0,
        EQUITY_SIZE,
        EXPOSURE_BUCKETS,
        FACTOR_SIZE,
        OWN_BUCKETS,
        RIVALS,
    )

    revealed = min(int(pub[V.P_REVEALED]), 4)
    stage = 1 + revealed if revealed > 0 else (0 if pub[V.P_STAGE] == 0 else 1)
    me = int(own[V.O_SEAT])
    bucket = naive_own_bucket([int(c) for c in own[V.O_CARDS : V.O_CARDS + own[V.O_NCARDS]]])
    factor = np.asarray(params[EQUITY0 : EQUITY0 + FACTOR_SIZE]).reshape(
        -1, OWN_BUCKETS, EXPOSURE_BUCKETS, ACTION_CLASSES)  # fmt: skip
    curve = np.asarray(params[EQUITY0 + FACTOR_SIZE : EQUITY0 + EQUITY_SIZE]).reshape(
        -1, RIVALS, CURVE_POINTS)  # fmt: skip
    product, rivals = 1.0, 0
    for seat in range(int(pub[V.P_PLAYERS])):
        if seat == me or pub[V.P_FOLDED + seat]:
            continue
        base = V.P_EXPOSED + 4 * seat
        e = naive_exposure_bucket([int(c) for c in pub[base : base + revealed]])
        product *= float(factor[stage, bucket, e, naive_action_class(pub, seat)])
        rivals += 1
    if rivals == 0:
        return 1.0, 0
    u = product if rivals == 1 else product ** (1.0 / rivals)
    points = curve[stage, rivals - 1]
    x = u * CURVE_POINTS - 0.5
    if x <= 0:
        return float(points[0]), rivals
    if x >= CURVE_POINTS - 1:
        return float(points[-1]), rivals
    m = int(x)
    return float(points[m] * (1.0 - (x - m)) + points[m + 1] * (x - m)), rivals


def naive_reads_bet(pub, own, params, rng) -> int:
    """The board-reading betting intent, as readbet's docstring states it."""
    from anaconda_sim.strategies.learned.params import READ0, READ_BET_NAMES

    p = dict(zip(READ_BET_NAMES, params[READ0 : READ0 + len(READ_BET_NAMES)], strict=True))
    revealed = min(int(pub[V.P_REVEALED]), 4)
    group = "r0" if revealed == 0 else ("r12" if revealed <= 2 else "r34")
    win, rivals = naive_reads_equity(pub, own, params)
    seat = int(own[V.O_SEAT])
    shown = naive_exposure_bucket([int(c) for c in pub[V.P_EXPOSED + 4 * seat :][:revealed]])
    board = ("hidden" if revealed == 0 else "weak" if shown == 0
             else "draw" if shown in (1, 2) else "strong")  # fmt: skip
    bluff = p[f"bluff_{board}"] > 0 and rand_float(rng) < p[f"bluff_{board}"]
    to_call = int(pub[V.P_LEVEL] * pub[V.P_BET_SIZE] - pub[V.P_IN_ROUND + seat])
    edge = win * (rivals + 1)
    if to_call <= 0:
        aggressive = edge >= 1 + p[f"bet_margin_{group}"] or bluff
        return V.INTENT_AGGRESSIVE if aggressive else V.INTENT_PASSIVE
    if edge >= 1 + p[f"raise_margin_{group}"] or bluff:
        return V.INTENT_AGGRESSIVE
    if win * (int(pub[V.P_POT]) + to_call) >= p[f"call_factor_{group}"] * to_call:
        return V.INTENT_PASSIVE
    return V.INTENT_FOLD


# ---------------------------------------------------------------------------
# The reveal order read off the show table ("learned"; anaconda_sim/strategies/learned/show.py)
# ---------------------------------------------------------------------------


def naive_show_order(show, five: list[int], rng=None) -> list[int]:
    """The reveal order of five cards read off a show array (the temperature,
    then the show table): the row of the five's own bucket, summed over what
    the first two, three and four shown read as. The candidates are the
    orders of the five by card index, the hidden card outer, the shown four
    in permutations order inner, each way of showing ranks after two and
    three cards once per hidden card; at temperature 0 the first best, else
    one drawn with weight exp((score - best) / temperature) by walking the
    running sum past rand_float(rng) times the total."""
    temperature = float(show[0])
    ordered = sorted(five)
    candidates = _naive_show_candidates(show, ordered)
    best_score, best_order = candidates[0]
    for score, order in candidates:
        if score > best_score:
            best_score, best_order = score, order
    if temperature <= 0:
        return best_order
    weights = [math.exp((score - best_score) / temperature) for score, _ in candidates]
    total = 0.0
    for w in weights:
        total += w
    target = rand_float(rng) * total
    running = 0.0
    for w, (_, order) in zip(weights, candidates, strict=True):
        running += w
        if running > target:
            return order
    return candidates[-1][1]


def naive_show_discard(show, seven: list[int], rng=None) -> list[int]:
    """The two discards then the kept five in reveal order, read off a show
    array: each five of the seven (the seven sorted by card index, the pairs
    of discards in combinations order) scores its bucket's keep entry plus
    the show weight times its best show score; at keep temperature 0 (the
    array's last number, when it has one) the best is kept (ties: the higher
    hand value, then the first), above it one is drawn with weight
    exp((score - best) / temperature) by walking the running sum past
    rand_float(rng) times the total; then ordered by naive_show_order."""
    table_end = 1 + 12 * 3 * 8
    keep = np.asarray(show[table_end:], dtype=np.float64)
    temperature = float(keep[13]) if len(keep) > 13 else 0.0
    ordered = sorted(seven)
    fives = []
    for i, j in itertools.combinations(range(7), 2):
        five = [c for t, c in enumerate(ordered) if t not in (i, j)]
        value = int(eval_cards(np.array(five, dtype=np.int64), 5))
        shown = max(score for score, _ in _naive_show_candidates(show, five))
        score = keep[naive_own_bucket(five)] + keep[12] * shown
        fives.append((score, value, [ordered[i], ordered[j]], five))
    best = fives[0]
    for five in fives:
        if five[0] > best[0] or (five[0] == best[0] and five[1] > best[1]):
            best = five
    if temperature > 0:
        weights = [math.exp((five[0] - best[0]) / temperature) for five in fives]
        total = 0.0
        for w in weights:
            total += w
        target = rand_float(rng) * total
        running, best = 0.0, fives[-1]
        for w, five in zip(weights, fives, strict=True):
            running += w
            if running > target:
                best = five
                break
    return [*best[2], *naive_show_order(show, best[3], rng)]


def _naive_show_candidates(show, ordered: list[int]) -> list[tuple[float, list[int]]]:
    """Every candidate order of the sorted five ``ordered`` with its score."""
    rows = np.asarray(show[1 : 1 + 12 * 3 * 8], dtype=np.float64).reshape(12, 3, 8)[
        naive_own_bucket(ordered)]  # fmt: skip
    candidates: list[tuple[float, list[int]]] = []
    for h in range(5):
        shown = [c for i, c in enumerate(ordered) if i != h]
        seen = set()
        for perm in itertools.permutations(shown):
            ranks = (perm[0] >> 2, perm[1] >> 2, perm[2] >> 2)
            # the rank shown most often among the first three, the higher on a tie
            count, group = max((ranks.count(r), r) for r in ranks)
            key = (ranks[0] if ranks[0] == ranks[1] else None,
                   (count, group) if count > 1 else None)  # fmt: skip
            if key in seen:
                continue
            seen.add(key)
            order = [*perm, ordered[h]]
            b2, b3, b4 = (naive_exposure_bucket(order[:k]) for k in (2, 3, 4))
            candidates.append(((rows[0, b2] + rows[1, b3]) + rows[2, b4], order))
    return candidates
