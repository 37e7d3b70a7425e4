"""Lazy exports: a package's public names, imported from their modules on first use.

A package that re-exports names from heavy modules (numba kernels, pandas)
would load them all when any one name is asked for; with :func:`lazy_exports`
asking for ``anaconda_sim.Rules`` loads the rules and nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_exports(
    package: str, names: Mapping[str, str], eager: Iterable[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module-level ``__getattr__`` and ``__dir__`` for ``package``.

    ``names`` maps each public name to the submodule (relative to
    ``package``) that defines it; the value is imported on first access and
    kept in the package's namespace. ``eager``: public names the package
    defines itself (listed by ``dir`` too).
    """
    listed = sorted({*names, *eager})

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return list(listed)

    return __getattr__, __dir__
