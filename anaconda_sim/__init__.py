"""anaconda-sim: Monte Carlo strategy research for Anaconda poker (Pass the Trash).

Importing the package is cheap: nothing is compiled and no table is built
until a function that needs it is first called. Heavy modules are loaded on
first attribute access.
"""

from __future__ import annotations

from ._lazy import lazy_exports
from ._version import __version__
from .cards import CardError, format_cards, mask_from_cards, parse_cards

# public name -> module that defines it (imported on first use)
_LAZY = {
    "evaluate": "hands",
    "category": "hands",
    "category_name": "hands",
    "describe": "hands",
    "best_five": "hands",
    "exposed_value": "hands",
    "exposed_category": "hands",
    "CATEGORY_NAMES": "hands",
    "EXPOSED_CATEGORY_NAMES": "hands",
    "evaluate_low": "hands",
    "describe_low": "hands",
    "low_category": "hands",
    "low_category_name": "hands",
    "LOW_CATEGORY_NAMES": "hands",
    "root_key": "rng",
    "Rules": "table",
    "Game": "game",
    "Phase": "game",
    "Action": "game",
    "Declaration": "game",
    "replay": "game",
    "load_history": "game",
    "History": "game",
    "GameError": "errors",
    "play_deal": "game",
    "Session": "game",
    "Strategy": "strategies",
    "get_strategy": "strategies",
    "simulate": "sim",
    "SimulationResult": "sim",
    "ChoiceScores": "sim",
    "reveal_opponents": "analysis",
    "Request": "analysis",
    "parse_strategies": "strategies",
    "hand_classes": "hands",
    "CATEGORY_COLUMNS": "hands",
    "read_table": "output",
    "write_table": "output",
    "score_choices": "sim",
    "pass_values": "analysis",
    "discard_values": "analysis",
    "reveal_values": "analysis",
    "declare_values": "analysis",
    "equity": "analysis",
    "exploitability": "learning",
    "action_values": "spots",
    "rival_posterior": "spots",
    "spot_of": "spots",
    "betting_exploitability": "learning",
    "learn": "learning",
    "calibration": "learning",
    "estimate_equity": "learning",
    "SweepSpec": "sweep",
    "run_sweep": "sweep",
    "load_results": "sweep",
    "classify": "hands",
    "compile_kernels": "precompile",
}

__all__ = ["CardError", "__version__", "format_cards", "mask_from_cards", "parse_cards", *_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
