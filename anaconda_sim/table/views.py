"""What a seat may see, as flat int32 arrays that numba strategies read.

A strategy decision receives two arrays and nothing else about the deal:

``pub`` (:data:`PUB_SIZE` int32)
    The public table: everything every seat sees (docs/rules.md, Information):
    table size, dealer, stage, pot, the betting state of the current round,
    who has folded, every exposed card, and the log of every betting action.
``own`` (:data:`OWN_SIZE` int32)
    One seat's private row: its seat number, the cards it holds, the cards
    it passed (now in its left neighbour's hand) and received (from its right
    neighbour), and its discards.

Both engines (the reference :mod:`anaconda_sim.game.engine` and the batch
simulator) fill these arrays with the same numbers at the same moment, and
feed each seat's decisions from the same random stream, so a strategy makes
the same choices in both.

Offsets are module constants (``P_*`` into ``pub``, ``O_*`` into ``own``).
Unused card slots hold ``-1``.

Under the hi-lo rules (R21-R26) ``P_HILO`` is 1, ``P_DECLARING`` marks the
declaration and ``P_DECLARED`` holds every declaration once all are made
(:func:`pack_declarations`); a seat never sees another's declaration before.

Betting log entries (``pub[P_LOG + i]`` for ``i < pub[P_LOG_LEN]``) encode
``(round * 8 + seat) * 8 + action`` with ``action`` one of the ``A_*`` codes.
At most :data:`LOG_CAPACITY` actions are kept (a deal can never need more:
6 rounds x 31 actions at most). The *betting summary* sums the log up as one
int64 (:func:`summary_bit`: who bet or raised in which round, who called); a
reader keeps the summary of the first ``pub[P_SUMMARY_LEN]`` entries in
``pub[P_SUMMARY]`` (two 32-bit words), so the next reads only the entries
logged since. The log only grows within a deal; a table whose entries are
rewritten starts with ``P_SUMMARY_LEN`` 0.
"""

from __future__ import annotations

import numpy as np

from ..hands.declare import (
    DECLARE_BOTH,
    DECLARE_HIGH,
    DECLARE_LOW,
    DECLARE_NAMES,
    NO_DECLARATION,
)

__all__ = [
    "ACTION_NAMES",
    "A_BET",
    "A_CALL",
    "A_CHECK",
    "A_FOLD",
    "A_RAISE",
    "DECLARE_BOTH",
    "DECLARE_HIGH",
    "DECLARE_LOW",
    "DECLARE_NAMES",
    "INTENT_AGGRESSIVE",
    "INTENT_FOLD",
    "INTENT_PASSIVE",
    "LOG_CAPACITY",
    "NO_DECLARATION",
    "OWN_SIZE",
    "PUB_SIZE",
    "fill_summary",
    "log_entry",
    "log_fields",
    "new_own",
    "new_pub",
    "pack_declarations",
    "stored_summary",
    "summary_bit",
    "summary_words",
    "unpack_declarations",
]

# --- betting actions (engine action codes, also used in the log) ---------
A_FOLD = 0
A_CHECK = 1
A_CALL = 2
A_BET = 3
A_RAISE = 4
ACTION_NAMES = ("fold", "check", "call", "bet", "raise")

# --- what a betting strategy returns: an intent, mapped to a legal action --
# FOLD  -> fold if facing a bet, else check (folding for free is not legal, R13)
# PASSIVE -> check if nothing to call, else call
# AGGRESSIVE -> bet if nothing to call, else raise; call if the cap (R3) is reached
INTENT_FOLD = 0
INTENT_PASSIVE = 1
INTENT_AGGRESSIVE = 2

# --- decision kinds -------------------------------------------------------
D_BET = 0
D_PASS = 1
D_DISCARD = 2
D_DECLARE = 3  # hi-lo rules only (R22)

# --- declarations (hi-lo rules, R22): DECLARE_HIGH 0, DECLARE_LOW 1, DECLARE_BOTH 2,
# names DECLARE_NAMES, NO_DECLARATION -1 (defined in anaconda_sim.hands.declare) ----

# --- what a discard decision writes into its ``out`` array ------------------
OUT_DISCARDS = 0  # out[0:2]: the two discards
OUT_FIVE = 2  # out[2:7]: the kept five, in reveal order (the last one stays hidden)

# --- stages (pub[P_STAGE]) ------------------------------------------------
# 0: before the first pass; 1..k: after pass k; 100 + r: after reveal r (1..4)
STAGE_REVEAL = 100

