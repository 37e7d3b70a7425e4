"""The package as a whole: cheap import, lazy public API, README commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anaconda_sim

ROOT = Path(__file__).resolve().parents[1]


def test_import_is_cheap_and_compiles_nothing():
    code = (
        "import time, sys; t = time.perf_counter(); import anaconda_sim; "
        "dt = time.perf_counter() - t; "
        "heavy = [m for m in ('anaconda_sim.hands.evaluator', 'anaconda_sim.sim.simulator', "
        "'numba') if m in sys.modules]; print(dt, heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, heavy = out.stdout.split(" ", 1)
    assert float(seconds) < 1.0
    assert heavy.strip() == "[]"


def test_every_public_name_resolves():
    for name in anaconda_sim.__all__:
        assert getattr(anaconda_sim, name) is not None, name


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in text.split("```bash\n")[1:3]]
    assert blocks[0].endswith("anaconda-sim run")
    assert blocks[1].endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI runs exactly the README's test command (quiet pip is the only flag it adds)
    assert blocks[1] in ci


# ------------------------------------------------------------------ shape --
def _all_modules() -> list[str]:
    import importlib
    import pkgutil

    names = ["anaconda_sim"]
    for info in pkgutil.walk_packages(anaconda_sim.__path__, "anaconda_sim."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
        importlib.import_module(info.name)
    return names


def test_no_public_name_is_shadowed_by_a_submodule():
    """Importing every submodule must not replace a public function of its
    package (``anaconda_sim.simulate`` was once both)."""
    import types

    modules = _all_modules()
    for name in modules:
        package = sys.modules[name]
        for public in getattr(package, "__all__", []):
            value = getattr(package, public)
            assert not isinstance(value, types.ModuleType), f"{name}.{public} is a module"
            assert f"{name}.{public}" not in modules, f"{name}.{public} is also a submodule"


def test_readme_python_block_runs_in_order(tmp_path):
    """The README's Python example, top to bottom, in a fresh interpreter."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## In Python", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert "ac.simulate(" in block and "ac.reveal_values(" in block
    done = subprocess.run([sys.executable, "-c", block + "\nprint('README block ok')"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("README block ok")


def _package_sources() -> list[Path]:
    return sorted((ROOT / "anaconda_sim").rglob("*.py"))


def test_no_module_imports_another_modules_private_names():
    import ast

    offences = []
    for path in _package_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                offences += [
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert offences == []


#: arrays whose slots have names (sim/layout.py, table/views.py, strategies/)
NAMED_ARRAYS = {"cfg", "res", "seat_res", "dec", "dec_row", "acc_seat", "acc_deal",
                "acc_cross", "params", "seat", "left_seat", "cross", "passes"}  # fmt: skip


def test_kernels_and_their_readers_use_named_slots():
    """No bare integer index into an array with a named layout."""
    import ast

    package = ROOT / "anaconda_sim"
    files = [*(package / "sim").rglob("*.py"), *(package / "strategies").rglob("*.py")]
    offences = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
                continue
            if node.value.id not in NAMED_ARRAYS:
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if any(isinstance(p, ast.Constant) and isinstance(p.value, int) for p in parts):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert offences == []


def test_statistical_constants_are_defined_once():
    import re

    z95 = [p for p in _package_sources() if re.search(r"^Z95 = ", p.read_text(), re.M)]
    assert [p.name for p in z95] == ["stats.py"]
    scale = [p for p in _package_sources() if re.search(r"\b420\b", p.read_text())]
    assert [p.name for p in scale] == ["stats.py"]


def test_one_public_name_loads_only_its_module():
    """Subpackages export lazily: the rules and histories need neither numba nor pandas."""
    code = (
        "import sys, anaconda_sim as ac; ac.Rules; ac.History; ac.Game; "
        "print([m for m in ('numba', 'pandas', 'anaconda_sim.hands.classes') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
