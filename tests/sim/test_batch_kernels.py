"""The batch-major deal kernels against the deal-at-a-time kernels they replace.

Both play every deal with the same per-deal phase code on the same random
streams, so every sum, every record and every forced-choice score must be
identical: the batch shape (plays moving through the phases together, the
plays of one deal shared until the forced choice) changes the order of
work, never a number.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from anaconda_sim.cards import parse_cards
from anaconda_sim.sim import driver
from anaconda_sim.sim.kernels import batch as B
from anaconda_sim.sim.simulator import score_choices, simulate
from anaconda_sim.table.rules import Rules


@contextmanager
def kernels(name: str) -> Iterator[None]:
    before = os.environ.get("ANACONDA_SIM_KERNELS")
    os.environ["ANACONDA_SIM_KERNELS"] = name
    try:
        yield
    finally:
        if before is None:
            del os.environ["ANACONDA_SIM_KERNELS"]
        else:
            os.environ["ANACONDA_SIM_KERNELS"] = before


def both(fn: Callable[[], Any]) -> tuple[Any, Any]:
    with kernels("previous"):
        previous = fn()
    with kernels("batch"):
        batch = fn()
    return previous, batch


@pytest.mark.parametrize(
    ("rules", "strategies"),
    [
        (Rules(players=6), "sensible"),
        (Rules(players=2), "call-down"),
        (Rules(players=7), ["learned", "random", "sensible", "call-down", "random-pass",
                            "learned", "sensible"]),
        (Rules.hilo(5), "sensible"),
        (Rules(players=4, progressive_reveal=False), "random"),
    ],
    ids=["6p-sensible", "2p-call-down", "7p-mixed", "5p-hilo", "4p-no-reveal"],
)  # fmt: skip
def test_simulate_sums_and_records_are_the_previous_kernels(rules: Rules, strategies: Any) -> None:
    """R1-R20 (R21-R26 for hi-lo): the same seed gives the same deals."""

    def run() -> tuple[pd.DataFrame, pd.DataFrame]:
        result = simulate(rules, strategies, 700, seed=11, progress=False, records=True,
                          batch_size=300)  # fmt: skip
        return result.to_frame(), result.records

    (frame_a, records_a), (frame_b, records_b) = both(run)
    pd.testing.assert_frame_equal(frame_a, frame_b)
    pd.testing.assert_frame_equal(records_a, records_b)


@pytest.mark.parametrize(
    ("kind", "width"), [("pass", 3), ("discard", 7), ("order", 5)],
)  # fmt: skip
def test_forced_choices_shared_until_the_choice_score_the_same(kind: str, width: int) -> None:
    """Plays of one deal are played once until the forced choice (R7 pass,
    R8 discard and order); the scores are those of playing every choice in
    full."""
    hand = parse_cards("As Ad Kh Qc 7s 4d 2c")
    if kind == "pass":
        rows = list(itertools.combinations(hand, 3))
    elif kind == "discard":
        rows = [tuple(c for c in hand if c not in pair) + pair
                for pair in itertools.combinations(hand, 2)][:12]  # fmt: skip
        rows = [r[5:] + r[:5] for r in rows]
    else:
        rows = list(itertools.permutations(hand[:5]))[:20]
    choices = np.array(rows, dtype=np.int64)
    assert choices.shape[1] == width

    def run() -> Any:
        return score_choices(Rules(players=5), ["learned", "sensible", "random", "learned",
                                                "sensible"],
                             hero=0, kind=kind, choices=choices, deals=400, seed=5,
                             fixed={0: hand} if kind == "pass" else None,
                             betting=True, progress=False)  # fmt: skip

    previous, batch = both(run)
    np.testing.assert_array_equal(previous.sum_net, batch.sum_net)
    np.testing.assert_array_equal(previous.cross_net, batch.cross_net)
    np.testing.assert_array_equal(previous.sum_share, batch.sum_share)
    pd.testing.assert_frame_equal(previous.to_frame(), batch.to_frame())


def test_phase_signatures_are_those_the_driver_compiles() -> None:
    """What the workers compile is exactly what run_batches calls through its
    function pointers: after a run, every phase kernel holds the predicted
    version, and the driver's module holds none of the phases' code."""
    from anaconda_sim import warmup
    from anaconda_sim.sim.kernels import batch

    rules = Rules(players=6)
    simulate(rules, "sensible", 300, seed=1, progress=False)
    run = driver.start_run(rules, "sensible", 300, 1, 0, rotate=True, betting=True, fixed=None,
                           known=None, hero=-1, force=0, choices=None, forced_pass=None,
                           records=False, batch_size=None)  # fmt: skip
    captured: list[tuple[Any, ...]] = []
    original = warmup.compile_on_all_cores

    def capture(jobs: Any, what: str) -> int:
        captured.extend(jobs)
        return original(jobs, what)

    warmup.compile_on_all_cores = capture  # type: ignore[assignment]
    try:
        run.execute(progress=False)
    finally:
        warmup.compile_on_all_cores = original  # type: ignore[assignment]
    assert {job[0].py_func.__name__ for job in captured} >= {
        "deal_phase", "betting_phase", "pass_phase", "discard_phase", "settle_phase",
    }  # fmt: skip
    for dispatcher, signature, weight in captured:
        assert signature in dispatcher.signatures, dispatcher.py_func.__name__
        assert weight > 0
    # the driver takes every phase as a function pointer of the phase's own signature
    from numba import types

    (signature,) = [s for s in batch.run_batches.signatures if s[-1] != types.none][-1:]
    pointers = signature[-len(batch.PHASES):]
    assert all(isinstance(t, types.FunctionType) or t == types.none for t in pointers)
    for dispatcher, phase_signature, _ in captured:
        pointer = pointers[batch.PHASES.index(dispatcher.py_func.__name__)]
        assert tuple(pointer.signature.args) == tuple(phase_signature)


def test_unknown_kernel_set_is_a_clear_error() -> None:
    with kernels("fastest"), pytest.raises(ValueError, match="ANACONDA_SIM_KERNELS='fastest'"):
        simulate(Rules(players=3), "sensible", 10, seed=1, progress=False)


_WORKERS_SCRIPT = textwrap.dedent(
    """
    import sys
    from numba import types
    from anaconda_sim.hands import evaluator
    from anaconda_sim.warmup import compile_on_all_cores, missing_jobs
    i64 = types.int64
    jobs = [(evaluator.eval5, (i64,) * 5, 1.0), (evaluator.eval7, (i64,) * 7, 1.0)]
    assert len(missing_jobs(jobs)) == 2
    print(compile_on_all_cores(jobs, "two evaluators"))
    print(all(sig in d.signatures for d, sig, _ in jobs))
    print(compile_on_all_cores(jobs, "two evaluators"))
    """
)


def _run_script(tmp_path: Path, **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _WORKERS_SCRIPT], capture_output=True, text=True, check=True,
        env={**os.environ, "ANACONDA_SIM_CACHE_DIR": str(tmp_path), **env},
    )  # fmt: skip
    return done.stdout.split()


def test_workers_fill_the_cache_and_this_process_loads_it(tmp_path: Path) -> None:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the call compiles its kernels itself")
    # two missing versions, compiled on two cores, then loaded here; a second
    # call finds nothing missing
    assert _run_script(tmp_path) == ["2", "True", "0"]
    assert list(tmp_path.rglob("*.nbi")), "the workers wrote no cache index"


def test_workers_can_be_switched_off(tmp_path: Path) -> None:
    assert _run_script(tmp_path, ANACONDA_SIM_WARMUP="0") == ["0", "False", "0"]


def test_phase_batch_holds_plays_of_every_choice() -> None:
    # a batch of plays is at least one deal with all its choices
    assert B.PHASE_PLAYS >= 120
