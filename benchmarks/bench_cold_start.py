"""First-call times of every public entry point: empty kernel cache, filled cache, warm.

Each entry point runs in fresh subprocesses, so nothing compiled earlier in
this process helps it:

- ``cold``: the kernel cache points at a new, empty folder, so the first call
  compiles every kernel it needs (what a newcomer waits for once); its CPU
  seconds are given for the calling process and for all processes (the
  compile workers it starts included: the compile work itself);
- ``cached``: a second process with the cache that the first one filled
  (what every later session waits for);
- ``warm``: the same call again inside the second process (the run itself);
- ``second clone``: a third process that imports a copy of the package from
  another folder (new paths, new file times: what a fresh clone or a second
  environment sees) with the cache the first process filled. The cache is
  keyed on the sources' content, so this is about the ``cached`` time.

Times are wall-clock seconds of the call alone (the import is reported
apart) plus the process CPU seconds of the call, which a busy machine
disturbs less; the figures file says how many cores were busy at the start.

Usage::

    python benchmarks/bench_cold_start.py            # every entry point
    python benchmarks/bench_cold_start.py --quick    # smoke mode: evaluate only

Figures go to ``benchmarks/results/cold_start.json`` and ``.csv``
(``cold_start.quick.*`` in quick mode; those are gitignored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import write_figures

RESULTS = Path(__file__).resolve().parent / "results"
HAND = "As Kd 7h 7c 4s 3d 2c"

#: the first call of each entry point, as an analyst would make it
CALLS: dict[str, str] = {
    "evaluate": "a.evaluate(np.array([[0, 5, 10, 15, 20, 25, 30]]))",
    "pass_values": f"a.pass_values({HAND!r}, 6, deals=500, seed=1, progress=False)",
    "discard_values": f"a.discard_values({HAND!r}, 6, deals=500, seed=1, progress=False)",
    "equity": f"a.equity({HAND!r}, 6, deals=500, seed=1, progress=False)",
    "simulate": "a.simulate(6, 'sensible', 2000, seed=1, progress=False)",
    "reveal_values": "a.reveal_values('As Kd 7h 7c 4s', 6, deals=200, seed=1, progress=False)",
    "exploitability": (
        "a.exploitability('sensible', 4, decisions='pass', hands=4, deals=200, seed=1, "
        "betting=True)"
    ),
    "action_values": (
        "game = a.play_deal(a.Rules(players=5), ['learned'] * 5, seed=7)\n"
        "a.action_values(game.history, 'learned', move=20, deals=2000, seed=1)"
    ),
    "sweep unit": (
        "from anaconda_sim.sweep.spec import SweepSpec\n"
        "from anaconda_sim.sweep.work import compute_unit\n"
        "spec = SweepSpec.from_dict({'kind': 'pass', 'players': 6, "
        f"'hands': [{HAND!r}], 'deals': 500, 'seed': 1}})\n"
        "compute_unit(spec, spec.units()[0])"
    ),
}

_SCRIPT = """
import json, resource, sys, time
t0 = time.perf_counter()
import numpy as np
import anaconda_sim as a
imported = time.perf_counter() - t0
def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
def timed():
    w, c, k = time.perf_counter(), time.process_time(), children_cpu()
{body}
    own = time.process_time() - c
    return time.perf_counter() - w, own, own + children_cpu() - k
first = timed()
second = timed()
print(json.dumps({{"import_s": imported, "first": first, "second": second}}))
"""


PACKAGE = Path(__file__).resolve().parents[1] / "anaconda_sim"


def _run(call: str, cache: Path, package_parent: Path | None = None) -> dict[str, Any]:
    """``call`` timed in a fresh interpreter with the kernel cache ``cache``;
    with ``package_parent``, the package is imported from that folder."""
    body = "\n".join("    " + line for line in call.splitlines())
    env = {**os.environ, "ANACONDA_SIM_CACHE_DIR": str(cache), "ANACONDA_SIM_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    if package_parent is not None:
        env["PYTHONPATH"] = str(package_parent)
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(body=body)], env=env, capture_output=True,
        text=True, check=True, cwd=package_parent,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def _second_clone(folder: Path) -> Path:
    """A copy of the package under ``folder`` (new paths and file times)."""
    shutil.copytree(PACKAGE, folder / "anaconda_sim",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    return folder


def run(quick: bool, names: list[str] | None = None) -> dict[str, Any]:
    """Time every entry point (``evaluate`` only in quick mode)."""
    chosen = names or (["evaluate"] if quick else list(CALLS))
    load = os.getloadavg()[0]
    rows = []
    for name in chosen:
        with tempfile.TemporaryDirectory(prefix="anaconda-sim-cold-") as folder:
            cache = Path(folder) / "cache"
            cold = _run(CALLS[name], cache)
            cached = _run(CALLS[name], cache)
            clone = _run(CALLS[name], cache, _second_clone(Path(folder) / "clone"))
        rows.append({
            "entry_point": name,
            "cold_s": cold["first"][0],
            "cold_cpu_s": cold["first"][1],
            "cold_cpu_all_s": cold["first"][2],
            "cached_s": cached["first"][0],
            "warm_s": cached["second"][0],
            "second_clone_s": clone["first"][0],
            "second_clone_vs_cached": clone["first"][0] / cached["first"][0],
            "import_s": cached["import_s"],
        })  # fmt: skip
    return {
        "benchmark": "cold_start",
        "mode": "quick" if quick else "full",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "load_average_at_start": load,
        },
        "rows": rows,
    }


def write(figures: dict[str, Any], out: Path) -> list[Path]:
    """Write ``cold_start[.quick].json`` and ``.csv`` under ``out``."""
    return write_figures("cold_start", figures, out)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: evaluate only")
    parser.add_argument("--only", nargs="*", choices=list(CALLS), help="entry points to time")
    parser.add_argument("--out", type=Path, default=RESULTS, help="output folder")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    figures = run(args.quick, args.only)
    paths = write(figures, args.out)
    if not args.quiet:
        print(f"load average at start: {figures['machine']['load_average_at_start']:.1f} "
              f"on {figures['machine']['cores']} cores")  # fmt: skip
        print(f"{'entry point':<15} {'cold s':>7} {'cold cpu':>9} {'all cpu':>8} {'cached s':>9} "
              f"{'warm s':>7} {'2nd clone s':>12}")  # fmt: skip
        for r in figures["rows"]:
            print(f"{r['entry_point']:<15} {r['cold_s']:>7.1f} {r['cold_cpu_s']:>9.1f} "
                  f"{r['cold_cpu_all_s']:>8.1f} {r['cached_s']:>9.2f} {r['warm_s']:>7.3f} "
                  f"{r['second_clone_s']:>12.2f}")  # fmt: skip
        print("wrote", *paths)
    return figures


if __name__ == "__main__":
    main()
