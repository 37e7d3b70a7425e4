"""The on-disk kernel cache cannot break the library (each case in a fresh process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "anaconda_sim"
CODE = "import anaconda_sim as ac; print(ac.evaluate('Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠'))"


def _run(cache_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "ANACONDA_SIM_CACHE_DIR": str(cache_dir), "ANACONDA_SIM_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip


def _entries(cache_dir: Path, suffix: str) -> list[Path]:
    return sorted(cache_dir.rglob(f"*{suffix}"))


@pytest.mark.slow
def test_corrupt_truncated_and_foreign_entries_are_recompiled(tmp_path):
    first = _run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "7268"
    assert first.stderr == ""
    data, index = _entries(tmp_path, ".nbc"), _entries(tmp_path, ".nbi")
    assert data and index
    for path in data:  # truncated
        path.write_bytes(path.read_bytes()[:40])
    truncated = _run(tmp_path)
    assert truncated.returncode == 0 and truncated.stdout.strip() == "7268"
    assert truncated.stderr.count("CacheWarning") == 1  # one warning, not one per kernel
    assert "could not be read" in truncated.stderr
    for path in _entries(tmp_path, ".nbi"):  # garbage from elsewhere
        path.write_text("not a numba index\n")
    foreign = _run(tmp_path)
    assert foreign.returncode == 0 and foreign.stdout.strip() == "7268"
    assert foreign.stderr.count("CacheWarning") == 1
    repaired = _run(tmp_path)  # the entries were rewritten: quiet again
    assert repaired.returncode == 0 and repaired.stdout.strip() == "7268"
    assert repaired.stderr == ""


def test_an_unwritable_cache_folder_falls_back_to_memory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    done = _run(blocker / "cache")  # a folder below a file cannot be made
    assert done.returncode == 0 and done.stdout.strip() == "7268"
    assert done.stderr.count("CacheWarning") == 1 and "cannot be written" in done.stderr
    # and numba wrote nothing inside the package instead
    assert not [p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")]


def _package_files() -> set[Path]:
    return {p for p in PACKAGE.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_no_file_is_written_inside_the_package_whatever_the_cache_folder(tmp_path):
    """numba's own cache locator falls back to __pycache__ beside the sources when
    the cache folder cannot be written; the package's kernels never do."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    before = _package_files()
    for variable in ("ANACONDA_SIM_CACHE_DIR", "NUMBA_CACHE_DIR"):
        env = {**os.environ, "ANACONDA_SIM_CACHE": "1", "PYTHONDONTWRITEBYTECODE": "1",
               variable: str(blocker / "cache")}  # fmt: skip
        if variable != "NUMBA_CACHE_DIR":
            env.pop("NUMBA_CACHE_DIR", None)
        done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                              text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0 and done.stdout.strip() == "7268", done.stderr
        assert "cannot be written" in done.stderr
        assert sorted(map(str, _package_files() - before)) == []


def test_a_writable_cache_folder_is_still_used(tmp_path):
    env = {**os.environ, "ANACONDA_SIM_CACHE": "1", "ANACONDA_SIM_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    assert _entries(tmp_path, ".nbi") and _entries(tmp_path, ".nbc")


_HITS = """
import sys
import anaconda_sim as ac
from numba.core.dispatcher import Dispatcher
value = ac.evaluate('Q♠ Q♥ Q♦ 9♣ 9♦ 8♦ 5♠')
kernels = [k for m in list(sys.modules.values()) if m and m.__name__.startswith('anaconda_sim')
           for k in vars(m).values() if isinstance(k, Dispatcher)]
print(value, sum(sum(k.stats.cache_hits.values()) for k in kernels),
      sum(sum(k.stats.cache_misses.values()) for k in kernels), ac.__file__)
"""


def _run_copy(package_parent: Path, cache_dir: Path) -> list[str]:
    env = {**os.environ, "ANACONDA_SIM_CACHE_DIR": str(cache_dir), "ANACONDA_SIM_CACHE": "1",
           "PYTHONPATH": str(package_parent)}  # fmt: skip
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", _HITS], env=env, capture_output=True, text=True,
                          timeout=600, cwd=package_parent, check=True)  # fmt: skip
    return done.stdout.split()


