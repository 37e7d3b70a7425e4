"""The board-reading equity estimate: what a seat reads of the table at a
betting decision (R11 exposures, R13-R16 betting, R16 folds) and the
decision rows rebuilt from logged deals.

The rows are rebuilt from the batch simulator's logs; the reference engine
plays the same deals (same key, deal index and dealer), and at every betting
decision its own public table, read by the same function, must give the
same round, stage, own bucket, rivals, exposures and action classes. The
outcome of every decision is checked against a naive showdown of the
engine's final hands (tests/twins/naive.py).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twins.naive import naive_key

from anaconda_sim.game.play import Bot, play_deal
from anaconda_sim.rng import root_key
from anaconda_sim.sim.decisions import decision_rows
from anaconda_sim.sim.logged import play_logged
from anaconda_sim.strategies import get_strategy
from anaconda_sim.strategies.learned.play import learned_bucket
from anaconda_sim.strategies.learned.reads import (
    ACTION_CLASSES,
    CURVE0,
    CURVE_POINTS,
    EQUITY_SIZE,
    RIVALS,
    action_class,
    action_flags,
    equity_estimate,
    equity_rows,
    table_reads,
)
from anaconda_sim.strategies.learned.winprob import win_stage
from anaconda_sim.table import views as V
from anaconda_sim.table.rules import Rules

#: fields that bet, raise, call and fold in every round: every action class occurs
LOOSE = get_strategy("sensible", continue_late=1.0, aggressive_at=3.0, bluff=0.2)
BOLD = get_strategy("learned", bet_margin_r12=-0.1, raise_margin_r34=0.2, call_factor_r0=0.6,
                    bluff_weak=0.2, bluff_hidden=0.1)
BOLD_V1 = get_strategy("learned-v1", bet_r1=0.3, raise_r2=0.4, call_r3=0.5, call_r4=2.0, bluff=0.2)


@numba.njit
def _reads(pub, seat):
    exposures = np.full(RIVALS, -1, dtype=np.int64)
    actions = np.full(RIVALS, -1, dtype=np.int64)
    rivals = table_reads(pub, seat, exposures, actions)
    return rivals, exposures, actions, win_stage(pub)


@numba.njit
def _class(pub, seat):
    return action_class(action_flags(pub), seat, pub[V.P_ROUND])


def _pub_with_log(players: int, rnd: int, entries: list[tuple[int, int, int]]) -> np.ndarray:
    pub = V.new_pub()
    pub[V.P_PLAYERS] = players
    pub[V.P_ROUND] = rnd
    for i, entry in enumerate(entries):
        pub[V.P_LOG + i] = V.log_entry(*entry)
    pub[V.P_LOG_LEN] = len(entries)
    return pub


def test_action_classes_read_who_bet_in_which_round_and_who_called() -> None:
    """R13-R15: a bet or raise marks its round, a call marks the seat."""
    log = [
        (0, 0, V.A_BET), (0, 1, V.A_CALL), (0, 2, V.A_RAISE), (0, 0, V.A_CALL), (0, 1, V.A_CALL),
        (1, 0, V.A_CHECK), (1, 1, V.A_CHECK), (1, 2, V.A_BET), (1, 0, V.A_CALL),
        (1, 1, V.A_FOLD),
        (2, 0, V.A_CHECK), (2, 2, V.A_BET),
    ]  # fmt: skip
    pub = _pub_with_log(4, 2, log)
    # seat 0 bet in round 0 only and called; seat 1 only called; seat 2 bet in
    # rounds 0 and 1 and this one; seat 3 never acted
    assert [int(_class(pub, s)) for s in range(4)] == [2, 1, 5, 0]
    pub = _pub_with_log(4, 2, log[:-1])
    assert int(_class(pub, 2)) == 3  # two earlier rounds, not yet this one
    pub = _pub_with_log(4, 0, log[:3])
    assert [int(_class(pub, s)) for s in range(3)] == [4, 1, 4]
    assert ACTION_CLASSES == 6


def test_the_reads_skip_folded_seats_and_read_each_exposure() -> None:
    """R16: a folded seat is no rival; R11: what each active rival shows."""
    pub = _pub_with_log(4, 3, [(0, 3, V.A_FOLD)])
    pub[V.P_FOLDED + 3] = 1
    pub[V.P_REVEALED] = 2
    pub[V.P_STAGE] = V.STAGE_REVEAL + 2
    pub[V.P_EXPOSED : V.P_EXPOSED + 8] = [48, 49, -1, -1, 0, 5, -1, -1]  # A A | 2 3
    rivals, exposures, actions, stage = _reads(pub, 2)
    assert (rivals, stage) == (2, 3)
    assert exposures[:2].tolist() == [4, 0]  # a pair of aces; nothing
    assert actions[:2].tolist() == [0, 0]


def test_the_estimate_is_the_curve_at_the_rivals_factor_mean() -> None:
    tables = np.full(EQUITY_SIZE, 0.5)
    tables[CURVE0:] = np.tile(np.linspace(0.0, 1.0, CURVE_POINTS), EQUITY_SIZE // CURVE_POINTS)[
        : EQUITY_SIZE - CURVE0]  # fmt: skip
    pub = _pub_with_log(3, 0, [])
    own = V.new_own(0)
    # u = 0.5 lies halfway between the curve's points 9 and 10
    expected = (9 / (CURVE_POINTS - 1) + 10 / (CURVE_POINTS - 1)) / 2
    assert equity_estimate(pub, own, tables, 0, 3) == pytest.approx(expected, abs=1e-12)


#: equity tables of random numbers (curves increasing): every entry matters
_RANDOM_TABLES = np.random.default_rng(3).uniform(0.05, 0.95, EQUITY_SIZE)
_RANDOM_TABLES[CURVE0:] = np.sort(_RANDOM_TABLES[CURVE0:].reshape(-1, CURVE_POINTS), 1).ravel()


def _engine_decisions(players: int, strategies: list, deals: int, seed: int) -> list:
    """Per deal, the engine's betting decisions and the deal's final hands.

    A decision: (round, seat, stage, rivals, exposures, actions, own bucket,
    the active seats, the estimate with :data:`_RANDOM_TABLES`), all read
    from the engine's own views."""

    class Spy(Bot):
        def choose_action(self, obs):  # type: ignore[no-untyped-def]
            pub, own = obs.pub, obs.own
            seat = int(own[V.O_SEAT])
            rivals, exposures, actions, stage = _reads(pub, seat)
            bucket = int(learned_bucket(own))
            active = [s for s in range(players) if pub[V.P_FOLDED + s] == 0]
            estimate = float(equity_estimate(pub, own, _RANDOM_TABLES, 0, bucket))
            seen.append((int(pub[V.P_ROUND]), seat, int(stage), int(rivals),
                         exposures[:rivals].tolist(), actions[:rivals].tolist(), bucket,
                         active, estimate))  # fmt: skip
            return super().choose_action(obs)

    out = []
    key = root_key(seed)
    for deal in range(deals):
        seen: list[tuple] = []
        game = play_deal(Rules(players=players), [Spy(s) for s in strategies], key=key,
                         deal_index=deal, dealer=deal % players)  # fmt: skip
        out.append((seen, [list(game.hand(s)) for s in range(players)]))
    return out


