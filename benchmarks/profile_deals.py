"""Where a deal's time goes, by kernel: ``perf`` samples named after numba's functions.

numba loads its machine code without symbols, so ``perf report`` shows the
samples of the deal kernels as bare addresses. This script plays deals with
:func:`anaconda_sim.sim.simulator.simulate` (one thread) after writing
``/tmp/perf-<pid>.map``, the file in which ``perf`` looks up the symbols of
code generated at run time: for every function in the object code of the
deal kernel's library (``run_batches`` and every kernel linked into it, each
with its own copy), its address and size. Samples then land on
``_pass_phase``, ``best_five_of_sorted7``, ``_betting_round`` and so on
(whatever LLVM did not inline).

Usage::

    perf record -e cpu-clock -o deals.perf \\
        python benchmarks/profile_deals.py --players 6 --strategy call-down
    perf report -i deals.perf --sort sym

``--reveal`` profiles ``reveal_values`` (120 orders of a kept five, from the
discard, with betting) instead: its kernel's library is
``_reveal_batch_chunks``.

``--object PATH`` also writes the library's object code, whose disassembly
(``objdump -d``; the map gives the load address of each symbol) shows the
hot instructions inside a kernel. The first call compiles (or loads from
the cache) before the map is written; the timed call follows and its CPU
time per deal is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import numba
from numba.core.codegen import CPUCodeLibrary

from anaconda_sim.sim.simulator import simulate
from anaconda_sim.table.rules import Rules

# a library loaded from the cache hands its object code to LLVM and keeps no
# copy (a freshly compiled one keeps it in _compiled_object): keep one
_set_object = CPUCodeLibrary._set_compiled_object


def _keep_object(self: Any, value: bytes) -> None:
    self._profile_object = value
    _set_object(self, value)


CPUCodeLibrary._set_compiled_object = _keep_object


def _symbols(obj: bytes) -> list[tuple[int, int, str]]:
    """``(offset, size, name)`` of the functions in an object file (``nm``)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                                 text=True, check=True).stdout  # fmt: skip
    found = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in {"t", "T", "w", "W"}:
            found.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return found


def write_perf_map(dispatcher: Any, object_path: Path | None = None) -> Path:
    """Append the symbols of every compiled version of ``dispatcher`` to
    ``/tmp/perf-<pid>.map``; returns the map's path."""
    lines = []
    for cres in dispatcher.overloads.values():
        library = cres.library
        obj = getattr(library, "_profile_object", None) or library._compiled_object
        if obj is None:
            # compiled before this module patched numba: the object is gone
            raise RuntimeError("import profile_deals before the first call of the kernels")
        if object_path is not None:
            object_path.write_bytes(obj)
        symbols = _symbols(obj)
        entry = cres.fndesc.llvm_func_name
        base = next(library.get_pointer_to_function(name) - offset
                    for offset, _, name in symbols if name == entry)  # fmt: skip
        lines += [f"{base + offset:x} {size:x} {name}\n" for offset, size, name in symbols]
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    with path.open("a") as f:
        f.writelines(lines)
    return path


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--strategy", default="call-down")
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--object", type=Path, default=None,
                        help="also write the kernel library's object code here")  # fmt: skip
    parser.add_argument("--reveal", action="store_true",
                        help="profile reveal_values (120 orders per deal) instead of simulate")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    if args.reveal:
        _profile_reveal(args)
        return
    rules = Rules(players=args.players)
    simulate(rules, args.strategy, 200, seed=0, progress=False)
    path = _map_kernels(args.object)
    start = time.process_time()
    simulate(rules, args.strategy, args.deals, seed=1, progress=False)
    per_deal = (time.process_time() - start) / args.deals * 1e9
    print(f"{per_deal:,.0f} ns of CPU per deal; symbols in {path}")


def _map_kernels(object_path: Path | None) -> Path:
    """Write the map lines of every compiled kernel of the deal's modules
    (the batch-major phases are one library each, and so is every kernel
    they call rather than inline)."""
    from anaconda_sim.sim.kernels import batch, deal
    from anaconda_sim.strategies import dispatch
    from anaconda_sim.strategies.learned import play

    path = Path(f"/tmp/perf-{os.getpid()}.map")
    for module in (batch, deal, dispatch, play):
        for name in sorted(vars(module)):
            dispatcher = getattr(module, name)
            if getattr(dispatcher, "overloads", None) and not getattr(
                    dispatcher, "targetoptions", {}).get("inline") == "always":
                path = write_perf_map(dispatcher, None if object_path is None
                                      else object_path / f"{module.__name__}.{name}.o")
    return path


def _profile_reveal(args: argparse.Namespace) -> None:
    from anaconda_sim.analysis import reveal_values
    from anaconda_sim.sim.kernels import reveal

    five = "As Kd 7h 7c 4s"
    reveal_values(five, args.players, deals=100, seed=0, opponents=args.strategy, progress=False)
    path = write_perf_map(reveal._reveal_batch_chunks, args.object)
    start = time.process_time()
    reveal_values(five, args.players, deals=args.deals, seed=1, opponents=args.strategy,
                  progress=False)  # fmt: skip
    per_order = (time.process_time() - start) / (args.deals * 120) * 1e9
    print(f"{per_order:,.0f} ns of CPU per order and deal; symbols in {path}")


if __name__ == "__main__":
    main()
