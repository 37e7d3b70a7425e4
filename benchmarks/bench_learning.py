"""One iteration of a learning loop by stage: wall and CPU seconds at 2, 4 and 6 players.

An iteration of :func:`anaconda_sim.learning.learn` draws its
situations, scores every candidate of each by simulation (the 35 passes,
with and without betting, and the 120 reveal orders), fits the pass and
order weights, estimates the win table of the new card play, searches the
betting parameters, and measures the new field. This script times each of
those stages of one iteration (after a small iteration that compiles the
kernels, so no compile time is counted) by wrapping the functions the
iteration calls; a stage's time includes everything it calls.

``--loop field`` times one iteration of
:func:`anaconda_sim.learning.fieldfit.learn_field` instead (the default
field learned whole): its situations, the scoring of every pass, order and
discard, the fits, the betting search, the confirmation of the candidates,
the equity tables and the measurement.

With ``--previous REV`` the same measurement runs in a worktree of ``REV``
in a child process, in the same run, and each row gets the ratio. The
figures go to ``results/bench_learning.json`` and ``.csv`` (``.quick`` in the
smoke mode the tests run).

Examples
--------
    python benchmarks/bench_learning.py                  # learn's own sample sizes
    python benchmarks/bench_learning.py --previous HEAD~3
    python benchmarks/bench_learning.py --quick          # a smoke run, seconds
    python benchmarks/bench_learning.py --loop field     # learn_field's iteration
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import RESULTS, load_average, machine, write_figures

PLAYERS = (2, 4, 6)
#: the stages, and the functions of the learning loop each one times (a
#: function the loop does not call is skipped: the loop may be laid out
#: differently in another version)
STAGES: dict[str, tuple[str, ...]] = {
    "situations": ("stratified_hands",),
    "candidate scoring": ("pass_table", "pass_betting_table", "order_table"),
    "weight fit": ("fit_weights",),
    "win table": ("estimate_win_table",),
    "betting search": ("betting_search",),
    "measurement": ("exploitability", "deviation_gain", "seat_nets"),
}
#: the stages of ``learn_field``'s iteration (``--loop field``)
FIELD_STAGES: dict[str, tuple[str, ...]] = {
    "situations": ("stratified_hands",),
    "candidate scoring": ("pass_table", "pass_betting_table", "order_values", "discard_values"),
    "fits": ("fit_weights", "fit_table", "fit_keep"),
    "betting search": ("coordinate_search",),
    "confirmation": ("population_nets",),
    "equity tables": ("estimate_equity",),
    "measurement": ("exploitability", "seat_nets"),
}
#: sample sizes of the smoke mode (learn's defaults otherwise)
QUICK = {"situations": 8, "deals": 60, "bet_deals": 400, "table_deals": 1000, "eval_hands": 4,
         "eval_deals": 60, "order_situations": 3, "order_deals": 40,
         "pass_bet_situations": 3, "pass_bet_deals": 40}  # fmt: skip
#: the smoke mode's sizes for ``learn_field``
FIELD_QUICK = {"situations": 8, "deals": 40, "pass_bet_situations": 4, "order_situations": 4,
               "discard_situations": 4, "card_deals": 20, "bet_deals": 300,
               "table_deals": 1000, "eval_situations": 2, "eval_deals": 20}  # fmt: skip


def _loop_module(loop: str = "learn") -> Any:
    """The module whose functions one learning iteration looks up."""
    if loop == "field":
        from anaconda_sim.learning import fieldfit

        return fieldfit
    from anaconda_sim.learning import fit

    iteration = getattr(fit, "_iteration", None)
    return sys.modules[iteration.__module__] if iteration is not None else fit


def stages_of(loop: str) -> dict[str, tuple[str, ...]]:
    """The stages timed for ``loop`` (``"learn"`` or ``"field"``)."""
    return FIELD_STAGES if loop == "field" else STAGES


@contextmanager
def _timed_stages(clock: dict[str, list[float]], loop: str = "learn") -> Iterator[None]:
    """Wrap each stage's functions in the loop's module so their wall and
    CPU seconds add into ``clock[stage]`` (a nested call counts once)."""
    module = _loop_module(loop)
    originals: dict[str, Callable[..., Any]] = {}
    depth = [0]

    def wrap(stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    clock[stage][0] += time.perf_counter() - wall
                    clock[stage][1] += time.process_time() - cpu

        return timed

    for stage, names in stages_of(loop).items():
        for name in names:
            if callable(getattr(module, name, None)):
                originals[name] = getattr(module, name)
                setattr(module, name, wrap(stage, originals[name]))
    try:
        yield
    finally:
        for name, fn in originals.items():
            setattr(module, name, fn)


def measure(players: int, sizes: dict[str, int], seed: int = 11,
            loop: str = "learn") -> dict[str, Any]:  # fmt: skip
    """Wall and CPU seconds of one iteration of ``learn`` (``loop="field"``:
    ``learn_field``) at ``players``, by stage (a small iteration first, to
    compile)."""
    import numba

    import anaconda_sim
    from anaconda_sim.learning import learn, learn_field

    numba.set_num_threads(1)
    if loop == "field":
        def one(**kw: Any) -> None:
            learn_field(players, iterations=1, seed=seed, **kw)

        quick = FIELD_QUICK
    else:
        def one(**kw: Any) -> None:
            learn(players, iterations=1, seed=seed, progress=False, **kw)

        quick = QUICK
    one(**quick)  # compiles
    clock = {stage: [0.0, 0.0] for stage in stages_of(loop)}
    wall, cpu = time.perf_counter(), time.process_time()
    with _timed_stages(clock, loop):
        one(**sizes)
    row: dict[str, Any] = {
        "players": players,
        "loop": loop,
        "package": str(Path(anaconda_sim.__file__).parent),
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
    }
    for stage, (stage_wall, stage_cpu) in clock.items():
        key = stage.replace(" ", "_")
        row[f"{key}_wall_s"] = stage_wall
        row[f"{key}_cpu_s"] = stage_cpu
    return row


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_learning
print(json.dumps(bench_learning.measure(int(sys.argv[2]), json.loads(sys.argv[3]),
                                        loop=sys.argv[4])))
"""


