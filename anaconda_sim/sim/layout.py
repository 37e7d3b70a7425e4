"""The name of every slot of every array the simulator's kernels share.

The kernels work on flat integer arrays (numba has no cheap records), so the
meaning of each index is defined here, once, and both the kernels and the
Python code that fills or reads the arrays use these names. The seat views
``pub``/``own`` that strategies read have their own layout in
:mod:`anaconda_sim.table.views`; strategy parameters are named in
:mod:`anaconda_sim.strategies`.

Arrays
------
``cfg`` (``int64[CFG_SIZE]``)
    One run's configuration: ``C_*``.
``passes`` (``int64[passes, PASS_FIELDS]``)
    The pass schedule of the rules: ``PASS_*``.
``res`` (``int64[RES_SIZE]``)
    One deal's result: ``R_*``.
``seat_res`` (``int64[players, SEAT_RES_SIZE]``)
    One deal's result per seat: ``S_*``.
``dec`` (``int64[players, DEC_SIZE]``)
    Per-seat decision scratch: ``DEC_*``.
``states`` (``uint64[STATES_ROWS, 1]``)
    Random streams of one deal, one row per stream number of
    :mod:`anaconda_sim.rng`: ``STREAM_DECK`` deals the cards,
    ``STREAM_SEAT + seat`` feeds that seat's decisions.
``acc_seat`` (``int64[batches, choices, players, ACC_SEAT_SIZE]``)
    Per-seat sums: ``AS_*``.
``acc_deal`` (``int64[batches, choices, ACC_DEAL_SIZE]``)
    Per-deal sums: ``AD_*``.
``acc_cross`` (``int64[batches, ACC_CROSS_SIZE, choices, choices]``)
    The hero's cross-products between choices: ``AX_*``.
"""

from __future__ import annotations

from typing import Any

from numba import types

from ..limits import MAX_PLAYERS
from ..strategies.kinds import CACHE_SIZE
from ..table.views import LOG_CAPACITY

# --- the analyses' table: the hero at seat 0, its left neighbour at seat 1,
#     its right neighbour at seat players - 1 ---------------------------------------
HERO = 0
LEFT = 1

# --- cfg: one run's configuration ---------------------------------------------
C_N = 0  # players
C_ANTE = 1  # chips each seat antes (R3)
C_BET = 2  # chips per bet or raise
C_MAX_LEVEL = 3  # cap: 1 bet + max raises (R3)
C_DISCARD = 4  # 1 if the discard phase exists
C_REVEAL = 5  # 1 if progressive reveal
C_NPASSES = 6  # passes in the schedule
C_NROUNDS = 7  # betting rounds of a full deal
C_BETTING = 8  # 0: nobody bets (every betting decision is a check)
C_HERO = 9  # seat whose choices are forced (-1: none)
C_FORCE = 10  # FORCE_* kind of the forced choice
C_DEALER = 11  # dealer of deal 0 (or of every deal without rotation)
C_ROTATE = 12  # 1: the button moves one seat per deal (R6)
C_RANDOM_CARDS = 13  # cards drawn from the deck per deal (7n minus fixed cards)
C_HAS_CPASS = 14  # the custom strategy has its own pass function
C_HAS_CDISCARD = 15  # ... its own discard function
C_RECORD = 16  # 1: write per-deal records
C_HILO = 17  # 1: hi-lo showdown with declarations (R21-R26), 0: high showdown
#: +seat: the row of ``params`` the seat's decisions read: seats of one strategy
#: share the first one's row, so the kernels keep one copy of it in the cache,
#: not one a seat (``driver.share_param_rows``; ``make_cfg``: each its own)
C_PARAM_ROW = 18
CFG_SIZE = C_PARAM_ROW + MAX_PLAYERS

# --- the hero's forced choice (cfg[C_FORCE]) ------------------------------------
FORCE_NONE = 0
FORCE_PASS = 1  # the three cards passed in the first pass
FORCE_DISCARD = 2  # two discards then the kept five in reveal order (7 cards)
FORCE_ORDER = 3  # the kept five in reveal order (the two others are discarded)
FORCE_DECLARE = 4  # the hi-lo declaration, DECLARE_* code (1 value)
#: the kept five in reveal order, then the hi-lo declaration (6 values)
FORCE_ORDER_DECLARE = 5

# --- passes: the pass schedule, one row per pass ----------------------------------
PASS_COUNT = 0  # cards passed
PASS_DIRECTION = 1  # +1 to the left, -1 to the right
PASS_FIELDS = 2

#: betting rounds in a deal at most: 1 + 3 passes + 4 reveals
MAX_ROUNDS = 8