def _field(players: int) -> list:
    return [[LOOSE, BOLD, "learned", "sensible", BOLD, LOOSE, "learned"][s]
            for s in range(players)]  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_rebuilt_decisions_match_the_engine_decision_by_decision(players: int) -> None:
    """Every decision's reads, bucket, outcome and estimate, rebuilt from the
    simulator's log, equal the engine's at the same moment of the same deal."""
    strategies = _field(players)
    deals, seed = 40, 100 + players
    chunks: list = []
    assert play_logged(players, strategies, deals, seed, chunks.append) == deals
    rows = decision_rows(chunks[0])
    u, p = np.empty(rows.seat.size), np.empty(rows.seat.size)
    equity_rows(_RANDOM_TABLES, rows.stage, rows.bucket, rows.rivals, rows.exposures,
                rows.actions, u, p)  # fmt: skip
    r = 0
    classes = set()
    for deal, (seen, hands) in enumerate(_engine_decisions(players, strategies, deals, seed)):
        # a seat's final hand: the kept five, or the best five of the seven held
        keys = [naive_key(hand) for hand in hands]
        for rnd, seat, stage, rivals, exposures, actions, bucket, active, estimate in seen:
            assert rows.deal[r] == deal
            assert (rows.round[r], rows.seat[r], rows.stage[r], rows.rivals[r]) == (
                rnd, seat, stage, rivals)  # fmt: skip
            assert rows.exposures[r, :rivals].tolist() == exposures
            assert rows.actions[r, :rivals].tolist() == actions
            assert rows.bucket[r] == bucket
            assert p[r] == estimate  # the same double
            best = max(keys[s] for s in active)
            tied = sum(keys[s] == best for s in active)
            assert rows.share[r] == (1.0 / tied if keys[seat] == best else 0.0)
            beats = [2 if keys[seat] > keys[s] else (1 if keys[seat] == keys[s] else 0)
                     for s in active if s != seat]  # fmt: skip
            assert rows.beats[r, :rivals].tolist() == beats
            classes.update(actions)
            r += 1
    assert r == rows.seat.size
    if players >= 4:
        assert classes == set(range(ACTION_CLASSES))


def _naive_summary(entries: list[tuple[int, int, int]]) -> int:
    """The betting summary by its definition: a bet or raise marks the seat's
    round (rounds from the eighth on share the last bit), a call the seat."""
    summary = 0
    for rnd, seat, action in entries:
        if action in (V.A_BET, V.A_RAISE):
            summary |= 1 << (V.SUMMARY_SEAT_BITS * seat + min(rnd, V.SUMMARY_CALLED_BIT - 1))
        elif action == V.A_CALL:
            summary |= 1 << (V.SUMMARY_SEAT_BITS * seat + V.SUMMARY_CALLED_BIT)
    return summary


@numba.njit
def _flags(pub):
    return action_flags(pub)


_ENTRIES = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 6), st.integers(0, 4)),
                    max_size=40)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(entries=_ENTRIES, reads=st.lists(st.integers(0, 40), max_size=6))
def test_the_summary_a_reader_keeps_in_the_table_is_the_logs(
    entries: list[tuple[int, int, int]], reads: list[int]
) -> None:
    """R13-R15: the betting summary a reader keeps in ``pub[P_SUMMARY]`` for
    the next read is the summary of the whole log, read after any number of
    entries logged since (one table, the log growing as in a deal)."""
    pub = _pub_with_log(7, 0, [])
    logged = 0
    for upto in [*sorted(reads), len(entries)]:
        upto = min(upto, len(entries))
        for entry in entries[logged:upto]:
            pub[V.P_LOG + pub[V.P_LOG_LEN]] = V.log_entry(*entry)
            pub[V.P_LOG_LEN] += 1
        logged = max(logged, upto)
        assert int(_flags(pub)) == _naive_summary(entries[:logged])
        assert pub[V.P_SUMMARY_LEN] == logged
        assert V.stored_summary(pub) == _naive_summary(entries[:logged])


@pytest.mark.parametrize("kept", [-1, 5])
def test_a_summary_of_more_entries_than_the_log_holds_is_read_again(kept: int) -> None:
    """A summary the table cannot hold (of a negative count, or of more entries
    than its log has) is not read: the log is, from its start."""
    log = [(0, 0, V.A_BET), (0, 1, V.A_CALL), (1, 2, V.A_RAISE)]
    pub = _pub_with_log(3, 1, log)
    pub[V.P_SUMMARY_LEN] = kept
    pub[V.P_SUMMARY : V.P_SUMMARY + 2] = V.summary_words(-1 & ((1 << 63) - 1))
    assert int(_flags(pub)) == _naive_summary(log)
    assert pub[V.P_SUMMARY_LEN] == len(log)


def test_the_engine_table_carries_the_summary_of_its_log() -> None:
    """The reference engine's public table holds the summary of its whole log."""
    game = play_deal(Rules(players=4), [BOLD, LOOSE, BOLD, LOOSE], seed=3)
    pub, _ = game.seat_views(0)
    entries = [V.log_fields(int(e)) for e in pub[V.P_LOG : V.P_LOG + pub[V.P_LOG_LEN]]]
    assert pub[V.P_SUMMARY_LEN] == len(entries) > 0
    assert V.stored_summary(pub) == _naive_summary(entries)
