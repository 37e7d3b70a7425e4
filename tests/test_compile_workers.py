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