# --- res: one deal's result -------------------------------------------------------
R_POT = 0  # chips in the pot at the end
R_SHOWDOWN = 1  # 1 if the deal reached the showdown
R_WINNERS = 2  # bit mask of the seats sharing the pot
R_MISSED = 3  # 1 if a forced choice could not be applied (cards not held)
R_ROUNDS = 4  # betting rounds started
RES_SIZE = 5
#: a run that keeps the betting log records each deal's ``res`` row wider:
#: the log's length, then its entries (views.P_LOG's codes)
REC_LOG_LEN = RES_SIZE
REC_LOG = RES_SIZE + 1
REC_RES_LOGGED = REC_LOG + LOG_CAPACITY

# --- seat_res: one deal's result per seat -------------------------------------------
S_NET = 0  # net chips won (pot share minus chips put in)
S_FOLD = 1  # round folded in, -1 if never
S_SHARE = 2  # share of the pot won, in 1/SHARE_SCALE (stats.SHARE_SCALE)
S_CAT = 3  # final hand category at the showdown, -1 if none
S_VALUE = 4  # final hand value at the showdown, -1 if none
# hi-lo showdown only (C_HILO); untouched otherwise
S_DECLARE = 5  # DECLARE_* code of the seat's declaration, -1 if none (folded, ended early)
S_HIGH_SHARE = 6  # share of the pot taken in the high half (1/SHARE_SCALE)
S_LOW_SHARE = 7  # share of the pot taken in the low half (1/SHARE_SCALE)
S_LOW_VALUE = 8  # low value at the showdown (hands.low), -1 if none
S_FLAGS = 9  # hands.hilo flags: WON_HIGH, WON_LOW, SWING_FAILED
SEAT_RES_SIZE = 10

# --- dec: per-seat decision scratch -------------------------------------------------
DEC_OUT = 0  # +i: a decision's cards: the packet passed, or 2 discards + 5 in reveal order
DEC_VALUE = 7  # value of the five kept at the discard when the choice gave it, else -1
#: +i: the seat's cache for its strategy's decisions (strategies.kinds.CACHE_*)
DEC_CACHE = 8
DEC_CACHE_END = DEC_CACHE + CACHE_SIZE
DEC_SIZE = 16
assert DEC_CACHE_END <= DEC_SIZE

# --- states: the random streams of one deal, one row per stream number ------------------
#: rows of ``states``: rng.STREAM_DECK, then rng.STREAM_SEAT + seat for seats 0..6
STATES_ROWS = 8

# --- acc_seat: per-seat sums ------------------------------------------------------------
AS_NET = 0  # sum of net chips
AS_NET_SQ = 1  # sum of squared net chips
AS_SHARE = 2  # sum of pot shares (1/SHARE_SCALE)
AS_SOLE_WINS = 3  # deals won alone
AS_SPLIT_WINS = 4  # deals with a share of a split pot
AS_SHOWDOWNS = 5  # showdowns reached
# hi-lo showdown only (C_HILO)
AS_HIGH_SHARE = 6  # sum of high-half shares (1/SHARE_SCALE)
AS_LOW_SHARE = 7  # sum of low-half shares (1/SHARE_SCALE)
AS_HIGH_WINS = 8  # showdowns in which the seat won or tied the high half
AS_LOW_WINS = 9  # showdowns in which the seat won or tied the low half
AS_DECLARE = 10  # +d: declarations DECLARE_HIGH, DECLARE_LOW, DECLARE_BOTH made
AS_SWING_FAILED = 13  # declared both and took nothing (R24)
ACC_SEAT_SIZE = 14

# --- acc_deal: per-deal sums -----------------------------------------------------------
AD_POT = 0  # sum of final pots
AD_SHOWDOWNS = 1  # deals that reached a showdown
AD_MISSED = 2  # deals where the forced choice could not be applied
AD_DEALS = 3  # deals played
AD_POT_SQ = 4  # sum of squared final pots
ACC_DEAL_SIZE = 5

# --- acc_cross: the hero's cross-products between choices ---------------------------------
AX_NET = 0  # sum of net_k * net_j
AX_SHARE = 1  # sum of share_k * share_j (1/SHARE_SCALE**2)
ACC_CROSS_SIZE = 2

# --- the right neighbour's packet to the hero in the analyses' models ------
#: ``right_forced[0]`` when the packet is unknown and three of the hero's cards
#: are drawn for it per deal, the neighbour's four unconditioned (a neighbour
#: that passes at random)
RIGHT_DRAWN = -1
#: ... when it is unknown and drawn with the neighbour's four from their
#: posterior (:func:`~anaconda_sim.sim.kernels.showdown.opponents_after_pass`)
RIGHT_POSTERIOR = -2


def c_array(dtype: Any, ndim: int) -> Any:
    """The numba type of a C-contiguous ``ndim``-dimensional array of
    ``dtype``: how the kernels' compile jobs name the arrays above."""
    return types.Array(dtype, ndim, "C")
