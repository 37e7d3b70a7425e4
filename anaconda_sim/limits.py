"""The game's sizes, the library's limits and its default sample sizes, each
defined once (the sizes: RULES.md R1-R8).

Every other module reads these names; none writes the numbers again.
"""

from __future__ import annotations

#: cards in the deck (R1)
DECK_SIZE = 52
#: cards dealt to each seat (R4)
HAND_SIZE = 7
#: cards each seat passes to its left (R7, the default rules)
PASS_SIZE = 3
#: cards each seat discards (R8)
DISCARD_SIZE = 2
#: cards each seat keeps and reveals (R8, R9)
KEPT_SIZE = 5
#: the table sizes Anaconda is played at (R2)
MIN_PLAYERS = 2
MAX_PLAYERS = 7
#: Largest deal index: the compiled random streams take the deal index as a signed
#: 64-bit integer (it is hashed as a uint64 inside), so 2**63 - 1 works on every path.
MAX_DEAL_INDEX = 2**63 - 1
#: Largest sample size of one call. The accumulators keep exact int64 sums of each
#: deal's value and its square in units of 1/840 of a pot (a pass analysis averages
#: 35 passes: units of 1/(840 * 35)); a square is below 2**30, so 2**33 deals keep
#: every sum below 2**63 (chips under the presets are smaller still).
MAX_DEALS = 2**33

#: deals an analysis (or a sweep's work unit) runs when neither ``deals`` nor
#: ``precision`` is given
DEFAULT_DEALS = 20_000
#: the most deals a ``precision`` run may take before it stops short of its target
DEFAULT_MAX_DEALS = 2_000_000
