"""The questions asked of the simulator: which three to pass, which two to
discard, in what order to reveal, and what a hand is worth.

One API
-------
:func:`pass_values`, :func:`discard_values`, :func:`reveal_values` and
:func:`equity` take the hand as ``hand`` and the table size as ``players``,
then the same keywords with the same defaults:

- the model: ``rules`` (the rule set: the analyses model ``"pagat"``,
  docs/rules.md; other presets are refused with a clear error),
  ``known`` (cards in no opponent's hand), ``hero`` (the hero's
  strategy for the decisions not being scored), ``opponents`` (one strategy,
  or one per opponent seat, left neighbour first; ``"learned"`` by default:
  the learned strategy family with the parameters shipped for the table
  size, :mod:`anaconda_sim.strategies.learned`) and ``betting`` where the analysis has
  a betting model (``pass_values``, ``reveal_values``);
- sampling (:func:`~anaconda_sim.analysis.driver.sampling`): ``deals=N``
  runs N deals (20,000 by default); ``precision=p`` runs batches until every
  row's ``se`` is below ``p`` or ``max_deals`` (2,000,000) is reached;
  ``seed`` (the same seed gives the same table, whatever the ``batch_size``
  or thread count); ``batch_size`` (deals per batch, ``None``: the
  analysis's default); ``threads`` (numba threads for this call, ``None``:
  as set); ``progress`` (``None``: a bar for long runs);
  ``unicode`` (cards as ``Q♠`` or ``Qs``).

Each returns a DataFrame, best row first, with the core columns ``value``,
``se``, ``ci_low``, ``ci_high`` (95%), ``rank``, ``diff_vs_best`` and
``diff_se`` (the paired standard error of the difference from the best,
far smaller than ``se`` because every choice is scored on the same deals:
common random numbers). Category columns ``cat_*`` are shares of *all*
deals in which the hero reached the showdown with that category.
``DataFrame.attrs`` holds the model: ``analysis``, ``hand``, ``players``,
``hero``, ``opponents`` (with every parameter), ``betting``, ``model``,
``value_unit`` (``"pot share"`` or ``"chips per deal"``), ``seed``,
``precision`` and ``deals``.

Models
------
Showdown model (``betting=False``): nobody bets or folds. The hero sits at
seat 0, its left neighbour at seat 1 and its right neighbour at seat ``n-1``.
Every opponent is dealt seven cards the hero has not seen, passes three to
its left with its own strategy (R7), keeps five with its own strategy (R8),
and the best five-card hand takes the pot (R10, R18), ties splitting it
(R19). ``value`` is the hero's expected share of the pot: 1.0 means it wins
alone every deal. Known cards are honoured: cards the hero passed sit in the
left neighbour's hand, cards it received came from the right neighbour's,
which is then dealt only sevens from which its strategy passes exactly those
three (none to condition on for a uniformly random pass;
``attrs["received_acceptance"]``, see
:class:`~anaconda_sim.analysis.driver.ReceivedCondition`). When the cards
received are not named, which three of the hero's seven held cards (its
unknown discards included) came from the right is drawn with the right
neighbour's kept four from their posterior under its strategy: heads-up the
right neighbour is the only opponent, and its pass is what it tells.

Betting model (``betting=True``): complete deals under the rules with every
seat's betting strategy; ``value`` is the hero's mean net chips per deal.
See :func:`reveal_values` for the reveal model.

Hi-lo: :func:`declare_values` takes the same keywords but plays only
``rules="hi-lo"`` (R21-R26): the reveal model, with the hero's declaration
(high, low, both) as the choice being scored.

Modules
-------
:mod:`~anaconda_sim.analysis.driver` (validation, stopping rule, batches,
ranking, the model in ``attrs``), :mod:`~anaconda_sim.analysis.passes`,
:mod:`~anaconda_sim.analysis.discards` (discards and equity),
:mod:`~anaconda_sim.analysis.reveal`, :mod:`~anaconda_sim.analysis.declare`;
:mod:`~anaconda_sim.analysis.registry`, every kind of analysis with its
function and options (light: the command line's parser reads it);
:mod:`~anaconda_sim.analysis.request`, the one request shape of the sampling
keywords (:class:`Request`, given as ``request=`` or as keywords);
:mod:`~anaconda_sim.analysis.symmetry`, the choices alike up to the suits.
How much a strategy gives away (:func:`anaconda_sim.learning.exploitability`)
and learning one (:func:`anaconda_sim.learning.learn`) sit one layer up, in
:mod:`anaconda_sim.learning`.
May import the top-level modules, :mod:`anaconda_sim.hands`,
:mod:`anaconda_sim.table`, :mod:`anaconda_sim.strategies`, :mod:`anaconda_sim.game`
and :mod:`anaconda_sim.sim`.
"""

from __future__ import annotations

from .._lazy import lazy_exports
from .registry import KINDS

#: public name -> module that defines it, imported on first use (the analyses
#: load numba and pandas; the registry of kinds, :mod:`.registry`, does not)
_LAZY = {k.function_name: k.module.rpartition(".")[2] for k in KINDS}
_LAZY["reveal_opponents"] = "reveal"
_LAZY["Request"] = "request"
__all__ = sorted(_LAZY)
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
