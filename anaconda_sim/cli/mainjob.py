"""The main research job: the rules' worked example, end to end.

``anaconda-sim run`` (no arguments needed) does, on built-in defaults:

1. the worked example of the rules analysed by the evaluator: what the
   seven cards make before and after the pass, the best five and the two
   discards, and what the four exposed cards show (R11);
2. final-hand category frequencies of complete deals from the batch
   simulator (call-down play, everybody reaches the showdown);
3. the three analyses of the worked example against the analyses' default
   opponents (``"learned"``, the learned strategy family), the hero's
   betting played by ``"learned"`` too: the 35 passes and the 21 discards
   after the pass in the showdown model, the 120 reveal orders of the kept
   five with betting;

and writes every table (CSV) and chart (PNG) to an output folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd

from .._numba import cache_folder
from ..analysis import registry
from ..cards import format_cards, parse_cards
from ..hands.evaluator import CATEGORY_NAMES, best_five, describe, exposed_category, exposed_value
from ..output import plots
from ..output.tables import format_table, write_table
from ..provenance import sidecar_path
from ..sim.simulator import simulate
from ..strategies.spec import short_spec
from .app import Streams

__all__ = [
    "WORKED_EXAMPLE", "MainJobConfig", "run_main", "run_main_job", "warm_analyses",
    "worked_example_report",
]  # fmt: skip

WORKED_EXAMPLE = {
    "dealt": "Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣",
    "passed": "3♠ 4♥ 2♣",
    "received": "Q♦ 9♦ 5♠",
    "order": "9♣ Q♠ 9♦ Q♥ Q♦",
}


@dataclass(frozen=True)
class MainJobConfig:
    """Sizes of the main job (defaults: a few seconds of compute after compilation)."""

    players: int = 6
    simulation_deals: int = 1_000_000
    pass_deals: int = 100_000
    discard_deals: int = 100_000
    reveal_deals: int = 20_000
    seed: int = 2024

    @classmethod
    def quick(cls) -> MainJobConfig:
        """Small sizes for smoke tests."""
        return cls(simulation_deals=5_000, pass_deals=2_000, discard_deals=2_000,
                   reveal_deals=300)  # fmt: skip


def worked_example_report() -> str:
    """The worked example of docs/rules.md, analysed by the evaluator (text).

    Examples
    --------
    >>> print(worked_example_report().splitlines()[0])
    Worked example (docs/rules.md): dealt Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣
    """
    ex = WORKED_EXAMPLE
    dealt, passed, received = (parse_cards(ex[k]) for k in ("dealt", "passed", "received"))
    held = [c for c in dealt if c not in passed] + received
    five, discards = best_five(held)
    order = parse_cards(ex["order"])
    shown = order[:4]
    u = lambda cards: format_cards(cards, unicode=True)  # noqa: E731
    from ..hands.evaluator import EXPOSED_CATEGORY_NAMES as names  # late: loads numba
    lines = [
        f"Worked example (docs/rules.md): dealt {u(dealt)}",
        f"  dealt seven make:        {describe(dealt)}",
        f"  pass (R7):               {u(passed)}  -> left neighbour",
        f"  receive:                 {u(received)}  <- right neighbour",
        f"  seven after the pass:    {u(held)}: {describe(held)}",
        f"  best five (R8):          {u(five)}; discard {u(discards)}",
        f"  reveal order (R9):       {u(order[:4])}, {u(order[4:])} hidden",
    ]
    for r in range(1, 5):
        cards = shown[:r]
        lines.append(
            f"  after reveal {r}: shows {u(cards):<12} -> {names[exposed_category(cards)]}"
            f" (R11 value {exposed_value(cards)})"
        )
    lines.append(f"  showdown (R10):          {describe(five)}")
    return "\n".join(lines)


#: written to the kernel cache folder once the analyses' kernels are cached
WARM_MARKER = "main-job-analyses.compiled"


def warm_analyses(players: int = 6) -> None:
    """Compile (and cache) the kernels of the main job's three analyses by
    running each on a few deals; the main job starts it in a second process
    on its first run."""
    tiny = MainJobConfig(players=players, pass_deals=64, discard_deals=64, reveal_deals=16)
    for _, run in _analysis_calls(tiny):
        run()


def _analysis_calls(
    config: MainJobConfig,
) -> list[tuple[registry.AnalysisKind, Callable[[], pd.DataFrame]]]:
    """The three analyses of the worked example, as the main job runs them."""
    ex = WORKED_EXAMPLE
    held = [c for c in parse_cards(ex["dealt"]) if c not in parse_cards(ex["passed"])]
    held += parse_cards(ex["received"])
    calls: list[tuple[str, Any, dict[str, Any]]] = [
        ("pass", ex["dealt"], {"deals": config.pass_deals}),
        ("discard", held, {"passed": ex["passed"], "received": ex["received"],
                           "deals": config.discard_deals}),
        ("reveal", "Q♠ Q♥ Q♦ 9♣ 9♦", {"deals": config.reveal_deals}),
    ]  # fmt: skip

    def call(kind: registry.AnalysisKind, hand: Any, kwargs: dict[str, Any]) -> pd.DataFrame:
        table: pd.DataFrame = kind.load()(hand, config.players, seed=config.seed, **kwargs)
        return table

    return [
        (registry.kind(name), functools.partial(call, registry.kind(name), hand, kwargs))
        for name, hand, kwargs in calls
    ]


def _start_warm_up(players: int, echo: Callable[[str], None]) -> subprocess.Popen[bytes] | None:
    """On a first run (kernels not cached yet) with two or more cores, compile
    the analyses' kernels in a second process while this one compiles and runs
    the simulation: the first run then waits for the longer of the two
    compilations, not for their sum. Later runs load every kernel from the
    cache and start nothing."""
    folder = cache_folder()
    if folder is None or (folder / WARM_MARKER).exists() or (os.cpu_count() or 1) < 2:
        return None
    echo("first run: compiling the analyses' kernels in a second process while the "
         "simulation compiles (they are cached for later runs)")  # fmt: skip
    code = (
        "from anaconda_sim.cli.mainjob import warm_analyses\n"
        f"warm_analyses({int(players)})\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _finish_warm_up(process: subprocess.Popen[bytes] | None) -> None:
    """Wait for the compiling process; mark the cache when it succeeded (if it
    failed, the analyses simply compile in this process)."""
    if process is None:
        return
    folder = cache_folder()
    if process.wait() == 0 and folder is not None:
        try:
            (folder / WARM_MARKER).touch()
        except OSError:
            pass  # an unwritable cache folder: the next run warms up again


def _category_table(config: MainJobConfig) -> pd.DataFrame:
    result = simulate(config.players, "call-down", deals=config.simulation_deals,
                      seed=config.seed, progress=None)  # fmt: skip
    freq = result.category_freq.mean(axis=0)
    n = result.deals * config.players
    se = (freq * (1 - freq) / n) ** 0.5
    table = pd.DataFrame({"category": CATEGORY_NAMES, "probability": freq, "se": se})
    table.attrs.update(players=config.players, deals=result.deals,
                       title="Final-hand categories at the showdown (call-down play)")  # fmt: skip
    return table


def run_main_job(
    out_dir: str | Path = "anaconda-sim-output",
    config: MainJobConfig | None = None,
    echo: Callable[[str], None] = print,
) -> dict[str, Path]:
    """Run the main job; return every file written, by name.

    Examples
    --------
    >>> MainJobConfig.quick().pass_deals
    2000

    ``run_main_job("out", MainJobConfig.quick())`` writes ``worked_example.txt``
    and, each for ``categories``, ``pass``, ``discard`` and ``reveal``, a CSV
    table with its model beside it (``NAME.csv.meta.json``) and a PNG chart
    (tests/cli/test_mainjob.py runs it).
    """
    matplotlib.use("Agg", force=False)
    config = config or MainJobConfig()
    _check_folder(out_dir, "out_dir")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    started = time.perf_counter()

    def save(name: str, table: pd.DataFrame, figure: Any) -> None:
        files[f"{name}_csv"] = write_table(table, out / f"{name}.csv")
        files[f"{name}_meta"] = sidecar_path(files[f"{name}_csv"])
        files[f"{name}_png"] = plots.save_figure(figure, out / f"{name}.png", model=table.attrs)

    warm_up = _start_warm_up(config.players, echo)
    report = worked_example_report()
    echo(report)
    (out / "worked_example.txt").write_text(report + "\n", encoding="utf-8")
    files["worked_example"] = out / "worked_example.txt"

    categories = _category_table(config)
    echo(f"\nFinal-hand categories, {config.players} players, {categories.attrs['deals']:,} "
         "complete deals (batch simulator, call-down):")  # fmt: skip
    echo(categories.to_string(index=False, float_format=lambda v: f"{v:.5f}"))
    save("categories", categories, plots.plot_categories(categories))

    _finish_warm_up(warm_up)
    for kind, run in _analysis_calls(config):
        table = run()
        attrs = table.attrs
        opponents = ", ".join(dict.fromkeys(map(short_spec, attrs["opponents"])))
        hero = f"hero {short_spec(attrs['hero'])} " if attrs.get("hero") else ""
        echo(f"\n{kind.name} values for {attrs['hand']} ({config.players} players, {hero}vs "
             f"{opponents}, {attrs['model']} model, {attrs['deals']:,} deals, "
             f"value = {attrs['value_unit']}), top 5:")  # fmt: skip
        echo(format_table(table, top=5))
        save(kind.name, table, getattr(plots, kind.chart)(table))
    written = {path.resolve() for path in files.values() if path.is_file()}
    echo(f"\nwrote {len(written)} files to {out.resolve()} in "
         f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    return files


def _check_folder(path: str | Path, name: str) -> None:
    """Refuse a folder path that is a file, or lies under one, before any work."""
    target = Path(path)
    blocking = next((p for p in (target, *target.absolute().parents) if p.exists()), None)
    if blocking is not None and not blocking.is_dir():
        what = "is a file" if blocking == target else f"lies under {str(blocking)!r}, a file"
        raise ValueError(
            f"{name} {str(path)!r} {what}, not a folder; name a folder for the tables and "
            "charts (it is created when missing)"
        )


def run_main(args: argparse.Namespace, streams: Streams) -> int:
    """Handler of ``anaconda-sim run``."""
    config = MainJobConfig.quick() if args.quick else MainJobConfig()
    changes = {k: v for k, v in (("seed", args.seed), ("players", args.players)) if v is not None}
    if "players" in changes and not 2 <= changes["players"] <= 7:
        raise ValueError(f"--players {changes['players']} is outside 2..7 (R2)")
    config = dataclasses.replace(config, **changes)
    _check_folder(args.out, "--out")
    run_main_job(args.out, config, echo=lambda text: print(text, file=streams.stdout))
    return 0
