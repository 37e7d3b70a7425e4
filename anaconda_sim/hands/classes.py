"""Starting-hand classes: the 133,784,560 seven-card hands in 1,813 classes.

In Anaconda a player keeps four of the seven cards dealt and passes three
(R7), then makes the best five of the four kept and three received. What
decides the pass is the best four-card *core* a hand holds: its groups of
equal rank, four cards to a flush, four cards to a straight. The classes
are built from exactly those features, so hands of one class call for the
same kind of pass.

Classification
--------------
A hand's class is its *family*, one or two ranks, and two draw flags.

============  ======================================  ===================  =======
family        ranks in the key                        example name         classes
============  ======================================  ===================  =======
high card     the two highest cards                   ``AK-high F4``       177
pair          the pair, the best kicker (A, K, Q, J,  ``QQ/A``, ``99/T-``  546
              or ``T-`` for ten or lower)
two pair      both pairs                              ``QQ-99 S4``         606
three pair    the two highest pairs (the third is     ``QQ-99-xx``         198
              trash to pass)
trips         the trips                               ``777 F4``           117
full house    the trips and the best other group of   ``QQQ-99``           156
              two or three (trips + two pairs, two
              trips, trips + pair + two singles)
quads         the quads                               ``AAAA``             13
============  ======================================  ===================  =======

Flags (high card, pair, two pair, three pair and trips only; a full house or
quads is kept whatever the draws):

- ``F5``: five or more cards of one suit (a made flush, of which only four
  can be kept); ``F4``: exactly four of one suit; no flag: three or fewer.
- ``S5``: five consecutive ranks (a made straight; A-2-3-4-5 counts, R18);
  ``S4``: four of some five consecutive ranks (open-ended or gutshot); no
  flag: neither.

A name is the rank part followed by the flags, e.g. ``QQ/A F4 S4``: a pair
of queens, an ace as the best kicker, four cards of one suit and four cards
to a straight. Class ids run from 0 (weakest family, lowest ranks) upwards:
families in the order above, then ranks, then flags.

Counts
------
The count of a class is the number of the 133,784,560 seven-card hands in
it, computed exactly by combinatorics (:func:`build_table`): a class is a set
of rank multisets (the 49,205 ways to hold 7 ranks with at most four of
each) times the suit assignments of their group shape with the right
longest-suit length; the number of suit assignments depends only on the
shape. The test suite checks the counts against a numba enumeration of all
133,784,560 hands. The table ships as ``anaconda_sim/hands/data/hand_classes.csv``
and is regenerated with::

    python -m anaconda_sim.hands.classes anaconda_sim/hands/data/hand_classes.csv

Each class has a *representative*: the median rank multiset of the class
(ordered by strength) with the most even suits its flags allow.
:func:`sample_hands` draws hands uniformly from a class (every hand of the
class equally likely) for class averages.

Examples
--------
>>> classify("Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣")
'QQ/T-'
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .._numba import jit
from .._table_cache import cached_arrays
from ..cards import RANKS, format_cards, parse_cards
from ..limits import DECK_SIZE, HAND_SIZE

__all__ = [
    "FAMILIES",
    "N_CLASSES",
    "N_HANDS",
    "build_table",
    "class_id",
    "class_ids",
    "classify",
    "hand_classes",
    "lookup_classes",
    "representative",
    "sample_hands",
]

#: families, weakest first (their position is the family code)
FAMILIES: tuple[str, ...] = (
    "high card", "pair", "two pair", "three pair", "trips", "full house", "quads",
)  # fmt: skip
#: number of classes
N_CLASSES = 1813
#: number of seven-card hands, C(52, 7) = 133,784,560
N_HANDS = math.comb(DECK_SIZE, HAND_SIZE)

SUITED_LABELS = ("3-", "4", "5+")  # longest suit
STRAIGHT_LABELS = ("none", "draw", "made")
_SUITED_FLAGS = ("", " F4", " F5")
_STRAIGHT_FLAGS = ("", " S4", " S5")
_FLAGGED = 5  # families below this code carry flags
_NONE = 13  # "no second rank" in a key
_KICKER_FLOOR = 8  # pair kickers ten or lower share one bucket (rank index of T)
N_KEYS = 7 * 13 * 14 * 9

_DATA = Path(__file__).resolve().parent / "data" / "hand_classes.csv"


# ---------------------------------------------------------------- kernels --
@jit
def key_from_counts(ranks, suits):
    """Raw class key of a hand from its rank counts (13) and suit counts (4).

    ``key = (((family * 13 + rank1) * 14 + rank2) * 3 + suited) * 3 + straight``
    with ``rank2 = 13`` when the family has no second rank, and the flags 0
    for full houses and quads.
    """
    longest = max(max(suits[0], suits[1]), max(suits[2], suits[3]))
    suited = 2 if longest >= 5 else (1 if longest == 4 else 0)
    present = 0
    for r in range(13):
        if ranks[r] > 0:
            present |= 1 << r
    ext = (present << 1) | ((present >> 12) & 1)  # bit 0: the ace as a one
    run = 0
    for low in range(10):
        window = (ext >> low) & 0x1F
        n = 0
        while window:
            window &= window - 1
            n += 1
        run = max(run, n)
    straight = 2 if run == 5 else (1 if run == 4 else 0)
    quad = -1
    trip1 = -1
    trip2 = -1
    pair1 = -1
    pair2 = -1
    pairs = 0
    single1 = -1
    single2 = -1
    for r in range(12, -1, -1):
        c = ranks[r]
        if c == 4:
            quad = r
        elif c == 3:
            if trip1 < 0:
                trip1 = r
            else:
                trip2 = r
        elif c == 2:
            pairs += 1
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
        elif c == 1:
            if single1 < 0:
                single1 = r
            elif single2 < 0:
                single2 = r
    if quad >= 0:
        family, r1, r2, suited, straight = 6, quad, _NONE, 0, 0
    elif trip1 >= 0 and (trip2 >= 0 or pair1 >= 0):
        family, r1, r2, suited, straight = 5, trip1, max(trip2, pair1), 0, 0
    elif trip1 >= 0:
        family, r1, r2 = 4, trip1, _NONE
    elif pairs == 3:
        family, r1, r2 = 3, pair1, pair2
    elif pairs == 2:
        family, r1, r2 = 2, pair1, pair2
    elif pairs == 1:
        family, r1, r2 = 1, pair1, max(single1, _KICKER_FLOOR)
    else:
        family, r1, r2 = 0, single1, single2
    return (((family * 13 + r1) * 14 + r2) * 3 + suited) * 3 + straight


@jit
def raw_keys(hands):
    """Raw class keys of the rows of an int array of seven-card hands."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        ranks[:] = 0
        suits[:] = 0
        for j in range(hands.shape[1]):
            c = hands[i, j]
            ranks[c >> 2] += 1
            suits[c & 3] += 1
        out[i] = key_from_counts(ranks, suits)
    return out


