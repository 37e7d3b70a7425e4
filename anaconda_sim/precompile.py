"""Every public entry point's kernels compiled before the work, not during it.

A kernel is compiled the first time a call needs it and kept in the on-disk
cache (:mod:`anaconda_sim._numba`), where every later process of the machine
finds it, in this folder or any other checkout of the same sources. So each
entry point's *first* call on a machine pays numba's compiler: on a 2-core
machine about 3 s for :func:`~anaconda_sim.evaluate`, 10-13 s for the
showdown-model analyses, 20-30 s for :func:`~anaconda_sim.simulate` and
:func:`~anaconda_sim.reveal_values` and about 40 s for
:func:`~anaconda_sim.action_values` (``benchmarks/results/cold_start.json``:
the compile work itself is about twice that in CPU seconds, spread over the
cores); each later first call loads its kernels in 1-2 s.

:func:`compile_kernels` pays all of it at once, when the user chooses (after
an install, before a notebook session, on each machine of a Dask cluster
before a sweep): it makes one small call of each entry point, and each call
compiles what it is missing on every core, as a first call does. The
command line's ``anaconda-sim compile`` runs it. Calls it does not make
(other rule sets, custom strategies) still compile on first use what they
need beyond it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .checks import check_players
from .table import Rules

if TYPE_CHECKING:
    import pandas as pd

# Nothing heavy is imported at module level (the rules are plain Python): the
# command line's parser reads ENTRY_POINTS, and --help must not wait for numba.

__all__ = ["ENTRY_POINTS", "compile_kernels"]

#: what :func:`compile_kernels` compiles, in its order: the public entry
#: points (the hi-lo rules' simulator and declare analysis as ``"hi-lo"``)
ENTRY_POINTS: tuple[str, ...] = (
    "evaluate", "equity", "pass_values", "discard_values", "simulate", "reveal_values",
    "exploitability", "action_values", "hi-lo",
)  # fmt: skip

#: the hand of the small calls (the five it keeps for the reveal and declare calls)
_HAND = "A♠ K♦ 7♥ 7♣ 4♠ 3♦ 2♣"
_FIVE = "A♠ K♦ 7♥ 7♣ 4♠"


def _calls(players: int) -> dict[str, Callable[[], Any]]:
    """One small call (or two, where an option runs other kernels) per
    entry point, on the default opponents ("learned": every strategy
    family's decisions compile together, so one table covers them all)."""
    import numpy as np

    from .analysis import (  # late: loads numba (the analyses' kernels)
        declare_values,
        discard_values,
        equity,
        pass_values,
        reveal_values,
    )  # fmt: skip
    from .game import play_deal  # late: loads numba (the engine's evaluator)
    from .hands import evaluate, evaluate_low  # late: loads numba (the evaluators)
    from .learning import exploitability  # late: loads numba (its scoring kernels)
    from .sim import simulate  # late: loads numba (the deal kernels)
    from .spots import action_values  # late: loads numba (the spot kernels)

    quiet: dict[str, Any] = {"seed": 1, "progress": False}

    def evaluate_() -> None:
        sevens = np.arange(7, dtype=np.int64).reshape(1, 7)
        evaluate(sevens)
        evaluate_low(sevens)

    def pass_values_() -> None:
        pass_values(_HAND, players, deals=64, **quiet)
        pass_values(_HAND, players, deals=16, betting=True, **quiet)

    def exploitability_() -> None:
        exploitability("learned", players, hands=2, deals=16, **quiet)
        exploitability("learned", players, hands=2, deals=16, betting=True, **quiet)

    def action_values_() -> None:
        # the longest of a few deals, and in it the first spot of each kind
        # (a bet before the discard, the pass, the discard, a bet after a
        # reveal): each kind runs spot kernels of its own
        rules = Rules(players=players)
        games = [play_deal(rules, ["learned"] * players, seed=seed) for seed in range(7, 23)]
        history = max(games, key=lambda game: len(game.history.moves())).history
        firsts: dict[str, int] = {}
        for number, move in enumerate(history.moves(), start=1):
            late = move["type"] == "action" and move["round"] >= 2
            firsts.setdefault("late bet" if late else move["type"], number)
        for number in sorted(firsts.values()):
            action_values(history, "learned", move=number, deals=100, seed=1)

    def hilo() -> None:
        simulate(Rules.hilo(players), "learned", 256, **quiet)
        declare_values(_FIVE, players, deals=16, **quiet)

    return {
        "evaluate": evaluate_,
        "equity": lambda: equity(_HAND, players, deals=64, **quiet),
        "pass_values": pass_values_,
        "discard_values": lambda: discard_values(_HAND, players, deals=64, **quiet),
        "simulate": lambda: simulate(players, "learned", 256, **quiet),
        "reveal_values": lambda: reveal_values(_FIVE, players, deals=16, **quiet),
        "exploitability": exploitability_,
        "action_values": action_values_,
        "hi-lo": hilo,
    }


def compile_kernels(
    entry_points: str | Sequence[str] | None = None,
    *,
    players: int = 6,
    echo: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Compile (into the on-disk cache) the kernels of the public entry
    points, so that their first calls load them instead.

    Parameters
    ----------
    entry_points
        Names from :data:`ENTRY_POINTS`, or one name (default: all of them,
        in that order; the later ones reuse what the earlier ones compiled).
    players
        The table size of the small calls, 2 to 7. The compiled kernels
        serve every table size.
    echo
        Called with one line per entry point as it starts and ends (default:
        silent; the command line prints them).

    Returns
    -------
    pandas.DataFrame
        One row per entry point: ``entry_point``, ``seconds`` (the wall time
        of its small calls: compiling what was missing, loading the rest,
        and the calls themselves) and ``compiled`` (whether anything had to
        be compiled: ``False`` when every kernel was in the cache already, or
        compiled earlier in this process). With the cache off
        (``ANACONDA_SIM_CACHE=0``) the kernels serve this process only.

    Raises
    ------
    ValueError
        An unknown entry point name, or a table size outside 2 to 7.
    TypeError
        A table size that is not an int.

    Examples
    --------
    >>> from anaconda_sim.precompile import compile_kernels
    >>> table = compile_kernels(["evaluate"])
    >>> list(table.columns), table["entry_point"].tolist()
    (['entry_point', 'seconds', 'compiled'], ['evaluate'])
    >>> bool(compile_kernels(["evaluate"])["compiled"].iloc[0])  # now compiled
    False
    """
    import pandas as pd  # late: loads pandas, kept off the parser's import
    from numba.core import event  # late: loads numba

    if isinstance(entry_points, str):
        entry_points = [entry_points]
    chosen = list(ENTRY_POINTS if entry_points is None else entry_points)
    unknown = [name for name in chosen if name not in ENTRY_POINTS]
    if unknown:
        raise ValueError(f"unknown entry point {unknown[0]!r}: choose from "
                         f"{', '.join(ENTRY_POINTS)}")  # fmt: skip
    calls = _calls(check_players(players))
    rows = []
    for name in chosen:
        if echo is not None:
            echo(f"{name}: compiling what is not cached ...")
        start = time.perf_counter()
        # numba's compile event fires for each version compiled here (a
        # cached one is loaded without it); compile workers only start
        # where this process compiles too (warmup.compile_on_all_cores)
        with event.install_recorder("numba:compile") as compiles:
            calls[name]()
        seconds = time.perf_counter() - start
        compiled = bool(compiles.buffer)
        if echo is not None:
            echo(f"{name}: {seconds:.1f} s ({'compiled' if compiled else 'all cached'})")
        rows.append({"entry_point": name, "seconds": seconds, "compiled": compiled})
    return pd.DataFrame(rows, columns=["entry_point", "seconds", "compiled"])