# --- pub layout -----------------------------------------------------------
P_PLAYERS = 0  # number of seats at the table (2..7)
P_DEALER = 1  # dealer seat
P_STAGE = 2  # see STAGE_* above
P_ROUND = 3  # current betting round (0-based, every round of the deal); -1 outside betting
P_NROUNDS = 4  # number of betting rounds in a deal under these rules
P_POT = 5  # chips in the pot (antes included)
P_LEVEL = 6  # bets + raises made in the current round (0 = no bet yet)
P_MAX_LEVEL = 7  # cap: 1 bet + max raises (4 by default, R3)
P_BET_SIZE = 8  # chips per bet or raise
P_TO_ACT = 9  # seat to act; -1 during a pass or discard
P_OPENER = 10  # seat that opened the current betting round; -1 outside betting
P_ACTIVE = 11  # number of seats still in
# the three pass fields are all 0 outside a PASS phase
P_PASS_COUNT = 12  # cards to pass in the pass being decided
P_PASS_DIR = 13  # +1 = to the left (next seat clockwise), -1 = to the right
P_PASS_INDEX = 14  # which pass of the schedule (0-based)
P_REVEALED = 15  # cards each active seat has exposed (0..4)
P_FIVE_CARD = 16  # 1 if the showdown hand is the kept five (discard phase exists)
# the three hi-lo fields are all 0 under the high-only rules
P_HILO = 17  # 1 under the hi-lo rules with declarations (R21-R26)
P_DECLARING = 18  # 1 during the declaration (R22): every active seat declares in secret
P_DECLARED = 19  # the declarations once revealed (after the last one): pack_declarations
P_FOLDED = 20  # +seat: 1 if the seat has folded
P_IN_ROUND = 27  # +seat: chips the seat put in during this round
P_INVESTED = 34  # +seat: chips the seat put in this deal (ante included)
P_EXPOSED = 41  # +4*seat+j: j-th exposed card of seat, -1 if none (28 slots)
P_LOG_LEN = 69  # number of betting actions logged
# the betting summary (summary_bit: who bet or raised in which round, who
# called) of the log's first P_SUMMARY_LEN entries, kept by whoever reads it
# (0: none summed up; a writer that changes an entry below it sets it to 0)
P_SUMMARY_LEN = 70
P_SUMMARY = 71  # +0: its low 32 bits, +1: its high 32 bits
P_LOG = 73  # betting log entries
LOG_CAPACITY = 256
LOG_SEATS = 8  # seat field of a log entry: 0..7
LOG_ACTIONS = 8  # action field of a log entry: 0..7 (A_* codes)
_ACTION_SHIFT = LOG_ACTIONS.bit_length() - 1
_SEAT_SHIFT = LOG_SEATS.bit_length() - 1
assert 1 << _ACTION_SHIFT == LOG_ACTIONS and 1 << _SEAT_SHIFT == LOG_SEATS
PUB_SIZE = P_LOG + LOG_CAPACITY
#: bits of one seat in the betting summary: one per betting round in which
#: it bet or raised (rounds from the eighth on share the last), then one for
#: a call
SUMMARY_SEAT_BITS = 9
SUMMARY_CALLED_BIT = 8
assert 7 * SUMMARY_SEAT_BITS <= 63  # seven seats fit in an int64

# --- own layout -----------------------------------------------------------
O_SEAT = 0  # this seat's number
O_NCARDS = 1  # cards held now (7, or 5 after the discard)
O_CARDS = 2  # +i: held cards; after the discard, the five in reveal order
O_NPASSED = 9  # cards passed so far (all passes)
O_PASSED = 10  # +i, up to 6
O_NRECEIVED = 16  # cards received so far
O_RECEIVED = 17  # +i, up to 6
O_DISCARDS = 23  # +i, the two discards (-1 before the discard)
OWN_SIZE = 25


def log_entry(rnd: int, seat: int, action: int) -> int:
    """The betting-log code of ``action`` by ``seat`` in betting round ``rnd``.

    The one definition of the encoding (both engines use it; the kernels
    compile this same function).

    Examples
    --------
    >>> log_entry(1, 2, A_BET), log_fields(log_entry(1, 2, A_BET)) == (1, 2, A_BET)
    (83, True)
    """
    return (rnd * LOG_SEATS + seat) * LOG_ACTIONS + action


def log_fields(entry: int) -> tuple[int, int, int]:
    """``(round, seat, action)`` of a betting-log code (inverse of :func:`log_entry`)."""
    head, action = divmod(entry, LOG_ACTIONS)
    rnd, seat = divmod(head, LOG_SEATS)
    return rnd, seat, action