@jit
def rank_keys(vectors):
    """Raw keys (suited flag 0) of rank-count vectors, one per row of 13 counts."""
    out = np.empty(vectors.shape[0], dtype=np.int64)
    no_suits = np.zeros(4, dtype=np.int64)
    for i in range(vectors.shape[0]):
        out[i] = key_from_counts(vectors[i], no_suits)
    return out


# ------------------------------------------------------------ key details --
def _split_key(key: int) -> tuple[int, int, int, int, int]:
    """(family, rank1, rank2, suited, straight) of a raw key."""
    rest, straight = divmod(int(key), 3)
    rest, suited = divmod(rest, 3)
    rest, r2 = divmod(rest, 14)
    family, r1 = divmod(rest, 13)
    return family, r1, r2, suited, straight


def _key_name(key: int) -> str:
    family, r1, r2, suited, straight = _split_key(key)
    a, b = RANKS[r1], RANKS[r2] if r2 < _NONE else ""
    base = {
        0: f"{a}{b}-high",
        1: f"{a}{a}/{'T-' if r2 == _KICKER_FLOOR else b}",
        2: f"{a}{a}-{b}{b}",
        3: f"{a}{a}-{b}{b}-xx",
        4: f"{a}{a}{a}",
        5: f"{a}{a}{a}-{b}{b}",
        6: f"{a}{a}{a}{a}",
    }[family]
    return base + _SUITED_FLAGS[suited] + _STRAIGHT_FLAGS[straight]


def _rank_vectors() -> np.ndarray:
    """All 49,205 rank-count vectors of seven cards (at most four of a rank), in
    lexicographic order."""
    partial = np.zeros((1, 0), dtype=np.int64)
    for _ in range(13):
        grown = [np.hstack([partial, np.full((len(partial), 1), c)]) for c in range(5)]
        partial = np.vstack(grown)
        partial = partial[partial.sum(axis=1) <= 7]
    vectors = partial[partial.sum(axis=1) == 7]
    return vectors[np.lexsort(vectors.T[::-1])]


def _groups(vector: Sequence[int]) -> list[tuple[int, int]]:
    """(count, rank) of the held ranks, largest group first, then highest rank."""
    return sorted(((int(c), r) for r, c in enumerate(vector) if c), reverse=True)