def measure_previous(revision: str, players: int, sizes: dict[str, int], tree: Path,
                     cache: Path, loop: str = "learn") -> dict[str, Any]:  # fmt: skip
    """:func:`measure` run by ``revision``'s package (a worktree at ``tree``),
    in a child process with its own kernel cache."""
    env = {**os.environ, "PYTHONPATH": str(tree), "ANACONDA_SIM_CACHE_DIR": str(cache)}
    here = str(Path(__file__).resolve().parent)
    command = [sys.executable, "-c", _CHILD, here, str(players), json.dumps(sizes), loop]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=tree)
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def run(quick: bool, previous: str | None, players: tuple[int, ...] = PLAYERS,
        loop: str = "learn") -> dict[str, Any]:  # fmt: skip
    """Measure every table size; return the figures (also what is written)."""
    sizes = dict(FIELD_QUICK if loop == "field" else QUICK) if quick else {}
    rows: list[dict[str, Any]] = []
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="anaconda-sim-learning-") as folder:
        tree = Path(folder) / "tree"
        if previous:
            subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(tree),
                            previous], check=True, capture_output=True)  # fmt: skip
        try:
            for n in players:
                row = measure(n, sizes, loop=loop)
                row["load_average"] = load_average()
                if previous:
                    old = measure_previous(previous, n, sizes, tree, Path(folder) / "cache",
                                           loop)  # fmt: skip
                    row["previous"] = previous
                    row["previous_package"] = old["package"]
                    for key in [k for k in row if k.endswith("_s")]:
                        row[f"previous_{key}"] = old.get(key, float("nan"))
                    row["cpu_vs_previous"] = row["cpu_s"] / old["cpu_s"]
                rows.append(row)
        finally:
            if previous:
                subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force",
                                str(tree)], check=False, capture_output=True)  # fmt: skip
    return {
        "benchmark": "bench_learning",
        "mode": "quick" if quick else "full",
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine(),
        "loop": loop,
        "sizes": sizes or f"{'learn_field' if loop == 'field' else 'learn'}'s defaults",
        "stages": {stage: list(names) for stage, names in stages_of(loop).items()},
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--previous", metavar="REV", default=None,
                        help="also measure this git revision, in the same run")  # fmt: skip
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYERS),
                        help="table sizes (default: 2 4 6)")  # fmt: skip
    parser.add_argument("--loop", choices=("learn", "field"), default="learn",
                        help="the loop timed: learn (learned-v1) or field (learn_field)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    figures = run(args.quick, args.previous, tuple(args.players), args.loop)
    name = "bench_learning" if args.loop == "learn" else "bench_learning_field"
    paths = write_figures(name, figures, args.out)
    if not args.quiet:
        for row in figures["rows"]:
            stages = ", ".join(f"{stage} {row[stage.replace(' ', '_') + '_cpu_s']:.1f}"
                               for stage in stages_of(args.loop))  # fmt: skip
            extra = (f" ({row['cpu_vs_previous']:.2f}x of {row['previous']})"
                     if "cpu_vs_previous" in row else "")  # fmt: skip
            print(f"{row['players']} players: {row['cpu_s']:.1f} CPU s{extra}; {stages}")
        print("wrote", ", ".join(str(p) for p in paths))
    return figures


if __name__ == "__main__":
    main()
