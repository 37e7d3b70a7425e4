"""Crash safety: a sweep killed with SIGKILL at random moments, then resumed,
ends with exactly the files of an uninterrupted run."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from anaconda_sim.sweep import load_results, run_sweep, sweep_status

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

ROOT = Path(__file__).resolve().parents[2]
SPEC = """\
kind = "equity"
players = [2, 3, 5]
hand_classes = ["AA/K", "QQ/A F4", "777", "T9-high S4", "KK-55 F4", "AAAA"]
samples_per_class = 3
deals = 4000
seed = 17
unit_size = 2
"""


def _units(folder: Path) -> dict[str, bytes]:
    units = folder / "units"
    if not units.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(units.glob("unit-*.parquet"))}


def _start(spec: Path, out: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "anaconda_sim.cli.sweep", str(spec), "--out", str(out), "-q"]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ})  # fmt: skip


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    reference = tmp_path / "reference"
    report = run_sweep(spec, reference, progress=False)  # also compiles the kernels
    expected = _units(reference)
    assert len(expected) == report.total == 27

    out = tmp_path / "killed"
    rng = random.Random(2026)
    kills = 0
    for _ in range(3):
        before = len(_units(out))
        process = _start(spec, out)
        # wait for a few more finished units, then kill at a random moment
        target = before + rng.randint(1, 5)
        deadline = time.monotonic() + 60
        while process.poll() is None and len(_units(out)) < target:
            assert time.monotonic() < deadline, "the sweep made no progress"
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.08))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait()
        # whatever the moment, every unit file there is complete and correct
        for name, data in _units(out).items():
            assert data == expected[name], name
        if len(_units(out)) == len(expected):
            break
    assert kills >= 2
    process = _start(spec, out)
    assert process.wait(timeout=120) == 0
    assert _units(out) == expected
    assert sweep_status(out).complete and sweep_status(out).temporary == 0
    assert load_results(out).equals(load_results(reference))
