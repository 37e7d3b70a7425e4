"""Deals played with their betting logs, chunk by chunk, as raw arrays.

What the equity estimate and its calibration learn from
(:mod:`anaconda_sim.learning.equity`): every seat's cards at every stage
and every betting action in order, which the per-deal records
(:mod:`~anaconda_sim.sim.records`) do not keep. The deals are
:func:`~anaconda_sim.sim.simulate`'s (same seed, same deals, the button
moving one seat per deal), played by the batch kernels with the log copied
out at the end of each deal; nothing is kept beyond one chunk, so memory
does not grow with the deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..limits import HAND_SIZE
from ..rng import SeedLike
from ..strategies.spec import Strategy
from ..table import views as V
from . import layout as L
from .driver import as_rules, start_run

__all__ = ["LOGGED_CHUNK", "LoggedChunk", "play_logged"]

#: deals per chunk: a logged result row is about 2 KiB
LOGGED_CHUNK = 8192


@dataclass(frozen=True)
class LoggedChunk:
    """One chunk of a logged run: its deals, from deal number ``first`` on.

    Attributes
    ----------
    dealer : (deals,) int64
        The dealer of each deal (R6).
    dealt : (deals, players, 7) int64
        Every seat's seven dealt cards (R5), in the order dealt.
    cards : (deals, players, 7) int64
        The cards each seat holds at the end: after its discard, the kept
        five in reveal order then -1, -1; without one (it folded before),
        the seven it held.
    discards : (deals, players, 2) int64
        The two discards, -1 without a discard.
    log : (deals, LOG_CAPACITY) int64
        The betting log (:mod:`~anaconda_sim.table.views` ``P_LOG`` codes),
        ``log_len`` entries of each row.
    log_len : (deals,) int64
    """

    first: int
    dealer: np.ndarray
    dealt: np.ndarray
    cards: np.ndarray
    discards: np.ndarray
    log: np.ndarray
    log_len: np.ndarray


def _chunk(rec: dict[str, np.ndarray], count: int, first: int, players: int) -> LoggedChunk:
    """A :class:`LoggedChunk` of the raw record arrays of one kernel call."""
    own = rec["own"][:count, 0].astype(np.int64)
    res = rec["res"][:count, 0]
    dealer = rec["dealer"][:count].astype(np.int64)
    deck = rec["deck"][:count].astype(np.int64).reshape(count, HAND_SIZE, players)
    # deck position j * players + i is card j of the seat (dealer + 1 + i) % players
    seats = (dealer[:, None] + 1 + np.arange(players)[None, :]) % players
    dealt = np.empty((count, players, HAND_SIZE), dtype=np.int64)
    rows = np.arange(count)[:, None]
    dealt[rows, seats] = deck.transpose(0, 2, 1)
    return LoggedChunk(
        first=first,
        dealer=dealer,
        dealt=dealt,
        cards=own[:, :, V.O_CARDS : V.O_CARDS + HAND_SIZE].copy(),
        discards=own[:, :, V.O_DISCARDS : V.O_DISCARDS + 2].copy(),
        log=res[:, L.REC_LOG : L.REC_LOG + V.LOG_CAPACITY].copy(),
        log_len=res[:, L.REC_LOG_LEN].copy(),
    )


def play_logged(
    players: int,
    strategies: str | Strategy | Sequence[str | Strategy],
    deals: int,
    seed: SeedLike,
    consume: Callable[[LoggedChunk], Any],
    *,
    chunk: int = LOGGED_CHUNK,
) -> int:
    """Play ``deals`` deals of the default rules at ``players`` seats, as
    :func:`~anaconda_sim.sim.simulate` does with ``seed`` (the same deals),
    and hand each chunk of them to ``consume`` as a :class:`LoggedChunk`.
    Returns the number of deals played (fewer than ``deals`` only when the
    run was interrupted).

    Examples
    --------
    >>> seen = []
    >>> play_logged(3, "sensible", 10, 1, seen.append)
    10
    >>> chunk = seen[0]
    >>> chunk.dealt.shape, bool((chunk.log_len > 0).all())
    ((10, 3, 7), True)
    """
    rules = as_rules(players)
    run = start_run(rules, strategies, deals, seed, 0, rotate=True, betting=True, fixed=None,
                    known=None, hero=-1, force=L.FORCE_NONE, choices=None, forced_pass=None,
                    records=False, batch_size=None, chunk_size=chunk, outcomes=True)  # fmt: skip
    run.log = True
    run.on_chunk = lambda rec, count, first: consume(_chunk(rec, count, first, players))
    run.execute(False)
    if run.interrupted:
        raise KeyboardInterrupt
    return run.done