@pytest.mark.slow
def test_a_second_checkout_in_another_folder_finds_the_compiled_kernels(tmp_path):
    """The cache is keyed on the sources' content, not their path or time:
    a copy of the package in another folder, with new file times, loads what
    the first one compiled (a hit, no miss); a copy with one changed source
    file compiles afresh (a new cache folder)."""
    import shutil

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    first, second, changed = tmp_path / "one", tmp_path / "two", tmp_path / "changed"
    for clone in (first, second, changed):
        shutil.copytree(PACKAGE, clone / "anaconda_sim", ignore=ignore)
    with open(changed / "anaconda_sim" / "limits.py", "a") as source:
        source.write("\n# a change to kernel code is a new cache\n")
    cache = tmp_path / "cache"
    value, hits, misses, where = _run_copy(first, cache)
    assert value == "7268" and hits == "0" and int(misses) > 0 and where.startswith(str(first))
    compiled = misses
    value, hits, misses, where = _run_copy(second, cache)
    # every kernel called from Python is loaded (those it calls come with it)
    assert value == "7268" and int(hits) > 0 and misses == "0"
    assert where.startswith(str(second))
    value, hits, misses, _ = _run_copy(changed, cache)
    assert value == "7268" and (hits, misses) == ("0", compiled)
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 2


_COMPILE_ONE = """
from numba import types
from anaconda_sim.hands import evaluator
evaluator.eval7.compile((types.int64,) * 7)
print(sum(evaluator.eval7.stats.cache_misses.values()),
      sum(evaluator.eval7.stats.cache_hits.values()))
"""


@pytest.mark.slow
def test_processes_that_start_together_compile_a_kernel_once(tmp_path):
    """Test workers and compile workers share one cache: of four processes
    asking for the same missing version at once, one compiles it and the
    others load it (they wait for its lock)."""
    env = {**os.environ, "ANACONDA_SIM_CACHE_DIR": str(tmp_path), "ANACONDA_SIM_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    workers = [
        subprocess.Popen([sys.executable, "-c", _COMPILE_ONE], env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    outputs = [worker.communicate(timeout=600) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), outputs
    counts = sorted(tuple(map(int, out.split())) for out, _ in outputs)
    assert counts == [(0, 1), (0, 1), (0, 1), (1, 0)]


def _package_imports() -> dict[str, tuple[set[str], bool]]:
    """Each module of the package: the package modules it imports (at any
    depth of its code) and whether it defines or compiles a numba kernel."""
    import ast

    root = PACKAGE
    modules: dict[str, tuple[set[str], bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[:-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
            package = parts
        source = path.read_text()
        imported: set[str] = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                elif (node.module or "").startswith("anaconda_sim"):
                    base = []
                else:
                    continue
                target = base + (node.module.split(".") if node.module else [])
                imported.add(".".join(target))
                imported.update(".".join([*target, alias.name]) for alias in node.names)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names if a.name.startswith("anaconda_sim"))
        modules[".".join(parts)] = (imported, "jit" in source)
    return modules


def test_no_kernel_module_reaches_the_sources_left_out_of_the_cache_key():
    # The cache folder's name hashes every source a kernel can depend on; the
    # parts left out (OUTSIDE_KERNELS) must be unreachable from any module
    # that defines a kernel, through any chain of imports (a package's
    # __init__ runs when one of its modules is imported, so it counts too).
    from anaconda_sim._numba import OUTSIDE_KERNELS

    modules = _package_imports()
    reached: set[str] = set()
    pending = [name for name, (_, has_kernels) in modules.items() if has_kernels]
    assert "anaconda_sim.hands.evaluator" in pending
    while pending:
        name = pending.pop()
        if name in reached or name not in modules:
            continue
        reached.add(name)
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        pending.extend(modules[name][0])
    outside = {
        name for name in reached
        if len(name.split(".")) > 1
        and (name.split(".")[1] in OUTSIDE_KERNELS or name.split(".")[1] + ".py" in OUTSIDE_KERNELS)
    }  # fmt: skip
    assert outside == set(), f"kernel code imports {sorted(outside)}; hash them in source_hash"


def test_editing_pure_python_keeps_the_cache_folder_and_editing_a_kernel_changes_it(tmp_path):
    import shutil

    copy = tmp_path / "anaconda_sim"
    shutil.copytree(PACKAGE, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    probe = "import anaconda_sim._numba as n; print(n.source_hash())"

    def folder_hash() -> str:
        env = {**os.environ, "ANACONDA_SIM_CACHE_DIR": str(tmp_path / "cache")}
        env.pop("NUMBA_CACHE_DIR", None)
        out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True)  # fmt: skip
        return out.stdout.strip()

    first = folder_hash()
    assert len(first) == 16
    (copy / "cli" / "app.py").write_text((copy / "cli" / "app.py").read_text() + "\n# edit\n")
    assert folder_hash() == first
    evaluator = copy / "hands" / "evaluator.py"
    evaluator.write_text(evaluator.read_text() + "\n# edit\n")
    assert folder_hash() != first
