"""Shared test configuration."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The slow, obviously correct twins of the kernels (tests/twins/) are plain
# modules the tests import by name.
sys.path.insert(0, str(Path(__file__).resolve().parent / "twins"))

# Hypothesis: deterministic in CI so a run is reproducible; numba compiles on
# first call, so the first example may be slow.
settings.register_profile(
    "anaconda",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "anaconda"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A selection that matches no test (exit code 5) is not a failure of the
    # suite, e.g. `pytest -k something` in CI scripts.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK
