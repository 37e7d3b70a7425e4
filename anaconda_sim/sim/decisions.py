"""Every betting decision of logged deals, as rows: what the seat read and how
it came out.

A betting decision is one entry of a deal's log (:func:`~.logged.play_logged`):
the seat that acted, in a round. For each, :func:`decision_rows` rebuilds
the public table as the seat saw it just before it acted (the round, who had
folded, what each seat showed, the log so far) and reads it with the very
function a seat's bet reads it with
(:func:`~anaconda_sim.strategies.learned.reads.table_reads`), so the rows
hold the numbers the decision would have used. The outcome is the seat's
share of the pot at a showdown against the rivals active at the decision,
every seat's final hand being the kept five, or, for a seat that folded
before discarding, the best five of the seven it held.

Only the default rules (one pass, a discard, four reveals; six betting
rounds) are read here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._numba import jit
from ..hands.evaluator import eval5, eval7
from ..limits import HAND_SIZE
from ..strategies.learned.reads import RIVALS, table_reads
from ..strategies.learned.winprob import OWN_BUCKET, win_stage
from ..table import views as V
from ..table.rules import REVEAL_ROUNDS
from .logged import LoggedChunk

__all__ = ["DecisionRows", "decision_rows"]


@dataclass(frozen=True)
class DecisionRows:
    """One row per betting decision (module docstring).

    Attributes
    ----------
    deal, seat, round : (rows,) int64
        The deal's index, the seat that decided, the betting round (0-5).
    stage, bucket : (rows,) int64
        The win stage (:func:`~anaconda_sim.strategies.learned.winprob.win_stage`)
        and the seat's own-strength bucket.
    rivals : (rows,) int64
        Active rivals at the decision (1-6).
    exposures, actions : (rows, 6) int64
        Each active rival's exposure bucket and action class, in seat order
        (the first ``rivals`` columns).
    beats : (rows, 6) int64
        Against each of those rivals: 2 if the seat's final hand beats its
        final hand, 1 on a tie, 0 otherwise.
    share : (rows,) float64
        The seat's share of the pot at a showdown against the active rivals.
    """

    deal: np.ndarray
    seat: np.ndarray
    round: np.ndarray
    stage: np.ndarray
    bucket: np.ndarray
    rivals: np.ndarray
    exposures: np.ndarray
    actions: np.ndarray
    beats: np.ndarray
    share: np.ndarray


@jit
def _final_value(cards, discards):
    """A seat's final hand: the kept five, or the best five of the seven."""
    if discards[0] >= 0:
        return eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
    return eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])


@jit
def _rows(players, dealt, cards, discards, log, log_len, out_int, out_pairs, share):
    """Fill the rows of every decision of the chunk; returns their number.

    ``out_int[r]``: deal (within the chunk), seat, round, stage, bucket,
    rivals; ``out_pairs[r, 0, k]`` exposures, ``[1, k]`` actions, ``[2, k]``
    beats."""
    n = players
    pub = np.zeros(V.PUB_SIZE, dtype=np.int32)
    value = np.zeros(n, dtype=np.int64)
    bucket7 = np.zeros(n, dtype=np.int64)
    bucket_held = np.zeros(n, dtype=np.int64)
    bucket5 = np.zeros(n, dtype=np.int64)
    exposures = np.zeros(RIVALS, dtype=np.int64)
    actions = np.zeros(RIVALS, dtype=np.int64)
    held = np.zeros(HAND_SIZE, dtype=np.int64)
    r = 0
    for d in range(dealt.shape[0]):
        for s in range(n):
            c = dealt[d, s]
            bucket7[s] = OWN_BUCKET[eval7(c[0], c[1], c[2], c[3], c[4], c[5], c[6])]
            kept = discards[d, s, 0] >= 0
            for j in range(HAND_SIZE):
                held[j] = cards[d, s, j]
            if kept:
                held[5] = discards[d, s, 0]
                held[6] = discards[d, s, 1]
                bucket5[s] = OWN_BUCKET[eval5(held[0], held[1], held[2], held[3], held[4])]
            bucket_held[s] = OWN_BUCKET[eval7(held[0], held[1], held[2], held[3], held[4],
                                              held[5], held[6])]  # fmt: skip
            value[s] = _final_value(cards[d, s], discards[d, s])
        pub[:] = 0
        for j in range(4 * 7):
            pub[V.P_EXPOSED + j] = -1
        pub[V.P_PLAYERS] = n
        for t in range(log_len[d]):
            entry = log[d, t]
            action = entry % V.LOG_ACTIONS
            seat = (entry // V.LOG_ACTIONS) % V.LOG_SEATS
            rnd = entry // (V.LOG_ACTIONS * V.LOG_SEATS)
            # the table as the seat saw it: round rnd, the log before entry t
            pub[V.P_ROUND] = rnd
            revealed = max(0, min(rnd - 1, REVEAL_ROUNDS))
            pub[V.P_STAGE] = 0 if rnd == 0 else (1 if rnd == 1 else V.STAGE_REVEAL + revealed)
            pub[V.P_REVEALED] = revealed
            for s in range(n):
                for j in range(4):
                    shown = discards[d, s, 0] >= 0 and j < revealed
                    pub[V.P_EXPOSED + 4 * s + j] = cards[d, s, j] if shown else -1
            pub[V.P_LOG_LEN] = t
            rivals = table_reads(pub, seat, exposures, actions)
            stage = win_stage(pub)
            if stage == 0:
                own = bucket7[seat]
            elif stage == 1:
                own = bucket_held[seat]
            else:
                own = bucket5[seat]
            mine = value[seat]
            beaten = False
            tied = 1
            k = 0
            for s in range(n):
                if s == seat or pub[V.P_FOLDED + s] != 0:
                    continue
                theirs = value[s]
                out_pairs[r, 0, k] = exposures[k]
                out_pairs[r, 1, k] = actions[k]
                out_pairs[r, 2, k] = 2 if mine > theirs else (1 if mine == theirs else 0)
                beaten |= theirs > mine
                tied += theirs == mine
                k += 1
            share[r] = 0.0 if beaten else 1.0 / tied
            out_int[r, 0] = d
            out_int[r, 1] = seat
            out_int[r, 2] = rnd
            out_int[r, 3] = stage
            out_int[r, 4] = own
            out_int[r, 5] = rivals
            r += 1
            pub[V.P_LOG + t] = entry
            if action == V.A_FOLD:
                pub[V.P_FOLDED + seat] = 1
    return r


def decision_rows(chunk: LoggedChunk) -> DecisionRows:
    """Every betting decision of the deals of ``chunk`` (module docstring).

    Examples
    --------
    >>> from anaconda_sim.sim.logged import play_logged
    >>> chunks = []
    >>> _ = play_logged(3, "sensible", 20, 1, chunks.append)
    >>> rows = decision_rows(chunks[0])
    >>> int(rows.seat.size) == int(chunks[0].log_len.sum())
    True
    >>> bool(((rows.share >= 0) & (rows.share <= 1)).all())
    True
    """
    players = chunk.dealt.shape[1]
    capacity = int(chunk.log_len.sum())
    out_int = np.zeros((capacity, 6), dtype=np.int64)
    out_pairs = np.zeros((capacity, 3, RIVALS), dtype=np.int64)
    share = np.zeros(capacity, dtype=np.float64)
    count = _rows(players, chunk.dealt, chunk.cards, chunk.discards, chunk.log, chunk.log_len,
                  out_int, out_pairs, share)  # fmt: skip
    assert count == capacity
    return DecisionRows(
        deal=out_int[:, 0] + chunk.first,
        seat=out_int[:, 1],
        round=out_int[:, 2],
        stage=out_int[:, 3],
        bucket=out_int[:, 4],
        rivals=out_int[:, 5],
        exposures=out_pairs[:, 0],
        actions=out_pairs[:, 1],
        beats=out_pairs[:, 2],
        share=share,
    )
