"""The parameters of the ``"learned"`` strategy family: their names, slots,
starting values, and the vectors shipped for each table size.

Every decision of the family is driven by this one vector (see
:mod:`anaconda_sim.strategies.learned.play`):

- ``w_*``: the weights of the pass score, one per feature of
  :data:`PASS_FEATURES` (the kept four, and what the passed three give the
  left neighbour);
- ``o_*``: the weights of the reveal-order score, one per feature of
  :data:`ORDER_FEATURES` (what the four shown cards and the hidden one tell
  the table, R11); the kept five are the best five;
- ``bet_r0`` .. ``bet_r4``: with no bet to call, bet when the estimated
  probability of winning is at least this, before the reveals (``r0``) and in
  reveal rounds 1-4;
- ``raise_r0`` .. ``raise_r4``: facing a bet, raise at least this;
- ``call_r0`` .. ``call_r4``: facing a bet, call when the probability of
  winning is at least this multiple of the pot odds' break-even
  probability ``to_call / (pot + to_call)``, fold otherwise;
- ``bluff``: the probability of betting or raising anyway;
- the **win table** (:data:`WIN_TABLE_SHAPE`, not named, after the named
  parameters): the probability that a hand of own-strength bucket ``b``
  beats one rival showing exposure bucket ``e`` at stage ``s``, estimated by
  simulation (:mod:`anaconda_sim.strategies.learned.winprob`);
- the **pass tables** (after the win table): the pass score's terms
  computed once per vector
  (:func:`~anaconda_sim.strategies.learned.passtables.fill_pass_tables`), which the pass reads
  instead of computing them. They are derived from the pass weights when a
  strategy's array is built (:meth:`~anaconda_sim.strategies.Strategy.param_array`),
  never given, written or compared: not a parameter, not in a spec, a
  table file or a history.

The shipped vectors (``anaconda_sim/strategies/learned/data/learned.json``) are the
results of :func:`anaconda_sim.strategies.learned.learn` at each table size; the
command that regenerates them is in that file and in ``data/README.md``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import numpy as np

from ...table.rules import REVEAL_ROUNDS
from ..ranges import ParameterRange

__all__ = [
    "BET_NAMES",
    "LEARNED_DEFAULTS",
    "LEARNED_RANGES",
    "ORDER_FEATURES",
    "PARAM_NAMES",
    "PASS_FEATURES",
    "READ_BET_NAMES",
    "READ_DEFAULTS",
    "READ_PARAM_NAMES",
    "READ_RANGES",
    "WIN_TABLE_SHAPE",
    "shipped_params",
    "shipped_read_params",
    "shipped_win_table",
]

#: features of one pass (the kept four, the passed three), in weight order
PASS_FEATURES = (
    "pairs",  # distinct paired ranks among the kept four (0..2)
    "trips",  # 1 if three or four of a rank are kept
    "high",  # sum of the kept ranks / 48 (deuce 0 .. ace 12)
    "pair_rank",  # rank of the highest kept pair / 12 (0 without one)
    "flush4",  # 1 if the kept four are suited
    "flush3",  # 1 if exactly three kept cards share a suit
    "open_straight",  # four consecutive kept ranks open at both ends
    "gutshot",  # four kept ranks one card short of a straight otherwise
    "gift_pair",  # 1 if the passed three hold a pair (the left neighbour's gain)
    "gift_suited",  # (most passed cards of one suit - 1) / 2
    "gift_connected",  # passed rank pairs at most two apart / 3
    "gift_high",  # sum of the passed ranks / 36
)
N_PASS = len(PASS_FEATURES)
#: features of one reveal order of the kept five (four shown in turn, the
#: fifth hidden), in weight order
ORDER_FEATURES = (
    "hide_group",  # 1 if the hidden card's rank is paired or better among the five
    "hide_rank",  # rank of the hidden card / 12
    "shown_category",  # R11 category of the four shown (none .. quads) / 4
    "shown_draw",  # 1 if the four shown are suited or four to a straight
    "shown_high",  # sum of the shown ranks / 48
    "first_rank",  # rank of the first card shown / 12
    "early_groups",  # (R11 category of the first two + of the first three shown) / 8
)
N_ORDER = len(ORDER_FEATURES)
#: order features computed from the four shown as a set (the first
#: ``N_SHOWN`` of :data:`ORDER_FEATURES`); the others depend on their order
N_SHOWN = 5
#: betting rounds with their own thresholds: before the reveals, then reveal rounds 1-4
ROUNDS = 1 + REVEAL_ROUNDS
BET_NAMES = (
    *(f"bet_r{r}" for r in range(ROUNDS)),
    *(f"raise_r{r}" for r in range(ROUNDS)),
    *(f"call_r{r}" for r in range(ROUNDS)),
    "bluff",
)
PARAM_NAMES = (*(f"w_{f}" for f in PASS_FEATURES), *(f"o_{f}" for f in ORDER_FEATURES),
               *BET_NAMES)  # fmt: skip

# slots in the parameter array
W0 = 0
O0 = N_PASS
BET0 = N_PASS + N_ORDER
RAISE0 = BET0 + ROUNDS
CALL0 = BET0 + 2 * ROUNDS
BLUFF = BET0 + 3 * ROUNDS
N_PARAMS = len(PARAM_NAMES)
assert BLUFF == N_PARAMS - 1
#: the slot of each pass weight, in :data:`PASS_FEATURES` order
(W_PAIRS, W_TRIPS, W_HIGH, W_PAIR_RANK, W_FLUSH4, W_FLUSH3, W_OPEN_STRAIGHT, W_GUTSHOT,
 W_GIFT_PAIR, W_GIFT_SUITED, W_GIFT_CONNECTED, W_GIFT_HIGH) = range(W0, W0 + N_PASS)  # fmt: skip
#: the slot of each order weight, in :data:`ORDER_FEATURES` order
(O_HIDE_GROUP, O_HIDE_RANK, O_SHOWN_CATEGORY, O_SHOWN_DRAW, O_SHOWN_HIGH, O_FIRST_RANK,
 O_EARLY_GROUPS) = range(O0, O0 + N_ORDER)  # fmt: skip

#: stages of the win table: before the first pass, after it (seven cards
#: held, nothing shown), then reveal rounds 1-4 (five cards, 1-4 shown)
WIN_STAGES = 2 + REVEAL_ROUNDS
#: strength buckets of the seat's own cards (:data:`~.winprob.OWN_BUCKET`)
OWN_BUCKETS = 12
#: buckets of what one rival shows (:func:`~.winprob.exposure_bucket`)
EXPOSURE_BUCKETS = 8
WIN_TABLE_SHAPE = (WIN_STAGES, OWN_BUCKETS, EXPOSURE_BUCKETS)
WIN_TABLE_SIZE = WIN_STAGES * OWN_BUCKETS * EXPOSURE_BUCKETS
#: first slot of the win table in the parameter array
TABLE0 = N_PARAMS
#: the pass weights of the kept four's features (the first eight of
#: :data:`PASS_FEATURES`), which the kept-score table is derived from
N_KEPT = 8
#: rank multisets of four kept cards (four of 16 in the combinatorial
#: number system: ``r_t + t`` for the sorted ranks ``r_0 <= r_1 <= r_2 <= r_3``)
KEPT_MULTISETS = 1820
#: suit classes of the kept four: none, exactly three suited, four suited
KEPT_SUIT_CLASSES = 3
KEPT_TABLE_SIZE = KEPT_MULTISETS * KEPT_SUIT_CLASSES
#: codes of the passed three (:func:`~.passtables.gift_code`): the number of their pairs
#: (of three) of one suit, plus 4 times those of one rank, plus 16 times
#: those one or two ranks apart
GIFT_CODES = 64
#: sums of three passed ranks (0 to 36)
GIFT_SUMS = 37
#: the gift-term table: ``w_gift_pair``, ``w_gift_suited`` and
#: ``w_gift_connected`` times their feature by code, then ``w_gift_high``
#: times its feature by rank sum
GIFT_TABLE_SIZE = 3 * GIFT_CODES + GIFT_SUMS
#: first slot of the copy of the pass weights the pass tables were built
#: from (the pass reads the tables only where it equals the weights)
PASS_STAMP0 = TABLE0 + WIN_TABLE_SIZE
#: first slot of the kept-score table (:func:`~.passtables.kept_score_table`)
KEPT_TABLE0 = PASS_STAMP0 + N_PASS
#: first slot of the gift-term table (:func:`~.passtables.gift_term_table`), and of each
#: of its four parts
GIFT_TABLE0 = KEPT_TABLE0 + KEPT_TABLE_SIZE
(GIFT_PAIR0, GIFT_SUITED0, GIFT_CONNECTED0, GIFT_HIGH0) = (
    GIFT_TABLE0 + f * GIFT_CODES for f in range(4))  # fmt: skip
#: the end of the pass tables, derived from the pass weights
#: (:func:`~.passtables.fill_pass_tables`)
PASS_TABLES_END = GIFT_TABLE0 + GIFT_TABLE_SIZE

# --- the board-reading betting and its equity estimate -----------------------
#: classes of what one rival did this deal (:func:`~.reads.action_class`)
ACTION_CLASSES = 6
#: rivals a seat can face: 1 to 6
RIVALS = 6
#: points of each curve of the equity estimate
CURVE_POINTS = 20
FACTOR_SHAPE = (WIN_STAGES, OWN_BUCKETS, EXPOSURE_BUCKETS, ACTION_CLASSES)
FACTOR_SIZE = WIN_STAGES * OWN_BUCKETS * EXPOSURE_BUCKETS * ACTION_CLASSES
CURVE_SHAPE = (WIN_STAGES, RIVALS, CURVE_POINTS)
CURVE_SIZE = WIN_STAGES * RIVALS * CURVE_POINTS
#: slots of an equity array: the factor table, then the curve table
EQUITY_SIZE = FACTOR_SIZE + CURVE_SIZE
#: groups of betting rounds with parameters of their own: before the
#: reveals, reveal rounds 1-2, reveal rounds 3-4
READ_GROUPS = ("r0", "r12", "r34")
#: what a seat shows, for its bluffs: nothing yet (before the reveals),
#: nothing of note, a four-card draw, a pair or better (R11)
BOARD_CLASSES = ("hidden", "weak", "draw", "strong")
#: the parameters of the board-reading betting (:mod:`~.readbet`)
READ_BET_NAMES = (
    *(f"bet_margin_{g}" for g in READ_GROUPS),
    *(f"raise_margin_{g}" for g in READ_GROUPS),
    *(f"call_factor_{g}" for g in READ_GROUPS),
    *(f"bluff_{b}" for b in BOARD_CLASSES),
)
N_READ_BET = len(READ_BET_NAMES)
#: the names of the board-reading family (``"learned"``): the card play's
#: weights, then its betting
READ_PARAM_NAMES = (*PARAM_NAMES[:BET0], *READ_BET_NAMES)
#: 1.0 where the family bets on the board-reading estimate (``"learned"``),
#: 0.0 on the win table (``"learned-v1"``)
READS_MODE = PASS_TABLES_END
#: first slot of the board-reading betting's parameters, and of each kind
READ0 = READS_MODE + 1
BET_MARGIN0 = READ0
RAISE_MARGIN0 = READ0 + len(READ_GROUPS)
CALL_FACTOR0 = READ0 + 2 * len(READ_GROUPS)
BOARD_BLUFF0 = READ0 + 3 * len(READ_GROUPS)
#: first slot of the equity tables (:mod:`~.reads`)
EQUITY0 = READ0 + N_READ_BET

# --- the reveal order read off what it shows the table -----------------------
#: reveal rounds whose exposure the show table scores: after the second, the
#: third and the fourth card (one card shown reads as nothing, R11)
SHOW_ROUNDS = 3
#: the show table: the score of showing exposure bucket ``b`` after reveal
#: round ``2 + k``, for a kept five of own-strength bucket ``own``
SHOW_SHAPE = (OWN_BUCKETS, SHOW_ROUNDS, EXPOSURE_BUCKETS)
SHOW_SIZE = OWN_BUCKETS * SHOW_ROUNDS * EXPOSURE_BUCKETS
#: the keep table of the discard (:func:`~.show.discard_shown`): a score per
#: own-strength bucket of the kept five, then the weight of the five's best
#: show score
KEEP_SIZE = OWN_BUCKETS + 1
#: a show array: the temperature of the order's draw, the show table, the
#: keep table, then the temperature of the discard's draw (what a strategy
#: of its own holds, :attr:`~anaconda_sim.strategies.Strategy.show`; an
#: array one shorter, written before the discard had a temperature, reads
#: as one whose discard's is 0)
SHOW_ARRAY_SIZE = 1 + SHOW_SIZE + KEEP_SIZE + 1
#: 1.0 where the family's reveal order is read off the show table
#: (:mod:`~.show`), 0.0 where it is scored by the order weights ``o_*``
SHOW_MODE = EQUITY0 + EQUITY_SIZE
#: the temperature of the order's draw (:func:`~.show.order_shown`; 0: the
#: order of best score), then the show table
SHOW_TAU = SHOW_MODE + 1
SHOW0 = SHOW_TAU + 1
#: first slot of the keep table, and the slot of its show weight
KEEP0 = SHOW0 + SHOW_SIZE
KEEP_SHOW = KEEP0 + OWN_BUCKETS
#: the temperature of the discard's draw among the fives
#: (:func:`~.show.discard_shown`; 0: the five of best score)
KEEP_TAU = KEEP0 + KEEP_SIZE
#: first slot of the keep bounds: per own bucket, the best show score any
#: five of the bucket has, derived from the show table when a strategy's
#: array is built (:func:`~.show.fill_discard_tables`), never given
KEEP_BOUND0 = KEEP_TAU + 1
#: show classes of a kept five: fives of one class have the same own bucket
#: and the same best show score under every show table
#: (:data:`~.show.FIVE_SHOW_CLASS`)
SHOW_CLASSES = 30
#: first slot of each show class's best show score, derived with the keep
#: bounds (:func:`~.show.fill_discard_tables`), never given
SHOW_BEST0 = KEEP_BOUND0 + OWN_BUCKETS
#: 1.0 where the bounds of the betting's estimate (:data:`BET_BOUNDS0`) are
#: derived from the equity tables beside them, 0.0 where they are not there
#: (an array written by hand): then every bet computes its estimate
BET_BOUNDS_MODE = SHOW_BEST0 + SHOW_CLASSES
#: the betting states the bounds tell apart: nobody has bet in this round,
#: the seat faces the round's one bet, the seat faces a raise
#: (:func:`~.readbet.bet_state`)
BET_STATES = 3
#: the bounds of the betting's estimate: per win stage, own bucket, number
#: of active rivals (1 to :data:`RIVALS`) and betting state, the least and
#: the most estimate any rivals' reads give, widened by a rounding margin
#: (:func:`~.readbet.fill_bet_bounds`, when a strategy's array is built;
#: never given)
BET_BOUNDS_SHAPE = (WIN_STAGES, OWN_BUCKETS, RIVALS, BET_STATES, 2)
BET_BOUNDS0 = BET_BOUNDS_MODE + 1
BET_BOUNDS_SIZE = WIN_STAGES * OWN_BUCKETS * RIVALS * BET_STATES * 2
#: the cuts of the product of the rivals' factors: per win stage, number of
#: active rivals, group of rounds (:data:`READ_GROUPS`) and test (0: bet
#: with nothing to call, 1: raise), the product below which the estimate
#: fails the test and the product from which it passes it, widened by a
#: rounding margin (:func:`~.readbet.fill_bet_bounds`; never given)
BET_CUTS_SHAPE = (WIN_STAGES, RIVALS, len(READ_GROUPS), 2, 2)
BET_CUTS0 = BET_BOUNDS0 + BET_BOUNDS_SIZE
BET_CUTS_SIZE = WIN_STAGES * RIVALS * len(READ_GROUPS) * 2 * 2
#: the call test's price (``call_factor_g * to_call / (pot + to_call)``, the
#: least estimate that calls) in bins of :data:`CALL_PRICE_STEP`: the last
#: bin holds every price from its start up
CALL_PRICE_BINS = 40
CALL_PRICE_STEP = 1.0 / 64.0
#: the cuts of the product of the rivals' factors for the call test: per
#: win stage, number of active rivals and bin of the price, the product
#: below which the estimate is below every price of the bin and the product
#: from which it is at or above every one, widened by a rounding margin
#: (:func:`~.readbet.fill_bet_bounds`; never given)
CALL_CUTS_SHAPE = (WIN_STAGES, RIVALS, CALL_PRICE_BINS, 2)
CALL_CUTS0 = BET_CUTS0 + BET_CUTS_SIZE
CALL_CUTS_SIZE = WIN_STAGES * RIVALS * CALL_PRICE_BINS * 2
#: slots the family uses: the named parameters, the win table, the pass
#: tables, the board-reading betting and its equity tables, then the show
#: table and its mode, what the discard derives from the show table, and
#: the bounds and cuts the betting derives from its equity tables
LEARNED_SLOTS = CALL_CUTS0 + CALL_CUTS_SIZE

#: the starting point of learning: a pass close to "sensible"'s (keep groups
#: and high cards), a reveal order close to its (hide a grouped, high card,
#: show groups late); bet as a favourite against the table (win probability
#: 0.5), raise at 0.7, call at the pot odds' break-even probability
LEARNED_DEFAULTS: dict[str, float] = {
    "w_pairs": 2.0, "w_trips": 3.0, "w_high": 1.0, "w_pair_rank": 0.5, "w_flush4": 0.0,
    "w_flush3": 0.0, "w_open_straight": 0.0, "w_gutshot": 0.0, "w_gift_pair": 0.0,
    "w_gift_suited": 0.0, "w_gift_connected": 0.0, "w_gift_high": 0.0,
    "o_hide_group": 2.0, "o_hide_rank": 0.5, "o_shown_category": -1.0, "o_shown_draw": 0.0,
    "o_shown_high": 0.0, "o_first_rank": -0.25, "o_early_groups": -1.0,
    "bet_r0": 0.5, "bet_r1": 0.5, "bet_r2": 0.5, "bet_r3": 0.5, "bet_r4": 0.5,
    "raise_r0": 0.7, "raise_r1": 0.7, "raise_r2": 0.7, "raise_r3": 0.7, "raise_r4": 0.7,
    "call_r0": 1.0, "call_r1": 1.0, "call_r2": 1.0, "call_r3": 1.0, "call_r4": 1.0,
    "bluff": 0.0,
}  # fmt: skip
assert tuple(LEARNED_DEFAULTS) == PARAM_NAMES

#: what each parameter may be, by its name's prefix: the pass and order
#: weights any finite number, the bet and raise thresholds a win
#: probability (above 1: never), the call threshold a multiple of the pot
#: odds' break-even probability (0: call everything), the bluff frequency a
#: probability
_RANGE_BY_PREFIX = {
    "w": ParameterRange(-1e3, 1e3, False, "a pass feature's weight"),
    "o": ParameterRange(-1e3, 1e3, False, "a reveal order feature's weight"),
    "bet": ParameterRange(0.0, 2.0, False, "a win probability, above 1 never"),
    "raise": ParameterRange(0.0, 2.0, False, "a win probability, above 1 never"),
    "call": ParameterRange(0.0, 100.0, False, "a multiple of the pot odds' break-even probability"),
    "bluff": ParameterRange(0.0, 1.0, False, "a probability"),
}
LEARNED_RANGES: dict[str, ParameterRange] = {
    name: _RANGE_BY_PREFIX[name.split("_")[0]] for name in PARAM_NAMES
}


#: the board-reading betting's starting point (before it is fitted): bet with
#: an edge of 30% over the fair share, raise with one of 100%, call at the pot
#: odds' break-even, never bluff
READ_DEFAULTS: dict[str, float] = {
    **{f"bet_margin_{g}": 0.3 for g in READ_GROUPS},
    **{f"raise_margin_{g}": 1.0 for g in READ_GROUPS},
    **{f"call_factor_{g}": 1.0 for g in READ_GROUPS},
    **{f"bluff_{b}": 0.0 for b in BOARD_CLASSES},
}
assert tuple(READ_DEFAULTS) == READ_BET_NAMES

#: what the board-reading betting's parameters may be: a margin is an edge
#: ``p (k + 1) - 1`` over the fair share (from -1, always, to 6, never at
#: seven seats), a call factor a multiple of the pot odds' break-even
#: probability, a bluff frequency a probability
_READ_RANGE_BY_PREFIX = {
    "bet": ParameterRange(-1.0, 6.0, False, "an edge over the fair share of the pot"),
    "raise": ParameterRange(-1.0, 6.0, False, "an edge over the fair share of the pot"),
    "call": ParameterRange(0.0, 100.0, False, "a multiple of the pot odds' break-even probability"),
    "bluff": ParameterRange(0.0, 1.0, False, "a probability"),
}
#: the parameters of the board-reading family (``"learned"``) and their ranges
READ_RANGES: dict[str, ParameterRange] = {
    **{name: LEARNED_RANGES[name] for name in PARAM_NAMES[:BET0]},
    **{name: _READ_RANGE_BY_PREFIX[name.split("_")[0]] for name in READ_BET_NAMES},
}
assert tuple(READ_RANGES) == READ_PARAM_NAMES

#: the board-reading betting's vectors by table size, fitted against the
#: field that plays them (:mod:`anaconda_sim.learning.readfit`)
READ_BET_FILE = "data/readbet.json"


@functools.cache
def _shipped_reads() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(READ_BET_FILE).read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def shipped_read_params(players: int) -> dict[str, float]:
    """The board-reading betting's parameters shipped for ``players`` (2-7), by name.

    Examples
    --------
    >>> sorted(shipped_read_params(6)) == sorted(READ_BET_NAMES)
    True
    """
    tables = _shipped_reads()["players"]
    if str(players) not in tables:
        raise ValueError(
            f"no board-reading betting for players={players}; it is shipped for "
            f"{', '.join(sorted(tables))}"
        )
    values = tables[str(players)]["params"]
    return {name: float(values[name]) for name in READ_BET_NAMES}


@functools.cache
def _shipped() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/learned.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def shipped_params(players: int) -> dict[str, float]:
    """The learned parameters shipped for ``players`` (2-7), by name.

    Examples
    --------
    >>> sorted(shipped_params(6)) == sorted(PARAM_NAMES)
    True
    """
    tables = _shipped()["players"]
    if str(players) not in tables:
        raise ValueError(
            f"no learned parameters for players={players}; they are shipped for "
            f"{', '.join(sorted(tables))}"
        )
    values = tables[str(players)]["params"]
    return {name: float(values[name]) for name in PARAM_NAMES}


def shipped_win_table(players: int) -> np.ndarray:
    """The win table shipped for ``players`` (2-7), flat (:data:`WIN_TABLE_SIZE`).

    Examples
    --------
    >>> shipped_win_table(6).reshape(WIN_TABLE_SHAPE).shape
    (6, 12, 8)
    """
    shipped_params(players)  # the same error for a table size not shipped
    table = np.asarray(_shipped()["players"][str(players)]["win_table"], dtype=np.float64)
    if table.shape != (WIN_TABLE_SIZE,):
        raise ValueError(
            f"the shipped win table for players={players} has {table.size} entries, not "
            f"{WIN_TABLE_SIZE}; regenerate anaconda_sim/strategies/learned/data/learned.json"
        )
    return table


def as_array(values: dict[str, float], table: np.ndarray, slots: int) -> np.ndarray:
    """A parameter vector by name and a flat win table as the kernels'
    padded float64 array, without the pass tables
    (:func:`~anaconda_sim.strategies.learned.passtables.fill_pass_tables`
    adds them: the pass is right without them, only slower)."""
    out = np.zeros(slots, dtype=np.float64)
    for i, name in enumerate(PARAM_NAMES):
        out[i] = values[name]
    out[TABLE0 : TABLE0 + WIN_TABLE_SIZE] = table
    return out
