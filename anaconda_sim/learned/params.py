"""The parameters of the ``"learned"`` strategy family: their names, slots,
starting values, and the vectors shipped for each table size.

Every decision of the family is driven by this one vector (see
:mod:`anaconda_sim.learned.play`):

- ``w_*``: the weights of the pass score, one per feature of
  :data:`PASS_FEATURES` (the kept four, and what the passed three give the
  left neighbour);
- ``aggressive_r0`` .. ``aggressive_r4``: bet or raise with at least this
  hand category, before the reveals (``r0``) and in reveal rounds 1-4;
- ``continue_r0`` .. ``continue_r4``: facing a bet, fold with less;
- ``respect_exposed``: 1 to fold to a bet when a rival's exposed cards alone
  (R11) beat the hand, or show four to a flush or a straight the hand cannot
  beat (``respect_draws``);
- ``bluff``: the probability of betting or raising anyway.

The shipped vectors (``anaconda_sim/learned/data/learned.json``) are the
results of :func:`anaconda_sim.learned.learn` at each table size; the
command that regenerates them is in that file and in ``data/README.md``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import numpy as np

__all__ = [
    "BET_NAMES",
    "LEARNED_DEFAULTS",
    "PARAM_NAMES",
    "PASS_FEATURES",
    "shipped_params",
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
ROUNDS = 5  # before the reveals, then reveal rounds 1-4
BET_NAMES = (
    *(f"aggressive_r{r}" for r in range(ROUNDS)),
    *(f"continue_r{r}" for r in range(ROUNDS)),
    "respect_exposed",
    "respect_draws",
    "bluff",
)
PARAM_NAMES = (*(f"w_{f}" for f in PASS_FEATURES), *BET_NAMES)

# slots in the parameter array
W0 = 0
AGGRESSIVE0 = N_PASS
CONTINUE0 = N_PASS + ROUNDS
RESPECT_EXPOSED = N_PASS + 2 * ROUNDS
RESPECT_DRAWS = RESPECT_EXPOSED + 1
BLUFF = RESPECT_DRAWS + 1
N_PARAMS = len(PARAM_NAMES)
assert BLUFF == N_PARAMS - 1

#: the starting point of learning: "sensible"'s betting (bet with a full
#: house, continue with a pair before the reveals and a straight after, respect
#: exposed cards) and a pass close to "sensible"'s (keep groups and high cards)
LEARNED_DEFAULTS: dict[str, float] = {
    "w_pairs": 2.0, "w_trips": 3.0, "w_high": 1.0, "w_pair_rank": 0.5, "w_flush4": 0.0,
    "w_flush3": 0.0, "w_open_straight": 0.0, "w_gutshot": 0.0, "w_gift_pair": 0.0,
    "w_gift_suited": 0.0, "w_gift_connected": 0.0, "w_gift_high": 0.0,
    "aggressive_r0": 6.0, "aggressive_r1": 6.0, "aggressive_r2": 6.0, "aggressive_r3": 6.0,
    "aggressive_r4": 6.0,
    "continue_r0": 1.0, "continue_r1": 4.0, "continue_r2": 4.0, "continue_r3": 4.0,
    "continue_r4": 4.0,
    "respect_exposed": 1.0, "respect_draws": 0.0, "bluff": 0.0,
}  # fmt: skip
assert tuple(LEARNED_DEFAULTS) == PARAM_NAMES


@functools.cache
def _shipped() -> dict[str, Any]:
    text = resources.files("anaconda_sim.learned").joinpath("data/learned.json").read_text()
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


def as_array(values: dict[str, float], slots: int) -> np.ndarray:
    """A parameter vector by name as the kernels' padded float64 array."""
    out = np.zeros(slots, dtype=np.float64)
    for i, name in enumerate(PARAM_NAMES):
        out[i] = values[name]
    return out
