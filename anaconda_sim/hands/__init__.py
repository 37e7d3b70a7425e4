"""What a hand is worth: the high evaluator (5 and 7 cards, best five, the
exposed-card strength of R11), the ace-to-five low evaluator (R23), their
lookup tables and the starting-hand classes.

Modules
-------
:mod:`~anaconda_sim.hands.evaluator`
    The public batch API (:func:`evaluate`, :func:`best_five`,
    :func:`exposed_value`, ...) and the numba kernels behind it.
:mod:`~anaconda_sim.hands.low`
    The ace-to-five low values of the hi-lo rule set (:func:`evaluate_low`,
    :func:`describe_low`, :func:`low_category`, ...) and their kernels.
:mod:`~anaconda_sim.hands.declare`, :mod:`~anaconda_sim.hands.hilo`
    The hi-lo showdown: the declaration codes (R22) and ``split_hilo``, the
    settlement of a hi-lo pot (R24-R25) both engines call.
:mod:`~anaconda_sim.hands.lookup`
    The rank-key, offset and flush tables the kernels read.
:mod:`~anaconda_sim.hands.classes`
    The 1,813 suit-isomorphism classes of seven-card starting hands.

May import: :mod:`anaconda_sim.cards`, :mod:`anaconda_sim.limits`, :mod:`anaconda_sim._numba`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

#: public name -> module that defines it (imported on first use: the
#: evaluator needs numba, the classes pandas)
_LAZY = {
    "CATEGORY_COLUMNS": "evaluator",
    "CATEGORY_NAMES": "evaluator",
    "EXPOSED_CATEGORY_NAMES": "evaluator",
    "LOW_CATEGORY_NAMES": "low",
    "N_CLASSES": "classes",
    "best_five": "evaluator",
    "category": "evaluator",
    "category_name": "evaluator",
    "classify": "classes",
    "describe": "evaluator",
    "describe_low": "low",
    "evaluate": "evaluator",
    "evaluate_low": "low",
    "exposed_category": "evaluator",
    "exposed_value": "evaluator",
    "hand_classes": "classes",
    "low_category": "low",
    "low_category_name": "low",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
