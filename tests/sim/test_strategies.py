"""Built-in strategies: the fast kernels equal short, readable Python twins.

The kernels in :mod:`anaconda_sim.strategies` avoid allocations and keep
counts packed in integers; each twin below states the documented behaviour
plainly. Both are run on the same random views and random streams, and
must return the same decision and leave the stream in the same state.

Under the hi-lo rules (``pub[P_HILO]`` set, at the end of this file)
"sensible" card play plans for the half its cards are better at (high
category against :func:`~anaconda_sim.strategies.low_strength`, ties to
high), passes and discards for that plan, and bets on the larger of its high
and low strengths.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import naive_learned
import numba
import numpy as np
import pytest

from anaconda_sim.cards import parse_cards
from anaconda_sim.hands.evaluator import (
    best_five_into,
    eval5,
    eval_cards,
    exposed_cards_value,
    exposed_value4,
    exposed_value_category,
    value_category,
)
from anaconda_sim.hands.low import evaluate_low
from anaconda_sim.hands.sorting import best_five7_into
from anaconda_sim.rng import new_state, rand_below, rand_float, root_key
from anaconda_sim.strategies import (
    BUILTIN_NAMES,
    KIND_CALL_DOWN,
    KIND_LEARNED,
    KIND_RANDOM,
    KIND_RANDOM_PASS,
    KIND_SENSIBLE,
    LOW_STRENGTH_AT,
    SENSIBLE_DEFAULTS,
    Strategy,
    best_low_five_into,
    builtin_discard,
    get_strategy,
    intent_to_action,
    low_strength,
)
from anaconda_sim.strategies.dispatch import showdown_value
from anaconda_sim.strategies.learned.params import (
    ORDER_FEATURES,
    PASS_FEATURES,
    READS_MODE,
    SHOW_ARRAY_SIZE,
    SHOW_MODE,
    SHOW_TAU,
)
from anaconda_sim.table import views as V

FLOOR = [0, 1, 2, 3, 7]
N_PASS = len(PASS_FEATURES)
N_ORDER = len(ORDER_FEATURES)


# ------------------------------------------------------------------ twins --
def _shuffle_prefix(pool: list[int], k: int, rng: np.ndarray) -> list[int]:
    pool = list(pool)
    for i in range(k):
        j = i + int(rand_below(rng, len(pool) - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool


def twin_pass(kind: int, hand: list[int], count: int, rng: np.ndarray,
              params: np.ndarray | None = None) -> list[int]:  # fmt: skip
    if kind in (KIND_RANDOM, KIND_RANDOM_PASS):
        return _shuffle_prefix(hand, count, rng)[:count]
    if kind == KIND_LEARNED and count == 3 and len(hand) == 7:
        assert params is not None
        return naive_learned.naive_pass(params[:N_PASS], hand)
    ranks = Counter(c >> 2 for c in hand)
    suits = Counter(c & 3 for c in hand)

    def key(c: int) -> int:
        score = 32 * (ranks[c >> 2] - 1) + (c >> 2) + (16 if suits[c & 3] >= 5 else 0)
        return score * 64 + c

    return sorted(hand, key=key)[:count]


def _exposed(cards: list[int]) -> int:
    return int(exposed_cards_value(np.array(cards, dtype=np.int64), len(cards)))


def twin_order(five: list[int]) -> list[int]:
    """Hide the card leaving the weakest four shown (ties: the higher index);
    show singles low to high, then grouped cards."""
    best_hide = 0
    best_value = None
    for hide in range(5):
        value = _exposed([c for i, c in enumerate(five) if i != hide])
        if (
            best_value is None
            or value < best_value
            or (value == best_value and five[hide] > five[best_hide])
        ):
            best_value, best_hide = value, hide
    four = [c for i, c in enumerate(five) if i != best_hide]
    counts = Counter(c >> 2 for c in four)
    four.sort(key=lambda c: (counts[c >> 2] * 16 + (c >> 2)) * 64 + c)
    return [*four, five[best_hide]]


def twin_discard(kind: int, hand: list[int], rng: np.ndarray, params=None) -> list[int]:
    if kind == KIND_RANDOM:
        pool = _shuffle_prefix(hand, 2, rng)
        return pool[:2] + _shuffle_prefix(pool[2:], 5, rng)
    if kind == KIND_LEARNED and params[SHOW_MODE] != 0:
        return naive_learned.naive_show_discard(params[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE],
                                                hand, rng)  # fmt: skip
    out = np.empty(7, dtype=np.int64)
    best_five_into(np.array(hand, dtype=np.int64), len(hand), out)
    five = [int(c) for c in out[:5]]
    if kind == KIND_LEARNED:
        order = naive_learned.naive_order(params[N_PASS : N_PASS + N_ORDER], five)
    else:
        order = five if kind == KIND_RANDOM_PASS else twin_order(five)
    return [int(out[5]), int(out[6]), *order]


def twin_bet(
    kind: int, pub: np.ndarray, own: np.ndarray, params, rng: np.ndarray,
    strength: int | None = None,
) -> int:  # fmt: skip
    """``strength``: what "sensible" bets on (default: the high category)."""
    seat = own[V.O_SEAT]
    facing = pub[V.P_LEVEL] * pub[V.P_BET_SIZE] > pub[V.P_IN_ROUND + seat]
    if kind == KIND_RANDOM:
        if facing:
            choices = 3 if pub[V.P_LEVEL] < pub[V.P_MAX_LEVEL] else 2
            return [V.INTENT_FOLD, V.INTENT_PASSIVE, V.INTENT_AGGRESSIVE][
                int(rand_below(rng, choices))
            ]
        return V.INTENT_PASSIVE if rand_below(rng, 2) == 0 else V.INTENT_AGGRESSIVE
    if kind == KIND_LEARNED and pub[V.P_HILO] == 0:
        if params[READS_MODE] != 0:
            return naive_learned.naive_reads_bet(pub, own, params, rng)
        return naive_learned.naive_bet(pub, own, params, rng)
    if kind == KIND_LEARNED:  # under hi-lo: "sensible" with its defaults
        params = list(SENSIBLE_DEFAULTS.values())
    elif kind != KIND_SENSIBLE:
        return V.INTENT_PASSIVE
    if strength is None:
        hand = own[V.O_CARDS : V.O_CARDS + own[V.O_NCARDS]].astype(np.int64)
        strength = int(value_category(eval_cards(hand, len(hand))))
    bluff = params[4] > 0 and rand_float(rng) < params[4]
    if strength >= params[0] or bluff:
        return V.INTENT_AGGRESSIVE
    if not facing:
        return V.INTENT_PASSIVE
    late = pub[V.P_REVEALED] > 0
    if strength < (params[2] if late else params[1]):
        return V.INTENT_FOLD
    if late and params[3] > 0:
        shown = 0
        for other in range(pub[V.P_PLAYERS]):
            if other == seat or pub[V.P_FOLDED + other]:
                continue
            base = V.P_EXPOSED + 4 * other
            cards = [int(c) for c in pub[base : base + pub[V.P_REVEALED]]]
            shown = max(shown, int(exposed_value_category(_exposed(cards))))
        if FLOOR[shown] > strength:
            return V.INTENT_FOLD
    return V.INTENT_PASSIVE


# ------------------------------------------------------------- situations --
def _situation(gen: np.random.Generator, ncards: int) -> tuple[np.ndarray, np.ndarray]:
    players = int(gen.integers(2, 8))
    seat = int(gen.integers(players))
    deck = gen.permutation(52)
    pub = V.new_pub()
    own = V.new_own(seat)
    own[V.O_NCARDS] = ncards
    own[V.O_CARDS : V.O_CARDS + ncards] = deck[:ncards]
    pub[V.P_PLAYERS] = players
    pub[V.P_BET_SIZE] = 1
    pub[V.P_MAX_LEVEL] = 4
    level = int(gen.integers(0, 5))
    pub[V.P_LEVEL] = level
    pub[V.P_IN_ROUND + seat] = int(gen.integers(0, level + 1))
    revealed = int(gen.integers(0, 5)) if ncards == 5 else 0
    pub[V.P_REVEALED] = revealed
    pos = 7
    for other in range(players):
        pub[V.P_FOLDED + other] = int(other != seat and gen.random() < 0.2)
        for j in range(revealed):
            pub[V.P_EXPOSED + 4 * other + j] = deck[pos]
            pos += 1
    pub[V.P_PASS_COUNT] = int(gen.integers(1, 4))
    # the pot (the learned family's pot odds) and, before the reveals, whether
    # the pass is behind (its win table's stage)
    pub[V.P_POT] = int(gen.integers(players, 60))
    pub[V.P_STAGE] = V.STAGE_REVEAL + revealed if revealed else int(gen.integers(0, 2))
    # the betting so far (the board-reading family reads who bet, raised and
    # called in which round): entries of this round and the ones before
    rnd = 1 + revealed if revealed else int(pub[V.P_STAGE])
    pub[V.P_ROUND] = rnd
    entries = int(gen.integers(0, 14))
    for i in range(entries):
        pub[V.P_LOG + i] = V.log_entry(int(gen.integers(0, rnd + 1)), int(gen.integers(players)),
                                       int(gen.integers(0, 5)))  # fmt: skip
    pub[V.P_LOG_LEN] = entries
    return pub, own


def _rng(i: int) -> np.ndarray:
    return new_state(root_key(12), i, 1)


@pytest.mark.parametrize("name", list(BUILTIN_NAMES))
def test_pass_equals_twin(name: str) -> None:
    strategy = get_strategy(name)
    gen = np.random.default_rng(1)
    for i in range(1500):
        pub, own = _situation(gen, 7)
        hand = [int(c) for c in own[V.O_CARDS : V.O_CARDS + 7]]
        a, b = _rng(i), _rng(i)
        got = [int(c) for c in strategy.decide_pass(pub, own, a)]
        params = strategy.param_array(int(pub[V.P_PLAYERS]))
        expected = twin_pass(strategy.kind, hand, int(pub[V.P_PASS_COUNT]), b, params)
        assert sorted(got) == sorted(expected), hand
        if strategy.kind != KIND_LEARNED:  # the learned pass keeps hand order
            assert got == expected, hand
        assert a[0] == b[0]


#: "learned" with a show array of its own: its reveal order read off the
#: table, drawn at a temperature, and its discard (a random keep table, show
#: weight 0.7) the best five by it or drawn at a temperature too (R8-R9)
SHOWN, SHOWN_DRAWN = (dataclasses.replace(get_strategy("learned"), show=(
    0.3, *np.random.default_rng(8).normal(0.0, 1.0, SHOW_ARRAY_SIZE - 3), 0.7, keep_tau))
    for keep_tau in (0.0, 0.4))  # fmt: skip


@pytest.mark.parametrize("strategy", [*(get_strategy(n) for n in BUILTIN_NAMES), SHOWN,
                                      SHOWN_DRAWN],
                         ids=[*BUILTIN_NAMES, "learned-show", "learned-show-drawn"])  # fmt: skip
def test_discard_equals_twin(strategy: Strategy) -> None:
    gen = np.random.default_rng(2)
    for i in range(1500):
        pub, own = _situation(gen, 7)
        hand = [int(c) for c in own[V.O_CARDS : V.O_CARDS + 7]]
        a, b = _rng(i), _rng(i)
        discard, order = strategy.decide_discard(pub, own, a)
        got = [int(c) for c in discard] + [int(c) for c in order]
        params = strategy.param_array(int(pub[V.P_PLAYERS]))
        assert got == twin_discard(strategy.kind, hand, b, params), hand
        assert sorted(got) == sorted(hand)
        assert a[0] == b[0]


@pytest.mark.parametrize(
    "strategy",
    [*(get_strategy(n) for n in BUILTIN_NAMES),
     get_strategy("sensible", bluff=0.3, aggressive_at=3),
     get_strategy("sensible", continue_late=2, respect_exposed=0),
     get_strategy("learned-v1", bet_r2=0.3, raise_r3=0.2, call_r1=3.0, call_r4=0.5, bluff=0.2),
     get_strategy("learned", bet_margin_r0=-0.3, raise_margin_r12=0.2, call_factor_r34=0.6,
                  bluff_hidden=0.1, bluff_weak=0.2, bluff_draw=0.3, bluff_strong=0.4)],
    ids=lambda s: f"{s.name}-{s.params}",
)  # fmt: skip
def test_bet_equals_twin(strategy: Strategy) -> None:
    gen = np.random.default_rng(3)
    for i in range(3000):
        pub, own = _situation(gen, 7 if i % 2 else 5)
        params = strategy.param_array(int(pub[V.P_PLAYERS]))
        a, b = _rng(i), _rng(i)
        got = strategy.decide_bet(pub, own, a)
        assert got == twin_bet(strategy.kind, pub, own, params, b)
        assert a[0] == b[0]


def test_intent_to_action_follows_r3_and_r13() -> None:
    pub, own = V.new_pub(), V.new_own(0)
    pub[V.P_BET_SIZE] = 1
    pub[V.P_MAX_LEVEL] = 4
    # nothing to call: fold means check, aggressive means bet
    assert intent_to_action(pub, own, V.INTENT_FOLD) == V.A_CHECK
    assert intent_to_action(pub, own, V.INTENT_PASSIVE) == V.A_CHECK
    assert intent_to_action(pub, own, V.INTENT_AGGRESSIVE) == V.A_BET
    pub[V.P_LEVEL] = 2
    assert intent_to_action(pub, own, V.INTENT_FOLD) == V.A_FOLD
    assert intent_to_action(pub, own, V.INTENT_PASSIVE) == V.A_CALL
    assert intent_to_action(pub, own, V.INTENT_AGGRESSIVE) == V.A_RAISE
    pub[V.P_LEVEL] = 4  # the cap: raising becomes a call
    assert intent_to_action(pub, own, V.INTENT_AGGRESSIVE) == V.A_CALL


def test_call_down_never_folds_or_bets() -> None:
    strategy = get_strategy("call-down")
    gen = np.random.default_rng(4)
    for i in range(200):
        pub, own = _situation(gen, 5)
        assert strategy.decide_bet(pub, own, _rng(i)) == V.INTENT_PASSIVE
    assert strategy.kind == KIND_CALL_DOWN


# ------------------------------------------------- fast evaluator helpers --
@numba.njit
def _exposed_mismatches() -> int:
    # every multiset of up to four cards (suits do not matter for R11, but
    # use real distinct cards: rank r, suit = position)
    bad = 0
    cards = np.empty(4, dtype=np.int64)
    for n in range(5):
        for a in range(13):
            for b in range(13):
                for c in range(13):
                    for d in range(13):
                        cards[0] = 4 * a
                        cards[1] = 4 * b + 1
                        cards[2] = 4 * c + 2
                        cards[3] = 4 * d + 3
                        want = exposed_cards_value(cards, n)
                        got = exposed_value4(cards[0], cards[1], cards[2], cards[3], n)
                        if want != got:
                            bad += 1
    return bad


def test_exposed_value4_equals_evaluator_on_every_rank_pattern() -> None:
    assert _exposed_mismatches() == 0


@numba.njit
def _best_five_mismatches(hands: np.ndarray) -> int:
    a = np.empty(7, dtype=np.int64)
    b = np.empty(7, dtype=np.int64)
    bad = 0
    for h in range(hands.shape[0]):
        best_five_into(hands[h], 7, a)
        best_five7_into(hands[h], b)
        for i in range(7):
            if a[i] != b[i]:
                bad += 1
                break
    return bad


@pytest.mark.slow
def test_best_five7_into_equals_evaluator() -> None:
    """The pick from the value's ranks equals the evaluator's search of all 21 subsets."""
    gen = np.random.default_rng(5)
    hands = np.argsort(gen.random((1_000_000, 52)), axis=1)[:, :7].astype(np.int64)
    # plus hands rich in ties: pairs, flushes with spare suited cards, straights
    extra = np.array(
        [[51, 50, 47, 46, 3, 2, 1], [48, 44, 40, 36, 32, 28, 24], [51, 47, 43, 39, 35, 31, 27],
         [0, 4, 8, 12, 48, 49, 50], [3, 7, 11, 15, 19, 23, 27], [51, 50, 49, 48, 47, 46, 45]],
        dtype=np.int64,
    )  # fmt: skip
    assert _best_five_mismatches(np.vstack([hands, extra])) == 0


@numba.njit
def _order_by_trying_each_hide(five: np.ndarray, out: np.ndarray) -> None:
    """The twin of the reveal order written as specified: compute the R11
    value of the four shown for each hidden card, hide the weakest four's
    missing card (ties: the higher index), sort the shown four by
    ``(count among the four * 16 + rank) * 64 + card``."""
    best_hide = 0
    best_value = np.int64(1) << 62
    four = np.empty(4, dtype=np.int64)
    for hide in range(5):
        j = 0
        for i in range(5):
            if i != hide:
                four[j] = five[i]
                j += 1
        value = exposed_cards_value(four, 4)
        if value < best_value or (value == best_value and five[hide] > five[best_hide]):
            best_value = value
            best_hide = hide
    j = 0
    for i in range(5):
        if i != best_hide:
            four[j] = five[i]
            j += 1
    keys = np.empty(4, dtype=np.int64)
    for i in range(4):
        count = 0
        for k in range(4):
            count += (four[k] >> 2) == (four[i] >> 2)
        keys[i] = (count * 16 + (four[i] >> 2)) * 64 + four[i]
    keys.sort()
    for i in range(4):
        out[i] = keys[i] & 63
    out[4] = five[best_hide]


@numba.njit
def _order_mismatches(pub: np.ndarray, own: np.ndarray, params: np.ndarray) -> tuple[int, int]:
    rng = np.zeros(1, dtype=np.uint64)
    five = np.empty(5, dtype=np.int64)
    out = np.empty(16, dtype=np.int64)
    want = np.empty(5, dtype=np.int64)
    hands = 0
    bad = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        five[0], five[1], five[2], five[3], five[4] = e, d, c, b, a
                        for i in range(5):
                            own[V.O_CARDS + i] = five[i]
                        builtin_discard(KIND_SENSIBLE, pub, own, params, rng, out, None, None)
                        _order_by_trying_each_hide(five, want)
                        hands += 1
                        for i in range(5):
                            if out[V.OUT_FIVE + i] != want[i]:
                                bad += 1
                                break
    return hands, bad


@pytest.mark.slow
def test_reveal_order_equals_twin_on_every_five_card_hand() -> None:
    """R11: the sensible reveal order hides the card that leaves the weakest
    four shown; checked against the search over every hidden card on all
    2,598,960 five-card hands."""
    pub = np.zeros(V.PUB_SIZE, dtype=np.int32)
    own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    own[V.O_NCARDS] = 5
    params = get_strategy("sensible").param_array()
    assert _order_mismatches(pub, own, params) == (2_598_960, 0)


# ------------------------------------------------------------------ hi-lo --
#: the worst six-, seven-, eight-, nine-, ten-low and unpaired low, by name
WORST = ["6-5-4-3-2", "7-6-5-4-3", "8-7-6-5-4", "9-8-7-6-5", "10-9-8-7-6", "K-Q-J-10-8"]


def _low(cards: list[int]) -> int:
    return int(evaluate_low(np.array(cards, dtype=np.int64)))


def twin_low_strength(low: int) -> int:
    for k, worst in enumerate(LOW_STRENGTH_AT.tolist()):
        if low >= worst:
            return 6 - k
    return 0


def _high(cards: list[int]) -> int:
    return int(value_category(eval_cards(np.array(cards, dtype=np.int64), len(cards))))


def plans_low(cards: list[int]) -> bool:
    return twin_low_strength(_low(cards)) > _high(cards)


def twin_pass_hilo(kind: int, hand: list[int], count: int, rng: np.ndarray) -> list[int]:
    if kind == KIND_LEARNED:  # under hi-lo the learned family passes as "sensible"
        kind = KIND_SENSIBLE
    if kind in (KIND_RANDOM, KIND_RANDOM_PASS) or not plans_low(hand):
        return twin_pass(kind, hand, count, rng)

    def key(c: int) -> int:
        low_rank = ((c >> 2) + 1) % 13  # ace 0 .. king 12
        extra = sum(1 for d in hand if d >> 2 == c >> 2 and d < c)
        return (64 + 12 - low_rank - 16 * extra) * 64 + c

    return sorted(hand, key=key)[:count]


def twin_discard_hilo(kind: int, hand: list[int], rng: np.ndarray) -> list[int]:
    if kind == KIND_LEARNED:  # learned for the high game: under hi-lo it plays "sensible"
        kind = KIND_SENSIBLE
    if kind == KIND_RANDOM or not plans_low(hand):
        return twin_discard(kind, hand, rng)
    best, five = -1, hand[:5]
    for kept in itertools.combinations(hand, 5):  # kept positions in lexicographic order
        if _low(list(kept)) > best:
            best, five = _low(list(kept)), list(kept)
    dropped = [c for c in hand if c not in five]
    order = sorted(five, reverse=True) if kind == KIND_RANDOM_PASS else twin_order(five)
    return dropped + order


def _hilo(pub: np.ndarray) -> np.ndarray:
    pub[V.P_HILO] = 1
    return pub


def test_low_strength_thresholds_are_the_named_lows() -> None:
    assert [twin_low_strength(_low_of(name)) for name in WORST] == [6, 5, 4, 3, 2, 1]
    assert [int(low_strength(_low_of(name))) for name in WORST] == [6, 5, 4, 3, 2, 1]
    assert int(low_strength(_low_of("5-4-3-2-A"))) == 6
    assert int(low_strength(_low_of("A-A-2-3-4"))) == 0  # any pair
    assert int(low_strength(_low_of("J-10-9-8-7"))) == 1


def _low_of(ranks: str) -> int:
    suits = itertools.cycle("shdc")
    return _low([_card(r + next(suits)) for r in ranks.split("-")])


def _card(text: str) -> int:
    return parse_cards(text)[0]


@pytest.mark.parametrize("name", list(BUILTIN_NAMES))
def test_hilo_pass_equals_twin(name: str) -> None:
    strategy = get_strategy(name)
    gen = np.random.default_rng(11)
    low_plans = 0
    for i in range(1500):
        pub, own = _situation(gen, 7)
        _hilo(pub)
        hand = [int(c) for c in own[V.O_CARDS : V.O_CARDS + 7]]
        low_plans += plans_low(hand)
        a, b = _rng(i), _rng(i)
        got = [int(c) for c in strategy.decide_pass(pub, own, a)]
        assert got == twin_pass_hilo(strategy.kind, hand, int(pub[V.P_PASS_COUNT]), b), hand
        assert a[0] == b[0]
    assert 100 < low_plans < 1400  # both plans are exercised


@pytest.mark.parametrize("name", list(BUILTIN_NAMES))
def test_hilo_discard_equals_twin(name: str) -> None:
    strategy = get_strategy(name)
    gen = np.random.default_rng(12)
    for i in range(1500):
        pub, own = _situation(gen, 7)
        _hilo(pub)
        hand = [int(c) for c in own[V.O_CARDS : V.O_CARDS + 7]]
        a, b = _rng(i), _rng(i)
        discard, order = strategy.decide_discard(pub, own, a)
        got = [int(c) for c in discard] + [int(c) for c in order]
        assert got == twin_discard_hilo(strategy.kind, hand, b), hand
        assert sorted(got) == sorted(hand)
        assert a[0] == b[0]


@pytest.mark.parametrize("ncards", [5, 6, 7])
def test_best_low_five_into_equals_twin(ncards: int) -> None:
    gen = np.random.default_rng(20 + ncards)
    out = np.empty(7, dtype=np.int64)
    for i in range(3000):
        if i % 3 == 0:  # four ranks or fewer: every five is tried
            pool = [4 * int(r) + s for r in gen.choice(13, 4, replace=False) for s in range(4)]
            hand = [int(c) for c in gen.permutation(pool)[:ncards]]
        else:
            hand = [int(c) for c in gen.permutation(52)[:ncards]]
        best_low_five_into(np.array(hand, dtype=np.int64), ncards, out)
        best, five = -1, hand[:5]
        for kept in itertools.combinations(hand, 5):  # kept positions in lexicographic order
            if _low(list(kept)) > best:
                best, five = _low(list(kept)), list(kept)
        assert out[:5].tolist() == five
        assert out[5:ncards].tolist() == [c for c in hand if c not in five]


@pytest.mark.parametrize(
    "strategy",
    [*(get_strategy(n) for n in BUILTIN_NAMES),
     get_strategy("sensible", bluff=0.3, aggressive_at=3)],
    ids=lambda s: f"{s.name}-{s.params}",
)  # fmt: skip
def test_hilo_bet_equals_twin(strategy: Strategy) -> None:
    gen = np.random.default_rng(13)
    for i in range(3000):
        pub, own = _situation(gen, 7 if i % 2 else 5)
        params = strategy.param_array(int(pub[V.P_PLAYERS]))
        _hilo(pub)
        hand = [int(c) for c in own[V.O_CARDS : V.O_CARDS + own[V.O_NCARDS]]]
        a, b = _rng(i), _rng(i)
        got = strategy.decide_bet(pub, own, a)
        # the high twin, betting on the larger of the two strengths
        strength = max(_high(hand), twin_low_strength(_low(hand)))
        assert got == twin_bet(strategy.kind, pub, own, params, b, strength)
        assert a[0] == b[0]


def test_hilo_sensible_keeps_low_cards_that_default_passes() -> None:
    # A-2-3-4 with three high cards: the default pass gives the low cards
    # away; under hi-lo the wheel draw is kept and the kings-less junk goes
    pub = V.new_pub()
    own = V.new_own(0)
    own[V.O_NCARDS] = 7
    hand = [_card(c) for c in "As 2d 3h 4c Qs Jd 9h".split()]
    own[V.O_CARDS : V.O_CARDS + 7] = hand
    pub[V.P_PASS_COUNT] = 3
    s = get_strategy("sensible")
    default = sorted(int(c) for c in s.decide_pass(pub, own, _rng(0)))
    assert default == sorted(_card(c) for c in "2d 3h 4c".split())
    pub[V.P_HILO] = 1
    hilo = sorted(int(c) for c in s.decide_pass(pub, own, _rng(0)))
    assert hilo == sorted(_card(c) for c in "Qs Jd 9h".split())


@numba.njit
def _showdown_values(kind: int, pub: np.ndarray, own: np.ndarray, params: np.ndarray,
                     hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    # each hand valued by showdown_value and by the whole discard of the
    # "random" family (the value of the five it keeps), on the same stream
    fast = np.empty(hands.shape[0], dtype=np.int64)
    whole = np.empty(hands.shape[0], dtype=np.int64)
    out = np.empty(16, dtype=np.int64)
    rng_fast = np.zeros(1, dtype=np.uint64)
    rng_whole = np.zeros(1, dtype=np.uint64)
    for h in range(hands.shape[0]):
        for i in range(7):
            own[V.O_CARDS + i] = hands[h, i]
        rng_fast[0] = rng_whole[0] = np.uint64(h * 7919 + 1)
        fast[h] = showdown_value(kind, own, rng_fast, out)
        builtin_discard(KIND_RANDOM, pub, own, params, rng_whole, out, None, True)
        f = V.OUT_FIVE
        whole[h] = eval5(out[f], out[f + 1], out[f + 2], out[f + 3], out[f + 4])
    return fast, whole


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_showdown_value_is_the_showdown_models(name: str) -> None:
    """The showdown model (every seat keeps its best five but "random",
    nobody bets; R8, R10) values a seat by the seven's value, a "random"
    seat by the five its own discard keeps: hand for hand, on the same
    stream."""
    strategy = get_strategy(name)
    rng = np.random.default_rng(11)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(3_000)], dtype=np.int32)
    pub = np.zeros(V.PUB_SIZE, dtype=np.int32)
    pub[V.P_PLAYERS] = 6
    own = np.full(V.OWN_SIZE, -1, dtype=np.int32)
    own[V.O_NCARDS] = 7
    fast, random_discard = _showdown_values(strategy.kind, pub, own, strategy.param_array(6),
                                            hands)  # fmt: skip
    if strategy.kind == KIND_RANDOM:
        np.testing.assert_array_equal(fast, random_discard)
    else:
        np.testing.assert_array_equal(fast, [eval_cards(h, 7) for h in hands])
        assert (random_discard < fast).any()  # the random discard would value them less