def summary_bit(entry: int) -> int:
    """What a betting-log entry adds to the betting summary: bit ``9 * seat
    + min(round, 7)`` for a bet or a raise, bit ``9 * seat + 8`` for a call,
    nothing (0) for a check or a fold. The fields are read with masks and
    shifts (``LOG_ACTIONS`` and ``LOG_SEATS`` are powers of two): the same
    numbers as :func:`log_fields`, and no sign fix-ups where numba compiles it.

    Examples
    --------
    >>> summary_bit(log_entry(1, 2, A_RAISE)) == 1 << (2 * SUMMARY_SEAT_BITS + 1)
    True
    >>> summary_bit(log_entry(0, 1, A_CALL)) == 1 << (SUMMARY_SEAT_BITS + SUMMARY_CALLED_BIT)
    True
    >>> summary_bit(log_entry(3, 1, A_CHECK))
    0
    """
    action = entry & (LOG_ACTIONS - 1)
    seat = (entry >> _ACTION_SHIFT) & (LOG_SEATS - 1)
    rnd = entry >> (_ACTION_SHIFT + _SEAT_SHIFT)
    if action == A_BET or action == A_RAISE:
        return 1 << (SUMMARY_SEAT_BITS * seat + min(rnd, SUMMARY_CALLED_BIT - 1))
    if action == A_CALL:
        return 1 << (SUMMARY_SEAT_BITS * seat + SUMMARY_CALLED_BIT)
    return 0


def summary_words(summary: int) -> tuple[int, int]:
    """``pub[P_SUMMARY]`` and ``pub[P_SUMMARY + 1]`` of a betting summary:
    its low and high 32 bits, each as a signed 32-bit number."""
    low = summary & 0xFFFFFFFF
    if low >= 1 << 31:
        low -= 1 << 32
    return low, summary >> 32


def stored_summary(pub) -> int:
    """The betting summary held in ``pub[P_SUMMARY]`` (:func:`summary_words`)."""
    return (int(pub[P_SUMMARY + 1]) << 32) | (int(pub[P_SUMMARY]) & 0xFFFFFFFF)


def fill_summary(pub) -> None:
    """Write the betting summary of ``pub``'s whole log into the table
    (``P_SUMMARY``, ``P_SUMMARY_LEN``): a reader then reads it, writing
    nothing (the tables several threads read at once hold it).

    Examples
    --------
    >>> pub = new_pub()
    >>> pub[P_LOG], pub[P_LOG + 1] = log_entry(0, 1, A_BET), log_entry(0, 2, A_CALL)
    >>> pub[P_LOG_LEN] = 2
    >>> fill_summary(pub)
    >>> int(pub[P_SUMMARY_LEN]), stored_summary(pub) == summary_bit(int(pub[P_LOG])) | (
    ...     summary_bit(int(pub[P_LOG + 1])))
    (2, True)
    """
    length = int(pub[P_LOG_LEN])
    summary = 0
    for i in range(length):
        summary |= summary_bit(int(pub[P_LOG + i]))
    pub[P_SUMMARY], pub[P_SUMMARY + 1] = summary_words(summary)
    pub[P_SUMMARY_LEN] = length


def pack_declarations(declarations) -> int:
    """``pub[P_DECLARED]``: ``sum((code + 1) << (2 * seat))``; 0 for a seat without one.

    Examples
    --------
    >>> packed = pack_declarations([DECLARE_LOW, NO_DECLARATION, DECLARE_BOTH])
    >>> packed, unpack_declarations(packed, 3)
    (50, [1, -1, 2])
    """
    packed = 0
    for seat, code in enumerate(declarations):
        if code != NO_DECLARATION:
            packed |= (int(code) + 1) << (2 * seat)
    return packed


def unpack_declarations(packed: int, players: int) -> list[int]:
    """The declaration code of each seat (``NO_DECLARATION`` for none); inverse of
    :func:`pack_declarations`."""
    return [((int(packed) >> (2 * seat)) & 3) - 1 for seat in range(players)]


def new_pub() -> np.ndarray:
    """An empty public table: zeros, with every card slot set to -1."""
    pub = np.zeros(PUB_SIZE, dtype=np.int32)
    pub[P_EXPOSED : P_EXPOSED + 28] = -1
    pub[P_TO_ACT] = -1
    pub[P_ROUND] = -1
    return pub


def new_own(seat: int) -> np.ndarray:
    """An empty private row for ``seat``: every card slot set to -1."""
    own = np.full(OWN_SIZE, -1, dtype=np.int32)
    own[O_SEAT] = seat
    own[O_NCARDS] = 0
    own[O_NPASSED] = 0
    own[O_NRECEIVED] = 0
    return own
