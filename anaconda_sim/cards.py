"""Cards: the public encoding, parsing, formatting and uint64 masks.

Encoding (fixed, public): a card is the integer ``4 * rank + suit`` with
rank 0..12 for 2..A and suit 0..3 for clubs, diamonds, hearts, spades.
So ``0`` is 2♣, ``51`` is A♠.

Mask layout (the library's choice): a set of cards is a ``uint64`` with bit
``16 * suit + rank`` set for each card. Each suit owns a 16-bit lane whose
low 13 bits are the ranks held in that suit, so flush and straight tests
are plain bit operations on one lane.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

#: bits per suit in a hand mask (13 used): card bit = SUIT_LANE_BITS * suit + rank
SUIT_LANE_BITS = 16

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_LANE_BITS",
    "SUIT_SYMBOLS",
    "CardError",
    "bit_index",
    "card_from_mask_bit",
    "card_mask",
    "card_rank",
    "card_suit",
    "cards_from_mask",
    "format_card",
    "format_cards",
    "full_deck",
    "mask_from_cards",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip

_SUIT_ALIASES = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}  # fmt: skip
_RANK_ALIASES = {ch: i for i, ch in enumerate(RANKS)} | {"10": 8, "1": 12}
_SEPARATORS = re.compile(r"[\s,;]+")


class CardError(ValueError):
    """A card or a list of cards that is not valid (unknown, duplicated, wrong count)."""


def parse_card(token: str | int | np.integer) -> int:
    """Parse one card: ``"Qs"``, ``"Q♠"``, ``"q♠"``, ``"10s"``, ``"Ts"`` or an index 0..51.

    Examples
    --------
    >>> parse_card("Qs"), parse_card("q♠"), parse_card("10h"), parse_card("2c")
    (43, 43, 34, 0)
    >>> parse_card("Xs")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: unknown rank 'X' in card 'Xs'; ranks are 2-9, T (or 10), ...
    """
    if isinstance(token, (bool, np.bool_)):
        raise CardError(f"card {token!r} is a bool; give a card like 'Qs' or an index 0..51")
    if isinstance(token, (int, np.integer)):
        if not 0 <= int(token) < 52:
            raise CardError(f"card index {int(token)} is out of range; indices are 0..51")
        return int(token)
    if not isinstance(token, str):
        raise CardError(f"cannot read a card from {token!r}; give a string like 'Qs' or 0..51")
    text = token.strip()
    if len(text) < 2:
        raise CardError(f"card {token!r} is too short; write rank then suit, like 'Qs' or 'Q♠'")
    rank_text, suit_text = text[:-1].upper(), text[-1].lower()
    if rank_text not in _RANK_ALIASES or rank_text == "1":
        raise CardError(
            f"unknown rank {text[:-1]!r} in card {token!r}; ranks are 2-9, T (or 10), J, Q, K, A"
        )
    if suit_text not in _SUIT_ALIASES:
        raise CardError(
            f"unknown suit {text[-1]!r} in card {token!r}; suits are c d h s or ♣ ♦ ♥ ♠"
        )
    return 4 * _RANK_ALIASES[rank_text] + _SUIT_ALIASES[suit_text]


def parse_cards(
    cards: str | Iterable[str | int] | np.ndarray,
    count: int | Sequence[int] | None = None,
    *,
    what: str = "hand",
) -> list[int]:
    """Parse several distinct cards from a string or a list.

    Parameters
    ----------
    cards
        ``"Q♠ Q♥ 9♣"``, ``"Qs,Qh,9c"``, ``["Qs", "Qh", "9c"]`` or card indices.
    count
        Required number of cards (or allowed numbers); ``None`` accepts any.
    what
        What the cards are, used in error messages ("hand", "pass", ...).

    Examples
    --------
    >>> parse_cards("Q♠ Q♥ 9♣, 8♦")
    [43, 42, 28, 25]
    >>> parse_cards(["Ts", "10s"])
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: duplicate card Ts in hand 'Ts 10s'
    >>> parse_cards("Qs Qh", count=3, what="pass")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: pass 'Qs Qh' has 2 cards; it needs 3
    """
    if isinstance(cards, str):
        tokens: list = [t for t in _SEPARATORS.split(cards.strip()) if t]
        shown = cards.strip()
    elif isinstance(cards, (int, np.integer)):
        raise CardError(f"{what} {cards!r} is a single number; give a list of cards")
    elif not isinstance(cards, (Iterable, np.ndarray)):
        raise CardError(
            f"{what} {cards!r} is not cards; give a string like 'Qs Qh 9c' or a list of cards"
        )
    else:
        tokens = list(np.asarray(cards).ravel()) if isinstance(cards, np.ndarray) else list(cards)
        shown = " ".join(str(t) for t in tokens)
    parsed = [parse_card(t) for t in tokens]
    seen: set[int] = set()
    for card in parsed:
        if card in seen:
            raise CardError(f"duplicate card {format_card(card)} in {what} {shown!r}")
        seen.add(card)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(parsed) not in allowed:
            need = " or ".join(str(c) for c in allowed)
            raise CardError(f"{what} {shown!r} has {len(parsed)} cards; it needs {need}")
    return parsed


def card_rank(card: int) -> int:
    """Rank 0..12 (2..A) of a card index."""
    return int(card) >> 2


def card_suit(card: int) -> int:
    """Suit 0..3 (clubs, diamonds, hearts, spades) of a card index."""
    return int(card) & 3


def format_card(card: int, unicode: bool = False) -> str:
    """Format one card index.

    Examples
    --------
    >>> format_card(43), format_card(43, unicode=True)
    ('Qs', 'Q♠')
    """
    card = parse_card(card)
    suits = SUIT_SYMBOLS if unicode else SUITS
    return RANKS[card >> 2] + suits[card & 3]


def format_cards(cards: Iterable[int] | np.ndarray, unicode: bool = False, sep: str = " ") -> str:
    """Format card indices as text.

    Examples
    --------
    >>> format_cards([43, 42, 28])
    'Qs Qh 9c'
    >>> format_cards([43, 42, 28], unicode=True)
    'Q♠ Q♥ 9♣'
    """
    return sep.join(format_card(int(c), unicode) for c in np.asarray(cards).ravel())


def bit_index(card: int) -> int:
    """The position of a card's bit in a hand mask: ``16 * suit + rank``.

    The one definition of the mask layout; the kernels compile this same
    function (:func:`anaconda_sim.rng.card_bit`).
    """
    return SUIT_LANE_BITS * (card & 3) + (card >> 2)


def card_mask(card: int) -> int:
    """The uint64 bit of one card (as a Python int): ``1 << bit_index(card)``."""
    return 1 << bit_index(card)


def card_from_mask_bit(bit: int) -> int:
    """Inverse of :func:`card_mask` for a bit position 0..63."""
    suit, rank = divmod(bit, SUIT_LANE_BITS)
    if rank > 12 or suit > 3:
        raise CardError(f"bit {bit} does not hold a card in the mask layout")
    return 4 * rank + suit


def mask_from_cards(cards: Iterable[int] | np.ndarray | str) -> np.uint64:
    """The uint64 mask of a set of cards.

    Examples
    --------
    >>> hex(int(mask_from_cards("2c As")))
    '0x1000000000000001'
    """
    parsed = parse_cards(cards, what="card set")
    mask = 0
    for card in parsed:
        mask |= card_mask(card)
    result: np.uint64 = np.uint64(mask)
    return result


def cards_from_mask(mask: int | np.uint64) -> list[int]:
    """The card indices in a mask, in increasing index order.

    Examples
    --------
    >>> format_cards(cards_from_mask(mask_from_cards("Kd 2c As")))
    '2c Kd As'
    """
    value = int(mask)
    cards = []
    for bit in range(64):
        if value >> bit & 1:
            cards.append(card_from_mask_bit(bit))
    return sorted(cards)


def full_deck() -> np.ndarray:
    """All 52 card indices, in index order (int8)."""
    return np.arange(52, dtype=np.int8)
