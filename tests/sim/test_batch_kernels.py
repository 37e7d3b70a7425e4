"""The batch-major deal kernels: pinned numbers, their phases and their compile workers.

The batch kernels replaced deal-at-a-time kernels that played every deal with
the same per-deal phase code on the same random streams; the two gave
identical sums, records and forced-choice scores on every case below. The
deal-at-a-time driver is gone; the digests it agreed with are pinned here,
so a change of any number (not of the order of work) fails. (The simulate
digests were re-pinned, from the same numbers, when the strategies' names
left them.)
"""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
import textwrap
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

#: the learned family as these pins played it (its betting on the win table)
LEARNED = "learned-v1"


def digest(*items: Any) -> str:
    """16 hex digits of SHA-256 over frames (columns, index and values) and arrays."""
    h = hashlib.sha256()
    for item in items:
        if isinstance(item, pd.DataFrame):
            h.update(repr(list(item.columns)).encode())
            h.update(pd.util.hash_pandas_object(item, index=True).to_numpy().tobytes())
        else:
            a = np.ascontiguousarray(item)
            h.update(repr((a.dtype.str, a.shape)).encode())
            h.update(a.tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize(
    ("rules", "strategies", "pinned"),
    [
        (Rules(players=6), "sensible", "812a137ca61a7baf"),
        (Rules(players=2), "call-down", "deec3273ae942bbf"),
        (Rules(players=7), ["LEARNED", "random", "sensible", "call-down", "random-pass",
                            "LEARNED", "sensible"], "7c2286fcbb9151b7"),
        (Rules.hilo(5), "sensible", "4ce2d1e293903e0d"),
        (Rules(players=4, progressive_reveal=False), "random", "ab49881f6d713c09"),
    ],
    ids=["6p-sensible", "2p-call-down", "7p-mixed", "5p-hilo", "4p-no-reveal"],
)  # fmt: skip
def test_simulate_sums_and_records_are_pinned(rules: Rules, strategies: Any, pinned: str) -> None:
    """R1-R20 (R21-R26 for hi-lo): the same seed gives the same deals, those
    the deal-at-a-time kernels gave (every summary and every record)."""
    if isinstance(strategies, list):
        strategies = [LEARNED if s == "LEARNED" else s for s in strategies]
    result = simulate(rules, strategies, 700, seed=11, progress=False, records=True,
                      batch_size=300)  # fmt: skip
    # the numbers, not the strategies' names (the learned family of these pins
    # is named "learned-v1" now)
    frames = [f.drop(columns="strategy") for f in (result.to_frame(), result.records)]
    assert digest(*frames) == pinned


@pytest.mark.parametrize(
    ("kind", "width", "pinned"),
    [("pass", 3, "56c7ea793c9923db"), ("discard", 7, "87232352259938db"),
     ("order", 5, "869b72358c1b6905")],
)  # fmt: skip
def test_forced_choices_shared_until_the_choice_score_as_pinned(
    kind: str, width: int, pinned: str
) -> None:
    """Plays of one deal are played once until the forced choice (R7 pass,
    R8 discard and order); the scores are those of playing every choice in
    full, as the deal-at-a-time kernels did (pinned)."""
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
    result = score_choices(Rules(players=5), [LEARNED, "sensible", "random", LEARNED,
                                              "sensible"],
                           hero=0, kind=kind, choices=choices, deals=400, seed=5,
                           fixed={0: hand} if kind == "pass" else None,
                           betting=True, progress=False)  # fmt: skip
    assert digest(result.sum_net, result.cross_net, result.sum_share,
                  result.to_frame()) == pinned  # fmt: skip


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
    # the driver compiles beside its phases (its typing needs only their signatures)
    drivers = [job for job in captured if job[0] is batch.run_batches]
    captured = [job for job in captured if job[0] is not batch.run_batches]
    assert len(drivers) == 1
    assert {job[0].py_func.__name__ for job in captured} >= {
        "deal_phase", "betting_phase", "pass_phase", "discard_phase", "settle_phase",
    }  # fmt: skip
    # every job is a version the run compiles, the built-in decisions
    # listed beside the phases (decision_jobs) included
    for dispatcher, signature, weight in captured:
        assert signature in dispatcher.signatures, dispatcher.py_func.__name__
        assert weight > 0
    assert {"builtin_discard", "builtin_pass"} <= {job[0].py_func.__name__ for job in captured}
    # the driver takes every phase as a function pointer of the phase's own signature
    from numba import types

    # the pointers follow the chunk bounds and the arguments; the first is the deal phase
    (deal_signature,) = [sig for d, sig, _ in captured if d.py_func.__name__ == "deal_phase"]
    first_pointer = next(i for i, t in enumerate(drivers[0][1])
                         if isinstance(t, types.FunctionType)
                         and tuple(t.signature.args) == tuple(deal_signature))  # fmt: skip
    phases = warmup.pointer_parameters(batch.run_batches, first_pointer - 2)
    assert phases == ("deal_phase", "lead_only", "betting_phase", "follow_lead", "pass_phase",
                      "discard_phase", "declare_phase", "settle_phase")  # fmt: skip

    captured = [job for job in captured if job[0].py_func.__name__ in phases]

    def takes_these_phases(signature: Any) -> bool:
        pointers = signature[-len(phases):]
        if not all(isinstance(t, types.FunctionType) or t == types.none for t in pointers):
            return False
        return all(
            tuple(pointers[phases.index(d.py_func.__name__)].signature.args) == tuple(sig)
            for d, sig, _ in captured
        )

    assert any(takes_these_phases(s) for s in batch.run_batches.signatures)
    assert takes_these_phases(drivers[0][1])


def test_showdown_model_jobs_are_the_versions_its_drivers_compile() -> None:
    """The showdown model's compile jobs (its drivers, the opponents' deal and
    pass, the fixed opponents' showdown and the built-in pass) are exactly
    the versions its two drivers call: after a pass and a keep scored, each
    is compiled, and no second version of a callee job with the same kernel
    extras was made (a job of another signature would leave the call to
    compile its own). The model compiles no built-in discard."""
    from numba import types

    from anaconda_sim.analysis import discard_values, pass_values
    from anaconda_sim.sim.kernels import showdown
    from anaconda_sim.warmup import compile_on_all_cores

    captured: list[Any] = []

    def capture(jobs: Any, what: str) -> int:
        captured.extend(jobs)
        return compile_on_all_cores(jobs, what)

    showdown.compile_on_all_cores = capture  # type: ignore[assignment]
    try:
        hand = "As Kd 7h 7c 4s 3d 2c"
        pass_values(hand, 4, deals=64, seed=3, progress=False)
        discard_values(hand, 4, deals=64, seed=3, progress=False)
    finally:
        showdown.compile_on_all_cores = compile_on_all_cores  # type: ignore[assignment]
    names = {job[0].py_func.__name__ for job in captured}
    assert names == {"builtin_pass", "opponents_after_pass", "_fixed_opponents_best",
                     "_pass_choices_batch_chunks", "_keep_choices_batch_chunks"}  # fmt: skip
    for dispatcher, signature, weight in captured:
        assert signature in dispatcher.signatures, dispatcher.py_func.__name__
        assert weight > 0
    for callee in (showdown.opponents_after_pass, showdown._fixed_opponents_best):
        extras = [tuple(s[-2:]) for s in callee.signatures]
        assert len(extras) == len(set(extras)), callee.py_func.__name__
    # the drivers are claimed last: every other job is one they wait for
    ordered = sorted(captured, key=lambda job: -job[2])
    assert ordered[-1][0].py_func.__name__.endswith("_batch_chunks")
    assert all(isinstance(t, types.Type) for job in captured for t in job[1])


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


@pytest.mark.slow
def test_workers_fill_the_cache_and_this_process_loads_it(tmp_path: Path) -> None:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the call compiles its kernels itself")
    # two missing versions, compiled on two cores, then loaded here; a second
    # call finds nothing missing
    assert _run_script(tmp_path) == ["2", "True", "0"]
    assert list(tmp_path.rglob("*.nbi")), "the workers wrote no cache index"


def test_each_job_is_compiled_by_the_one_process_that_claims_it(tmp_path: Path) -> None:
    """A round's processes share the jobs by claims: a job another process
    claimed is skipped, every other one is claimed and compiled here, once,
    in order; the heaviest jobs are claimed first."""
    from anaconda_sim import warmup

    compiled = []

    class Job:
        def __init__(self, name: str) -> None:
            self.name = name

        def compile(self, signature: tuple) -> None:
            compiled.append((self.name, signature))

    jobs = [(Job("a"), (1,)), (Job("b"), (2,)), (Job("c"), (3,))]
    assert warmup._claim(str(tmp_path), 1)  # another process took job 1
    assert not warmup._claim(str(tmp_path), 1)
    ticks = []
    warmup._compile_claimed(str(tmp_path), jobs, lambda: ticks.append(1))
    assert compiled == [("a", (1,)), ("c", (3,))] and len(ticks) == 2
    warmup._compile_claimed(str(tmp_path), jobs)  # all claimed: nothing left
    assert len(compiled) == 2
    weighed = [(Job(n), (), w) for n, w in (("light", 0.5), ("heavy", 4.0), ("mid", 1.0))]
    assert [job[0].name for job in warmup._claim_order(weighed)] == ["heavy", "mid", "light"]


def test_workers_can_be_switched_off(tmp_path: Path) -> None:
    assert _run_script(tmp_path, ANACONDA_SIM_WARMUP="0") == ["0", "False", "0"]


def test_phase_batch_holds_whole_deals_of_every_choice() -> None:
    # a batch is whole deals with all their choices: as many as PHASE_PLAYS
    # plays hold, at least one (a deal's 120 reveal orders are one batch)
    for choices in (1, 2, 20, 21, 35, 60, 120, 121):
        group = B.deals_per_batch.py_func(choices)
        assert group >= 1
        assert group == 1 or group * choices <= B.PHASE_PLAYS < (group + 1) * choices
