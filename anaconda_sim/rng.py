"""Reproducible randomness: seeds, per-deal streams, and a PRNG for kernels.

Design
------
A run has one *root key* (a uint64) derived from the user's seed with
``numpy.random.SeedSequence``. Every deal ``d`` of a run owns independent
streams ``(d, 0)`` for the cards and ``(d, 1 + seat)`` for each seat's
decisions. A stream's starting state is a hash of ``(root key, d, stream)``,
so the numbers a deal sees depend only on the seed and the deal's index:
never on batch size, thread count, chunk schedule or backend.

The generator is SplitMix64 (Steele, Lea & Flood 2014): the state is one
uint64 advanced by a fixed odd constant and scrambled by a bijective mixer.
It passes BigCrush, needs no tables, and a state is a single ``uint64[1]``
array that kernels pass to the functions here explicitly; numba's global
RNG is never used (numpy's seed does not reach it).

Bounded integers use Lemire's multiply-shift with rejection, so every draw
is exactly uniform (no modulo bias).
"""

from __future__ import annotations

import numpy as np

from ._numba import jit
from .cards import bit_index
from .limits import DECK_SIZE, MAX_DEAL_INDEX

__all__ = [
    "MAX_DEAL_INDEX",
    "STREAM_DECK",
    "STREAM_RECEIVED",
    "STREAM_RIGHT_FOUR",
    "STREAM_SEAT",
    "SeedLike",
    "card_bit",
    "deal_cards",
    "deal_cards_into",
    "mix64",
    "new_state",
    "next_u64",
    "rand_below",
    "rand_float",
    "root_key",
    "stream_state",
]

SeedLike = int | np.random.SeedSequence | None


# --- the streams of a deal (part of the seed contract: both engines use them) --
STREAM_DECK = 0  # the cards dealt
STREAM_SEAT = 1  # + seat: that seat's decisions
STREAM_RECEIVED = 9  # analyses: which of the hero's cards came from the right, when unknown
STREAM_RIGHT_FOUR = 10  # analyses: the right neighbour's kept four, given the packet it passed

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_LOW32 = np.uint64(0xFFFFFFFF)


def root_key(seed: SeedLike = None) -> np.uint64:
    """The uint64 root key of a run, from ``int``, ``SeedSequence`` or ``None``.

    ``None`` draws fresh entropy (the run is then not reproducible; pass an
    int to make it so).

    Examples
    --------
    >>> int(root_key(7)) == int(root_key(np.random.SeedSequence(7)))
    True
    >>> root_key(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed -1 is negative; use an int >= 0, a numpy SeedSequence, or None
    """
    if isinstance(seed, np.random.SeedSequence):
        sequence = seed
    elif seed is None:
        sequence = np.random.SeedSequence()
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(
                f"seed {seed} is negative; use an int >= 0, a numpy SeedSequence, or None"
            )
        sequence = np.random.SeedSequence(int(seed))
    else:
        raise TypeError(
            f"seed {seed!r} has type {type(seed).__name__}; use an int, a SeedSequence or None"
        )
    return sequence.generate_state(1, dtype=np.uint64)[0]


@jit
def mix64(z):
    """SplitMix64's bijective finaliser of a uint64."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def stream_state(key, deal, stream):
    """Starting state (uint64) of stream ``stream`` of deal ``deal`` under ``key``."""
    d = mix64(np.uint64(deal) * _GOLDEN + np.uint64(1))
    return mix64(key ^ d ^ mix64(np.uint64(stream) * _STREAM_SALT + np.uint64(1)))


@jit
def new_state(key, deal, stream):
    """A fresh ``uint64[1]`` generator state for ``(deal, stream)`` under ``key``.

    Examples
    --------
    >>> state = new_state(root_key(1), 0, 0)
    >>> int(rand_below(state, 52)) in range(52)
    True
    """
    state = np.empty(1, dtype=np.uint64)
    state[0] = stream_state(key, deal, stream)
    return state


# next_u64 and rand_below take the state array: inlined, so that the kernels'
# hot loops do not pay a reference count on it per draw
@jit(inline="always")
def next_u64(state):
    """Advance ``state`` (a ``uint64[1]`` array) and return the next uint64."""
    state[0] += _GOLDEN
    return mix64(state[0])


@jit(inline="always")
def rand_below(state, n):
    """An exactly uniform int64 in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire)."""
    bound = np.uint64(n)
    product = (next_u64(state) >> _S32) * bound
    low = product & _LOW32
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            product = (next_u64(state) >> _S32) * bound
            low = product & _LOW32
    return np.int64(product >> _S32)


@jit
def rand_float(state):
    """A uniform float64 in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> _S11) * (1.0 / 9007199254740992.0)


_bit_index = jit(inline="always")(bit_index)
_ONE = np.uint64(1)


@jit(inline="always")
def card_bit(card):
    """The uint64 mask bit of a card (:func:`anaconda_sim.cards.card_mask` in a kernel)."""
    return _ONE << np.uint64(_bit_index(card))


@jit
def deal_cards(state, known_mask, k, out):
    """Draw ``k`` distinct cards uniformly from the deck minus ``known_mask``.

    The cards are written to ``out[:k]`` in draw order (a partial
    Fisher-Yates shuffle of the available cards, in index order). The mask
    uses the layout of :mod:`anaconda_sim.cards`. Returns the mask of the
    drawn cards. The caller guarantees that at least ``k`` cards are
    available (the public layer checks it).
    """
    return deal_cards_into(state, known_mask, k, out, np.empty(DECK_SIZE, dtype=np.int64))


@jit
def deal_cards_into(state, known_mask, k, out, available):
    """:func:`deal_cards` with the caller's 52-card scratch array ``available``."""
    count = 0
    for card in range(DECK_SIZE):
        if (known_mask & card_bit(card)) == np.uint64(0):
            available[count] = card
            count += 1
    drawn = np.uint64(0)
    for i in range(k):
        j = i + rand_below(state, count - i)
        card = available[j]
        available[j] = available[i]
        available[i] = card
        out[i] = card
        drawn |= card_bit(card)
    return drawn
