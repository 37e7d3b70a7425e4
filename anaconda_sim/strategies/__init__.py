"""Strategies: the four decisions of a seat, as numba functions on its view.

The contract
------------
A strategy decides from what its seat may see (:mod:`anaconda_sim.table.views`)
and from its own random stream, nothing else. It is three numba functions::

    bet(pub, own, params, rng) -> int             # an INTENT_* code
    pass_cards(pub, own, params, rng, out)        # out[:pub[P_PASS_COUNT]] = cards
    discard(pub, own, params, rng, out)           # out[0:2] discards,
                                                  # out[2:7] the kept five in reveal order

``pub`` and ``own`` are int32 arrays (layout in :mod:`anaconda_sim.table.views`),
``params`` is a float64 array of the strategy's parameters, ``rng`` is the
seat's ``uint64[1]`` generator state (:mod:`anaconda_sim.rng`). A betting
decision returns an *intent* (fold / passive / aggressive) that
:func:`intent_to_action` turns into the legal action, so a strategy never has
to know the cap arithmetic and can never make an illegal bet.

Both engines call exactly these functions with identical arrays and
identical random streams (stream ``1 + seat`` of the deal), so the reference
engine and the batch simulator make the same decisions deal by deal.

Built-ins
---------
``"random"``
    Uniformly random legal play: random pass, random discard, random reveal
    order, a uniformly random legal betting action. For fuzzing.
``"call-down"``
    Sensible card play (below), never folds, never bets or raises: every
    deal it is dealt into reaches the showdown. Measures showdown equity.
``"random-pass"``
    Passes uniformly random cards, discards to the best five, never folds
    (checks and calls).
``"sensible"``
    Passes its lowest cards, keeping groups (pairs and better) and made
    flushes; discards to the best five; hides the card whose absence makes
    the four exposed cards weakest (R11); bets and raises with strong hands,
    folds hopeless ones, respects what opponents show. Parameters below.

Under the hi-lo rules (``pub[P_HILO]``, R21-R26) "sensible" card play
(also "call-down"'s, and "random-pass"'s discard) plans for the half its
cards are better at: the high plan's strength is the high category, the low
plan's is :func:`low_strength` (six-low 6 .. unpaired 1, paired 0), and the
low plan is taken only when strictly stronger. It then passes the cards
worst for its plan and keeps the best five for it (best high five or best
low five of the seven); "sensible" bets on the larger of the two strengths
(:func:`sensible_strength`) and declares by :func:`declare_by_strength`.
Play without ``P_HILO`` is unchanged.

A user strategy is the same three functions, compiled with ``numba.njit``,
given to :meth:`Strategy.custom`.

Modules
-------
:mod:`~anaconda_sim.strategies.spec`
    The public layer: :class:`Strategy`, :func:`get_strategy`, the text
    spelling (:func:`parse_strategies`, :func:`short_spec`).
:mod:`~anaconda_sim.strategies.kinds`
    The built-in kinds and :func:`kernel_extras`.
:mod:`~anaconda_sim.strategies.common`
    Primitives every built-in uses (:func:`intent_to_action`, the held cards' value).
:mod:`~anaconda_sim.strategies.basic`, :mod:`~anaconda_sim.strategies.sensible`,
:mod:`~anaconda_sim.strategies.hilo`, :mod:`~anaconda_sim.strategies.declare`
    The built-in families: random and call-down, sensible, hi-lo play,
    declarations.
:mod:`~anaconda_sim.strategies.learned`
    The ``"learned"`` family's parameters, win table and decision kernels.
:mod:`~anaconda_sim.strategies.dispatch`
    Each decision of a built-in by its kind, as both engines call it.

May import: the top-level modules, :mod:`anaconda_sim.hands` and
:mod:`anaconda_sim.table`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

#: public name -> module that defines it (imported on first use: the spec
#: layer alone loads no kernel)
_LAZY = {
    "Strategy": "spec",
    "get_strategy": "spec",
    "parse_spec": "spec",
    "parse_strategies": "spec",
    "short_spec": "spec",
    "BUILTIN_NAMES": "kinds",
    "EXTRAS": "kinds",
    "KIND_CALL_DOWN": "kinds",
    "KIND_CUSTOM": "kinds",
    "KIND_LEARNED": "kinds",
    "KIND_RANDOM": "kinds",
    "KIND_RANDOM_PASS": "kinds",
    "KIND_SENSIBLE": "kinds",
    "PARAM_SLOTS": "kinds",
    "kernel_extras": "kinds",
    "hand_category": "common",
    "hand_value": "common",
    "intent_to_action": "common",
    "SENSIBLE_DEFAULTS": "sensible",
    "SENSIBLE_PARAMS": "sensible",
    "bet_sensible_at": "sensible",
    "reveal_order_hiding_most_telling": "sensible",
    "LOW_STRENGTH_AT": "hilo",
    "best_low_five_into": "hilo",
    "low_hand_value": "hilo",
    "low_strength": "hilo",
    "plans_low": "hilo",
    "sensible_strength": "hilo",
    "DECLARE_BOTH_CATEGORY": "declare",
    "DECLARE_BOTH_LOW": "declare",
    "DECLARE_HIGH_CATEGORY": "declare",
    "DECLARE_LOW_AT": "declare",
    "builtin_declare": "declare",
    "builtin_declare_at": "declare",
    "decide_declare": "declare",
    "declare_by_strength": "declare",
    "declare_by_values": "declare",
    "builtin_bet": "dispatch",
    "builtin_discard": "dispatch",
    "builtin_pass": "dispatch",
    "discard_sensible_high": "dispatch",
    "no_custom_bet": "dispatch",
    "no_custom_cards": "dispatch",
    "pass_sensible_high": "dispatch",
    "bet_learned_at": "learned.play",
    "learned_bucket": "learned.play",
}
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
