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
                "acc_cross", "params", "seat", "left_seat", "cross", "passes", "pub", "own",
                "scratch"}  # fmt: skip
#: arrays read only through named slots: no number at all in the index
#: (``params[O0 + 5]`` is as bare as ``params[5]``; a loop index is fine)
FULLY_NAMED = {"params"}


def _is_int(node: object) -> bool:
    import ast

    return isinstance(node, ast.Constant) and type(node.value) is int


def test_kernels_and_their_readers_use_named_slots():
    """No bare integer index into an array with a named layout, anywhere in
    the package; no number at all in an index into a parameter vector."""
    import ast

    offences = []
    for path in _package_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
                continue
            if node.value.id not in NAMED_ARRAYS:
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if node.value.id in FULLY_NAMED:
                parts = [sub for part in parts for sub in ast.walk(part)]
            if any(_is_int(p) for p in parts):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert offences == []


def test_every_learned_weight_has_a_named_slot():
    from anaconda_sim.strategies.learned import params as P

    for prefix, first, features in (("W", P.W0, P.PASS_FEATURES), ("O", P.O0, P.ORDER_FEATURES)):
        for i, feature in enumerate(features):
            slot = getattr(P, f"{prefix}_{feature.upper()}")
            assert slot == first + i, feature
            assert P.PARAM_NAMES[slot] == f"{prefix.lower()}_{feature}"
    for r in range(P.ROUNDS):
        for first, name in ((P.BET0, "bet"), (P.RAISE0, "raise"), (P.CALL0, "call")):
            assert P.PARAM_NAMES[first + r] == f"{name}_r{r}"
    assert P.PARAM_NAMES[P.BLUFF] == "bluff"


def _string_constants() -> dict[str, list[str]]:
    """Every string literal of the package (docstrings included), with where it is."""
    import ast

    found: dict[str, list[str]] = {}
    for path in _package_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.setdefault(node.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_category_names_are_written_once():
    """The hand, exposed (R11) and low (R23) category names are one list of
    words: each name is written once in the package."""
    from anaconda_sim.hands.evaluator import CATEGORY_NAMES, EXPOSED_CATEGORY_NAMES
    from anaconda_sim.hands.low import LOW_CATEGORY_NAMES

    strings = _string_constants()
    names = {*CATEGORY_NAMES, *EXPOSED_CATEGORY_NAMES, *LOW_CATEGORY_NAMES}
    assert {"No pair", "Two pair", "Four of a kind"} <= names
    written = {name: strings.get(name, []) for name in names}
    assert {name: len(where) for name, where in written.items()} == dict.fromkeys(names, 1), written


def _int_literals(value: int) -> list[str]:
    import ast

    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _package_sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if _is_int(node) and node.value == value
    ]


def test_the_deck_size_is_written_only_where_it_is_defined():
    """52 (``limits.DECK_SIZE``) as a number only in limits.py and cards.py
    (the card codec); docstrings and comments may say it."""
    places = {where.split(":")[0] for where in _int_literals(52)}
    assert places == {"anaconda_sim/limits.py", "anaconda_sim/cards.py"}


def test_default_sample_sizes_are_defined_once():
    import re

    from anaconda_sim import limits
    from anaconda_sim.analysis import driver
    from anaconda_sim.sweep import spec

    for name in ("DEFAULT_DEALS", "DEFAULT_MAX_DEALS"):
        defined = [p.name for p in _package_sources()
                   if re.search(rf"^{name}\b.*=", p.read_text(encoding="utf-8"), re.M)]  # fmt: skip
        assert defined == ["limits.py"], name
        assert getattr(driver, name) == getattr(spec, name) == getattr(limits, name)
    assert (limits.DEFAULT_DEALS, limits.DEFAULT_MAX_DEALS) == (20_000, 2_000_000)


def test_random_streams_and_forced_choices_are_named():
    """Every stream argument of ``new_state``/``stream_state`` is a name
    (``STREAM_DECK``, ``STREAM_SEAT + seat``, ...), never a number, and so
    is every forced-choice code (``force=FORCE_NONE``, ``cfg[C_FORCE] != FORCE_NONE``)."""
    import ast

    offences = []
    for path in _package_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and len(node.args) == 3:
                called = node.func.attr if isinstance(node.func, ast.Attribute) else (
                    node.func.id if isinstance(node.func, ast.Name) else "")  # fmt: skip
                if called in ("new_state", "stream_state") and any(
                    _is_int(sub) for sub in ast.walk(node.args[2])
                ):
                    offences.append(f"{where} {ast.unparse(node)}")
            if isinstance(node, ast.keyword) and node.arg == "force" and _is_int(node.value):
                offences.append(f"{where} force={ast.unparse(node.value)}")
            if isinstance(node, ast.Compare) and "C_FORCE" in ast.unparse(node.left):
                if any(_is_int(c) for c in node.comparators):
                    offences.append(f"{where} {ast.unparse(node)}")
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
