"""The compile workers: started early on an empty cache, kept between rounds."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from anaconda_sim import _compile_workers as workers

_PRESTART_SCRIPT = textwrap.dedent(
    """
    import anaconda_sim._numba
    from anaconda_sim import _compile_workers as w
    print(sum(worker.alive() for worker in w._POOL))
    """
)


def _started(cache: Path, **env: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PRESTART_SCRIPT], capture_output=True, text=True, check=True,
        env={**os.environ, "ANACONDA_SIM_CACHE_DIR": str(cache), **env},
    )  # fmt: skip
    return int(done.stdout.split()[-1])


@pytest.fixture
def two_cores() -> None:
    if workers.cores() < 2:
        pytest.skip("one core: no compile workers")


def test_an_empty_cache_starts_the_workers_at_import(tmp_path: Path, two_cores: None) -> None:
    assert _started(tmp_path) == workers.cores() - 1


def test_a_cache_with_kernels_starts_none(tmp_path: Path, two_cores: None) -> None:
    from anaconda_sim._numba import source_hash

    compiled = tmp_path / source_hash() / "anaconda_sim" / "hands"
    compiled.mkdir(parents=True)
    (compiled / "evaluator.eval5-1.py311.nbi").write_bytes(b"")
    assert _started(tmp_path) == 0


def test_switched_off_starts_none(tmp_path: Path, two_cores: None) -> None:
    assert _started(tmp_path, ANACONDA_SIM_WARMUP="0") == 0


def test_a_worker_serves_rounds_until_its_input_closes(tmp_path: Path) -> None:
    worker = workers.Worker()
    try:
        # a round whose kernel this process claimed first: the worker skips it
        assert workers.claim(str(tmp_path), 0)
        wire = ("anaconda_sim.hands.evaluator", "eval5", ())
        assert worker.send(str(tmp_path), [wire])
        assert worker.wait() == 0
        # a second round on the same worker: a kernel it cannot find costs it
        # nothing but the kernel (the caller compiles what a worker could not)
        second = tmp_path / "second"
        second.mkdir()
        assert worker.send(str(second), [("anaconda_sim.hands.evaluator", "no_such_kernel", ())])
        assert worker.wait() == 0
        assert (second / "0").exists() and worker.alive()
    finally:
        worker.close()
    assert worker.process.wait(timeout=60) == 0


def test_the_waiting_workers_are_taken_first() -> None:
    first = workers.take_workers(1)
    assert workers.take_workers(1) == first and first[0].alive()


_ONE_VERSION_SCRIPT = textwrap.dedent(
    """
    import gc
    import anaconda_sim as a
    from numba.core.registry import CPUDispatcher
    hand = "As Kd 7h 7c 4s 3d 2c"
    a.simulate(6, "sensible", 200, seed=1, progress=False)
    a.reveal_values("As Kd 7h 7c 4s", 6, deals=40, seed=1, progress=False)
    a.pass_values(hand, 6, deals=40, seed=1, progress=False)
    a.equity(hand, 6, deals=40, seed=1, progress=False)
    a.exploitability("sensible", 4, decisions="pass", hands=2, deals=20, seed=1, betting=True)
    game = a.play_deal(a.Rules(players=5), ["learned"] * 5, seed=3)
    a.action_values(game.history, "learned", move=20, deals=100, seed=1)
    for d in gc.get_objects():
        if isinstance(d, CPUDispatcher) and d.py_func.__module__.startswith("anaconda_sim"):
            print(d.py_func.__module__, d.py_func.__name__, len(d.overloads))
    """
)

#: kernels typed for several argument types by design (integer widths of
#: the evaluator's card helpers, the arrays kept alive by ``keep``)
_SEVERAL_BY_DESIGN = {"keep", "_suit_bit", "card_key", "_flush7", "eval_cards", "shuffle_prefix"}


@pytest.mark.slow
def test_every_compile_job_is_the_version_its_callers_use(tmp_path: Path) -> None:
    # a compile job whose argument types differ from its callers' is a
    # second version of the kernel: compiled by a worker for nothing. After
    # the first calls of the entry points whose rounds list jobs, every
    # kernel but those typed several ways by design has one version (the
    # jobs' versions are loaded into the process whether used or not)
    done = subprocess.run(
        [sys.executable, "-c", _ONE_VERSION_SCRIPT], capture_output=True, text=True, check=True,
        env={**os.environ, "ANACONDA_SIM_CACHE_DIR": os.environ.get(
            "ANACONDA_SIM_CACHE_DIR", str(tmp_path))},
    )  # fmt: skip
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    twice = {f"{module}.{name}": count for module, name, count in rows
             if int(count) > 1 and name not in _SEVERAL_BY_DESIGN}  # fmt: skip
    assert twice == {}
    assert {"builtin_discard", "discard_shown", "_learned_intent", "opponents_after_pass",
            "_rest_of_deal"} <= {name for _, name, _ in rows}  # fmt: skip