@functools.cache
def _suit_assignments(shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """Suit assignments of a group shape, split by longest-suit bucket (0, 1, 2).

    An assignment is one row of ``sum(shape)`` suits: for each group (in
    shape order) the sorted suits of its cards.
    """
    subsets = [list(itertools.combinations(range(4), c)) for c in shape]
    buckets: list[list[tuple[int, ...]]] = [[], [], []]
    for choice in itertools.product(*subsets):
        suits = [s for subset in choice for s in subset]
        longest = max(suits.count(s) for s in range(4))
        buckets[2 if longest >= 5 else (1 if longest == 4 else 0)].append(tuple(suits))
    return tuple(np.array(b, dtype=np.int64).reshape(len(b), sum(shape)) for b in buckets)


def _cards(vector: Sequence[int], suits: Sequence[int]) -> list[int]:
    """Cards of a rank vector with one suit assignment (groups in shape order)."""
    ranks = [r for count, r in _groups(vector) for _ in range(count)]
    return [4 * r + s for r, s in zip(ranks, suits, strict=True)]


@functools.lru_cache(maxsize=1)
def _structure() -> dict:
    """Every class's rank vectors with their weights, from the combinatorics.

    ``members[class_id]`` lists ``(vector index, suit bucket, hands)``: the
    rank vector with the suit assignments of one longest-suit bucket.
    """
    vectors = _rank_vectors()
    # the rank part of the key (suited flag 0); the straight flag depends on ranks only
    base = rank_keys(vectors)
    family = base // (13 * 14 * 9)
    shapes = -np.sort(-vectors, axis=1)[:, :7]
    codes = shapes @ 5 ** np.arange(7)
    _, first, shape_of = np.unique(codes, return_index=True, return_inverse=True)
    per_shape = [
        [len(b) for b in _suit_assignments(tuple(int(c) for c in shapes[i] if c))] for i in first
    ]
    weights = np.array(per_shape)[shape_of]  # hands per (vector, bucket)
    index, bucket = np.nonzero(weights)
    keys = np.where(family[index] < _FLAGGED, base[index] + 3 * bucket, base[index])
    order = np.lexsort([bucket, index, keys])
    keys, index, bucket = keys[order], index[order], bucket[order]
    weight = weights[index, bucket]
    class_keys, starts = np.unique(keys, return_index=True)
    bounds = [*starts.tolist(), len(keys)]
    triples = list(zip(index.tolist(), bucket.tolist(), weight.tolist(), strict=True))
    members = [triples[bounds[k] : bounds[k + 1]] for k in range(len(class_keys))]
    return {"vectors": vectors, "keys": class_keys.tolist(), "members": members}


def build_table() -> pd.DataFrame:
    """The class table, computed exactly from the combinatorics (about a second).

    Returns
    -------
    pandas.DataFrame
        One row per class, by class id: ``class_id``, ``name``, ``family``,
        ``rank1``, ``rank2`` (the second pair, trips' companion or the pair's
        kicker bucket; empty when none), ``suited`` (longest suit: ``3-``,
        ``4``, ``5+``, or ``any`` for full houses and quads), ``straight``
        (``none``, ``draw``, ``made`` or ``any``), ``count`` (hands of the
        class), ``probability`` (``count / C(52, 7)``), ``rank_patterns``
        (rank multisets in the class) and ``representative``.

    Examples
    --------
    >>> table = build_table()
    >>> len(table), int(table["count"].sum()) == math.comb(52, 7)
    (1813, True)
    """
    structure = _structure()
    rows = []
    for class_id, (key, members) in enumerate(
        zip(structure["keys"], structure["members"], strict=True)
    ):
        family, r1, r2, suited, straight = _split_key(key)
        flagged = family < _FLAGGED
        second = ""
        if r2 < _NONE:
            second = "T-" if family == 1 and r2 == _KICKER_FLOOR else RANKS[r2]
        rows.append({
            "class_id": class_id,
            "name": _key_name(key),
            "family": FAMILIES[family],
            "rank1": RANKS[r1],
            "rank2": second,
            "suited": SUITED_LABELS[suited] if flagged else "any",
            "straight": STRAIGHT_LABELS[straight] if flagged else "any",
            "count": sum(weight for _, _, weight in members),
            "rank_patterns": len({i for i, _, _ in members}),
            "representative": format_cards(_representative_cards(structure, class_id)),
        })  # fmt: skip
    table = pd.DataFrame(rows)
    table.insert(8, "probability", table["count"] / N_HANDS)
    return table


def _representative_cards(structure: dict, class_id: int) -> list[int]:
    vectors = structure["vectors"]
    members = structure["members"][class_id]
    # strongest rank multiset first: ranks sorted high to low, compared in turn
    order = sorted(
        {i for i, _, _ in members},
        key=lambda i: [r for c, r in _groups(vectors[i]) for _ in range(c)],
        reverse=True,
    )
    median = order[len(order) // 2]
    vector = vectors[median]
    shape = tuple(c for c, _ in _groups(vector))
    buckets = [b for i, b, _ in members if i == median]
    best = min(_most_even(shape, b) for b in buckets)[1]
    return sorted(_cards(vector, best), reverse=True)


@functools.cache
def _most_even(shape: tuple[int, ...], bucket: int) -> tuple[tuple[int, ...], list[int]]:
    """The suit assignment of a bucket with the shortest longest suit (then the first)."""
    rows = _suit_assignments(shape)[bucket]
    longest = np.stack([(rows == s).sum(axis=1) for s in range(4)]).max(axis=0)
    i = int(np.lexsort([*rows.T[::-1], longest])[0])
    row = rows[i].tolist()
    return (int(longest[i]), *row), row


# ---------------------------------------------------------------- lookups --
@functools.lru_cache(maxsize=1)
def _shipped() -> pd.DataFrame:
    table = pd.read_csv(_DATA, keep_default_na=False, dtype={"rank2": str, "rank1": str})
    return table


@functools.lru_cache(maxsize=1)
def _lookup() -> np.ndarray:
    """Raw key -> class id (-1 where no hand has that key): derived from the
    combinatorics once per version of the sources (about 0.4 s) and kept
    beside the compiled kernels (:mod:`anaconda_sim._table_cache`)."""
    return cached_arrays("hand-classes", lambda: {"lookup": _built_lookup()})["lookup"]


def _built_lookup() -> np.ndarray:
    lookup = np.full(N_KEYS, -1, dtype=np.int64)
    for class_id, key in enumerate(_structure()["keys"]):
        lookup[key] = class_id
    return lookup


@functools.lru_cache(maxsize=1)
def _names() -> dict[str, int]:
    """Normalised class name -> class id."""
    return {_normal(name): i for i, name in enumerate(_shipped()["name"])}


def hand_classes() -> pd.DataFrame:
    """The table of all classes (see :func:`build_table` for the columns).

    Read from the shipped ``anaconda_sim/hands/data/hand_classes.csv``.

    Examples
    --------
    >>> table = hand_classes()
    >>> table.loc[table["name"] == "AA/K", ["family", "count"]].to_dict("records")
    [{'family': 'pair', 'count': 903240}]
    """
    return _shipped().copy()


def _parse_hand(hand: str | Sequence[str | int] | np.ndarray) -> np.ndarray:
    return np.array([parse_cards(hand, 7, what="hand")], dtype=np.int64)


def class_id(hand: str | Sequence[str | int]) -> int:
    """The class id (0..1812) of a seven-card hand.

    Examples
    --------
    >>> class_id("As Ad Ac Ah 2c 3d 4h")
    1812
    >>> class_id("As Ad")
    Traceback (most recent call last):
    ...
    anaconda_sim.cards.CardError: hand 'As Ad' has 2 cards; it needs 7
    """
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for card in _parse_hand(hand)[0]:
        ranks[card >> 2] += 1
        suits[card & 3] += 1
    # the plain-Python twin of the kernel: one hand needs no compilation
    key = int(key_from_counts.py_func(ranks, suits))
    return _lookup_key(key)


def _lookup_key(key: int) -> int:
    family, *_ = _split_key(key)
    if family >= _FLAGGED:
        key -= key % 9
    return int(_lookup()[key])


def classify(hand: str | Sequence[str | int]) -> str:
    """The class name of a seven-card hand.

    Examples
    --------
    >>> classify("Ah Kh 9h 5h 2c 7d Jc")
    'AK-high F4'
    >>> classify("Qs Qh 9c 9d 8s 7h 6c")
    'QQ-99 S4'
    """
    return str(_shipped()["name"].iat[class_id(hand)])


def class_ids(hands: np.ndarray) -> np.ndarray:
    """Class ids of many hands: an int array with seven card indices per row.

    Rows are not validated (use distinct card indices 0..51).

    Examples
    --------
    >>> class_ids(np.array([[48, 49, 50, 51, 0, 5, 10]])).tolist()
    [1812]
    """
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    keys = raw_keys(hands)
    family = keys // (13 * 14 * 9)
    keys = np.where(family >= _FLAGGED, keys - keys % 9, keys)
    return _lookup()[keys]


def lookup_classes(selection: str | int | Iterable[str | int]) -> list[int]:
    """Class ids named by ``selection``: ``"all"``, a family, a class name or id, or a list.

    Names are matched ignoring case and extra spaces.

    Examples
    --------
    >>> lookup_classes(["qq/a", 1812])
    [642, 1812]
    >>> len(lookup_classes("quads")), len(lookup_classes("all"))
    (13, 1813)
    >>> lookup_classes("QQ/Z")
    Traceback (most recent call last):
    ...
    ValueError: unknown hand class 'QQ/Z'; give a class name such as 'QQ/A F4', a family
    (high card, pair, two pair, three pair, trips, full house, quads), a class id 0..1812, or 'all'
    """
    if isinstance(selection, (str, int, np.integer)):
        items: list = [selection]
    elif isinstance(selection, Iterable):
        items = list(selection)
    else:
        items = [selection]
    table = _shipped()
    normal = _names()
    out: list[int] = []
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not 0 <= int(item) < N_CLASSES:
                raise ValueError(
                    f"hand class id {int(item)} is out of range; ids are 0..{N_CLASSES - 1}"
                )
            out.append(int(item))
            continue
        if not isinstance(item, str):
            raise ValueError(f"hand class {item!r} is not a name or an id")
        text = _normal(item)
        if text == "ALL":
            out.extend(range(N_CLASSES))
        elif text.lower() in FAMILIES:
            out.extend(table.index[table["family"] == text.lower()].tolist())
        elif text in normal:
            out.append(normal[text])
        else:
            families = ", ".join(FAMILIES)
            raise ValueError(
                f"unknown hand class {item!r}; give a class name such as 'QQ/A F4', a family "
                f"({families}), a class id 0..{N_CLASSES - 1}, or 'all'"
            )
    return out


def _normal(name: str) -> str:
    return " ".join(name.split()).upper()


def representative(selection: str | int) -> str:
    """The representative hand of a class (name or id), as text.

    Examples
    --------
    >>> representative("AAAA")
    'As Ah Ad Ac Td Tc 3h'
    >>> classify(representative("QQ/A F4 S4"))
    'QQ/A F4 S4'
    """
    (cid,) = lookup_classes([selection])
    return str(_shipped()["representative"].iat[cid])


def sample_hands(
    selection: str | int, n: int, seed: int | np.random.SeedSequence | None = None
) -> list[str]:
    """``n`` hands drawn uniformly (with replacement) from one class.

    Every hand of the class is equally likely: a rank multiset is drawn with
    probability proportional to its number of suit assignments in the
    class, then one of those suit assignments uniformly. The same seed gives
    the same hands.

    Examples
    --------
    >>> hands = sample_hands("KK-55 F4", 3, seed=7)
    >>> [classify(h) for h in hands]
    ['KK-55 F4', 'KK-55 F4', 'KK-55 F4']
    >>> hands == sample_hands("KK-55 F4", 3, seed=7)
    True
    """
    if isinstance(selection, (int, np.integer)) and 0 <= selection < N_CLASSES:
        cid = int(selection)  # the sweeps' path: no name lookup
    else:
        (cid,) = lookup_classes([selection])
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n={n!r} must be a whole number >= 0")
    structure = _structure()
    members = structure["members"][cid]
    cumulative = _cumulative_weights(cid)
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(n):
        pick = int(np.searchsorted(cumulative, rng.integers(cumulative[-1]), side="right"))
        index, bucket, _ = members[pick]
        vector = structure["vectors"][index]
        shape = tuple(c for c, _ in _groups(vector))
        rows = _suit_assignments(shape)[bucket]
        suits = rows[rng.integers(len(rows))].tolist()
        cards = _cards(vector, suits)
        hands.append(format_cards(sorted(cards, reverse=True)))
    return hands


@functools.cache
def _cumulative_weights(cid: int) -> np.ndarray:
    return np.cumsum([w for _, _, w in _structure()["members"][cid]])


# -------------------------------------------------------------- regenerate --
def main(argv: Sequence[str] | None = None) -> int:
    """Write the class table: ``python -m anaconda_sim.hands.classes PATH``."""
    parser = argparse.ArgumentParser(description="Write the starting-hand class table (CSV).")
    parser.add_argument("path", nargs="?", default=str(_DATA), help="output CSV file")
    args = parser.parse_args(argv)
    table = build_table()
    if int(table["count"].sum()) != math.comb(DECK_SIZE, HAND_SIZE) or len(table) != N_CLASSES:
        raise SystemExit("class counts do not add up; the table was not written")
    path = Path(args.path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, lineterminator="\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
