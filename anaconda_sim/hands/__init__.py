"""What a hand is worth: the high evaluator (5 and 7 cards, best five, the
exposed-card strength of R11), its lookup tables and the starting-hand classes.

Modules
-------
:mod:`~anaconda_sim.hands.evaluator`
    The public batch API (:func:`evaluate`, :func:`best_five`,
    :func:`exposed_value`, ...) and the numba kernels behind it.
:mod:`~anaconda_sim.hands.lookup`
    The rank-key, offset and flush tables the kernels read.
:mod:`~anaconda_sim.hands.classes`
    The 1,813 suit-isomorphism classes of seven-card starting hands.

May import: :mod:`anaconda_sim.cards`, :mod:`anaconda_sim._numba`.
"""

from __future__ import annotations

from .classes import N_CLASSES, classify, hand_classes
from .evaluator import (
    CATEGORY_COLUMNS,
    CATEGORY_NAMES,
    EXPOSED_CATEGORY_NAMES,
    best_five,
    category,
    category_name,
    describe,
    evaluate,
    exposed_category,
    exposed_value,
)

__all__ = [
    "CATEGORY_COLUMNS",
    "CATEGORY_NAMES",
    "EXPOSED_CATEGORY_NAMES",
    "N_CLASSES",
    "best_five",
    "category",
    "category_name",
    "classify",
    "describe",
    "evaluate",
    "exposed_category",
    "exposed_value",
    "hand_classes",
]
