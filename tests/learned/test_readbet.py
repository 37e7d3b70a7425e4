"""The board-reading betting of "learned" (R13-R16 betting on its equity
estimate): it reads the betting log, its estimate is the estimate its tables
were checked for, and its rule is the documented one (the twin in
tests/sim/test_strategies.py covers every intent)."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from anaconda_sim.rng import new_state, root_key
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.params import (
    EQUITY0,
    EQUITY_SIZE,
    READ_BET_NAMES,
    READS_MODE,
    shipped_read_params,
)
from anaconda_sim.strategies.learned.readbet import board_class, read_group, reads_equity
from anaconda_sim.strategies.learned.reads import equity_estimate
from anaconda_sim.table import views as V

#: the shipped betting without its bluffs: every decision follows the estimate
NO_BLUFF = {name: 0.0 for name in READ_BET_NAMES if name.startswith("bluff")}
AGGRESSION = {V.INTENT_FOLD: 0, V.INTENT_PASSIVE: 1, V.INTENT_AGGRESSIVE: 2}


@numba.njit
def _reads_equity(pub, seat, params, bucket):
    return reads_equity(pub, seat, params, bucket)


def _facing_a_bet(deck: np.ndarray, persistent_rival: bool, players: int = 4,
                  heads_up: bool = True, shown: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Seat 0 of ``players`` after ``shown`` reveals, facing seat 1's bet,
    ``shown`` cards of each seat shown. Before it, in every earlier round,
    either seat 1 bet and seat 0 called (``persistent_rival``), or seat 0 bet
    and seat 1 called; the other seats folded in the first round
    (``heads_up``) or called every bet."""
    pub, own = V.new_pub(), V.new_own(0)
    pub[V.P_PLAYERS] = players
    pub[V.P_BET_SIZE] = 2
    pub[V.P_MAX_LEVEL] = 4
    pub[V.P_ROUND] = 1 + shown
    pub[V.P_REVEALED] = shown
    pub[V.P_STAGE] = V.STAGE_REVEAL + shown
    pub[V.P_LEVEL] = 1
    own[V.O_NCARDS] = 5
    own[V.O_CARDS : V.O_CARDS + 5] = deck[:5]
    for seat in range(players):
        cards = deck[:shown] if seat == 0 else deck[5 + 4 * seat : 5 + 4 * seat + shown]
        pub[V.P_EXPOSED + 4 * seat : V.P_EXPOSED + 4 * seat + shown] = cards
    bettor, caller = (1, 0) if persistent_rival else (0, 1)
    others = range(2, players)
    log = []
    for rnd in range(1 + shown):
        log += [V.log_entry(rnd, bettor, V.A_BET), V.log_entry(rnd, caller, V.A_CALL)]
        if rnd == 0 or not heads_up:
            action = V.A_FOLD if heads_up else V.A_CALL
            log += [V.log_entry(rnd, s, action) for s in others]
    log.append(V.log_entry(1 + shown, 1, V.A_BET))
    if heads_up:
        pub[V.P_FOLDED + 2 : V.P_FOLDED + players] = 1
    active = 2 if heads_up else players
    pub[V.P_POT] = players + 2 * active * (1 + shown) + 2
    pub[V.P_LOG : V.P_LOG + len(log)] = log
    pub[V.P_LOG_LEN] = len(log)
    return pub, own


def test_a_seat_facing_a_persistent_bettor_folds_more_or_raises_less() -> None:
    """On the same deck, a seat facing a bet from a rival who bet every
    earlier round is less aggressive than when it was itself the earlier
    bettor (the rival calling): a paired sign test over 3,000 decks, each in
    a situation drawn at random (4 or 6 players, heads up or every seat
    calling, one to three cards shown), one aggression level per decision
    (fold < call < raise)."""
    strategy = get_strategy("learned", **NO_BLUFF)
    gen = np.random.default_rng(36)
    less = more = 0
    for i in range(3000):
        deck = gen.permutation(52)
        situation = dict(players=int(gen.choice([4, 6])), heads_up=bool(gen.integers(2)),
                         shown=int(gen.integers(1, 4)))  # fmt: skip
        rng = new_state(root_key(1), i, 1)
        a = strategy.decide_bet(*_facing_a_bet(deck, True, **situation), rng.copy())
        b = strategy.decide_bet(*_facing_a_bet(deck, False, **situation), rng.copy())
        less += AGGRESSION[a] < AGGRESSION[b]
        more += AGGRESSION[a] > AGGRESSION[b]
    # under no effect, each differing pair is less or more aggressive with
    # probability 1/2: the difference is more than 4 SDs of that
    assert less - more > 4 * math.sqrt(less + more), (less, more)
    assert less >= 100


def test_the_betting_reads_the_same_estimate_as_its_tables() -> None:
    """The estimate a bet reads (``reads_equity``, from the equity slots of
    the strategy's array) is the one ``equity_estimate`` reads from the
    tables alone: the same double."""
    gen = np.random.default_rng(7)
    params = get_strategy("learned").param_array(4)
    assert params[READS_MODE] == 1.0
    tables = params[EQUITY0 : EQUITY0 + EQUITY_SIZE].copy()
    for _ in range(300):
        pub, own = _facing_a_bet(gen.permutation(52), bool(gen.integers(2)))
        bucket = int(gen.integers(12))
        p, rivals = _reads_equity(pub, 0, params, bucket)
        assert rivals == 1
        assert p == equity_estimate(pub, own, tables, 0, bucket)


def test_groups_and_board_classes() -> None:
    assert [read_group(r) for r in range(5)] == [0, 1, 1, 2, 2]
    assert [board_class(e, 0) for e in range(8)] == [0] * 8
    assert [board_class(e, 3) for e in range(8)] == [1, 2, 2, 3, 3, 3, 3, 3]


def test_the_shipped_betting_is_in_range_and_named() -> None:
    from anaconda_sim.strategies.learned.params import READ_RANGES

    for players in range(2, 8):
        betting = shipped_read_params(players)
        assert list(betting) == list(READ_BET_NAMES)
        assert all(READ_RANGES[k].admits(v) for k, v in betting.items())
    with pytest.raises(ValueError, match="no board-reading betting for players=9"):
        shipped_read_params(9)
    assert get_strategy("learned").spec() == "learned"
    assert get_strategy("learned", bluff_draw=0.1).spec() == "learned:bluff_draw=0.1"
