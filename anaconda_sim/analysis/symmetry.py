"""Choices that are one choice up to a relabelling of suits nothing known tells apart.

No suit ranks above another (R1, R19), so renaming the suits of a whole
deal changes no hand's value, no exposed hand's rank (R11) and nobody's
winnings. Renaming them with a permutation ``σ`` that maps every set of
cards the analysis knows onto itself (the hero's hand, its discards, the
cards it passed and received, the cards named as known) leaves the
conditional law of everything unseen unchanged; so a choice ``c`` and its
image ``σ(c)`` have the same expected value whenever the strategies treat
the suits alike (the built-in ones do: they read ranks, pairs and flushes,
never the name of a suit). Such choices are one row of a table, with a
``count`` of the choices it stands for.

Only the hero's knowledge counts. ``Q♠ Q♥ Q♦ 9♣ 9♦`` has one such
permutation besides the identity, ``♥ ↔ ♠``: the queen of diamonds is not
exchangeable with the other two, because it shares its suit with a nine
(a diamond flush is one card less likely for every opponent), so its 120
reveal orders fold to 60 rows of two.

Examples
--------
>>> from anaconda_sim.cards import parse_cards
>>> hand = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦")
>>> [suit_cycles(p) for p in suit_symmetries(hand)]
['identity', '(♥ ♠)']
>>> orders = [tuple(parse_cards(o)) for o in ("Qs Qh Qd 9c 9d", "Qh Qs Qd 9c 9d",
...                                           "Qd Qs Qh 9c 9d")]
>>> choice_classes(orders, suit_symmetries(hand), ordered=True).tolist()
[0, 0, 2]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..cards import SUIT_SYMBOLS, SUITS
from ..stats import ChoiceAccumulator

__all__ = ["Folding", "choice_classes", "relabel", "suit_cycles", "suit_symmetries"]

#: the 24 permutations of the suits, the identity first
SUIT_PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(4)))


def relabel(cards: Sequence[int], permutation: Sequence[int]) -> tuple[int, ...]:
    """``cards`` with suit ``s`` renamed ``permutation[s]`` (ranks kept, R1).

    Examples
    --------
    >>> relabel([40, 43], (0, 1, 3, 2))  # Q♣ Q♠ -> Q♣ Q♥
    (40, 42)
    """
    return tuple(4 * (int(c) // 4) + permutation[int(c) % 4] for c in cards)


def suit_symmetries(*known: Sequence[int] | None) -> list[tuple[int, ...]]:
    """The permutations of the suits that map each set of ``known`` onto itself.

    Each argument is one set of cards whose role the analysis knows (the
    hand, the discards, the passed cards...); ``None`` or empty sets add
    nothing. The identity is always first.

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> len(suit_symmetries(parse_cards("As Ks Ah Kh 2c")))  # ♥ ↔ ♠, and ♦ fixed
    2
    >>> len(suit_symmetries(parse_cards("As Ks Ah Kh 2c"), parse_cards("Qs")))
    1
    """
    sets = [sorted(int(c) for c in cards) for cards in known if cards is not None]
    return [p for p in SUIT_PERMUTATIONS if all(sorted(relabel(s, p)) == s for s in sets)]


def choice_classes(
    choices: Sequence[Sequence[int]], symmetries: Sequence[Sequence[int]], *, ordered: bool
) -> np.ndarray:
    """For each choice, the index of the first choice equal to it up to one
    of ``symmetries`` (its own index when it is the first of its class).

    ``ordered``: choices are sequences (reveal orders) rather than sets of
    cards (discards, passes).
    """
    first: dict[object, int] = {}
    classes = np.empty(len(choices), dtype=np.int64)
    for k, choice in enumerate(choices):
        images = [relabel(choice, p) for p in symmetries]
        keys = images if ordered else [frozenset(image) for image in images]
        # the images form the choice's orbit: a class already met holds one of them
        found = next((first[key] for key in keys if key in first), k)
        first.setdefault(keys[0], found)
        classes[k] = found
    return classes


def suit_cycles(permutation: Sequence[int], unicode: bool = True) -> str:
    """A suit permutation in cycle notation (``'(♥ ♠)'``), or ``'identity'``.

    Examples
    --------
    >>> suit_cycles((1, 0, 3, 2), unicode=False)
    '(c d)(h s)'
    """
    names = SUIT_SYMBOLS if unicode else SUITS
    seen: set[int] = set()
    cycles = []
    for start in range(4):
        if start in seen or permutation[start] == start:
            continue
        cycle, suit = [], start
        while suit not in seen:
            seen.add(suit)
            cycle.append(names[suit])
            suit = permutation[suit]
        cycles.append("(" + " ".join(cycle) + ")")
    return "".join(cycles) or "identity"


@dataclass(frozen=True)
class Folding:
    """The choices of a table grouped into classes equal up to a suit relabelling.

    ``classes[k]`` is the index of the first choice of choice ``k``'s class;
    ``symmetries`` the relabellings other than the identity, as text
    (:func:`suit_cycles`).

    Examples
    --------
    >>> from anaconda_sim.cards import parse_cards
    >>> hand = parse_cards("Q♠ Q♥ Q♦ 9♣ 9♦")
    >>> folding = Folding.of([(c,) for c in hand], [hand], ordered=True)
    >>> folding.representatives.tolist(), folding.sizes.tolist(), folding.symmetries
    ([0, 2, 3, 4], [2, 1, 1, 1], ('(♥ ♠)',))
    """

    classes: np.ndarray
    symmetries: tuple[str, ...]

    @classmethod
    def of(
        cls, choices: Sequence[Sequence[int]], known: Sequence[Sequence[int] | None], *,
        ordered: bool, unicode: bool = True,
    ) -> Folding:  # fmt: skip
        """The folding of ``choices`` given the sets of cards in ``known``."""
        symmetries = suit_symmetries(*known)
        return cls(choice_classes(choices, symmetries, ordered=ordered),
                   tuple(suit_cycles(p, unicode) for p in symmetries[1:]))  # fmt: skip

    @property
    def representatives(self) -> np.ndarray:
        """The first choice of each class, in the choices' order."""
        reps: np.ndarray = np.flatnonzero(self.classes == np.arange(len(self.classes)))
        return reps

    @property
    def sizes(self) -> np.ndarray:
        """How many choices each class (in :attr:`representatives` order) holds."""
        sizes: np.ndarray = np.bincount(self.classes, minlength=len(self.classes))
        held: np.ndarray = sizes[self.representatives]
        return held

    def weights(self, rows: Sequence[int] | np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Integer weights averaging each class of ``rows`` (indices into
        :attr:`representatives`) over its members among ``columns`` (choice
        indices): every row sums to the same whole number, as
        :meth:`~anaconda_sim.stats.ChoiceAccumulator.combine` needs."""
        reps = self.representatives[np.asarray(rows, dtype=np.int64)]
        sizes = np.bincount(self.classes, minlength=len(self.classes))[reps]
        common = int(np.lcm.reduce(sizes)) if len(sizes) else 1
        member = self.classes[np.asarray(columns, dtype=np.int64)][None, :] == reps[:, None]
        weights: np.ndarray = member.astype(np.int64) * (common // sizes)[:, None]
        return weights

    def fold(
        self, frame: pd.DataFrame, acc: ChoiceAccumulator, order_key: list[Any], label: str
    ) -> tuple[pd.DataFrame, ChoiceAccumulator, list[Any], dict[str, list[str]]]:
        """One row per class: the first member's labels, the members' mean of
        each float column, a ``count``; the accumulator of the class means
        (paired errors kept exact); the members of each folded row, by its
        ``label`` text."""
        reps = self.representatives
        everything = np.arange(len(self.classes))
        folded_acc = acc.combine(self.weights(range(len(reps)), everything))
        folded = frame.iloc[reps].reset_index(drop=True)
        for column in frame.columns:
            if pd.api.types.is_float_dtype(frame[column]):
                folded[column] = [frame[column].to_numpy()[self.classes == r].mean() for r in reps]
        at = next((i for i, c in enumerate(folded.columns)
                   if pd.api.types.is_numeric_dtype(folded[c])), len(folded.columns))  # fmt: skip
        folded.insert(at, "count", self.sizes)
        labels = frame[label].to_numpy()
        members = {str(labels[r]): [str(t) for t in labels[self.classes == r]]
                   for r, size in zip(reps, self.sizes, strict=True) if size > 1}  # fmt: skip
        return folded, folded_acc, [order_key[r] for r in reps], members

    def rescorer(
        self, rescore: Callable[[np.ndarray, Any], ChoiceAccumulator]
    ) -> Callable[[np.ndarray, Any], ChoiceAccumulator]:
        """``rescore`` of folded rows: scores every member of the rows'
        classes and averages each class, as :meth:`fold` does."""

        def folded(rows: np.ndarray, options: Any) -> ChoiceAccumulator:
            reps = self.representatives[np.asarray(rows, dtype=np.int64)]
            columns = np.flatnonzero(np.isin(self.classes, reps))
            return rescore(columns, options).combine(self.weights(rows, columns))

        return folded
