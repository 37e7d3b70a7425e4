"""Where a table came from: its model, written next to the numbers.

Every table the library writes carries the model that produced it (the
analysis, library version, rules, players, hero, opponents with their
parameters, betting, seed, deals or precision) and when it was written:
Parquet files in their schema metadata, CSV and JSON files in a sidecar
``NAME.meta.json`` (``pass.csv`` -> ``pass.csv.meta.json``).
:func:`anaconda_sim.read_table` reads a table back with its
``attrs`` restored, and refuses a file whose model it cannot read.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

import numpy as np

from ._version import __version__

__all__ = ["META_KEY", "PROVENANCE_FORMAT", "VALUE_UNITS", "provenance", "sidecar_path",
           "table_model"]

#: the key of the model in a Parquet schema's metadata
META_KEY = b"anaconda_sim"
#: the version of the provenance record (a reader refuses others)
PROVENANCE_FORMAT = 1


#: the unit of a table's ``value``: pot share (the showdown model) or net chips
VALUE_UNITS = {False: "pot share", True: "chips per deal"}


def table_model(
    analysis: str, function: str, *, players: int, rules: str, betting: bool, seed: Any,
    value_unit: str | None = None, **fields: Any,
) -> dict[str, Any]:  # fmt: skip
    """The model of a table, as its ``attrs`` hold it: the one builder behind
    every analysis, :func:`~anaconda_sim.exploitability`,
    :func:`~anaconda_sim.betting_exploitability`, ``simulate`` and
    ``score_choices``.

    ``analysis`` names the question (``"pass"``, ``"order"``, ``"simulate"``
    ...), ``function`` the public function (recorded as
    ``anaconda_sim.<function>``); ``model`` is ``"betting"`` or
    ``"showdown"``; ``value_unit`` defaults to the unit of ``betting``
    (:data:`VALUE_UNITS`); ``seed`` is kept when it is an integer (else
    ``None``: a run seeded by a generator or by nothing cannot be named);
    ``fields`` follow in the order given.

    Examples
    --------
    >>> model = table_model("pass", "pass_values", players=6, rules="pagat",
    ...                     betting=False, seed=np.int64(1), hand="Qs Qh")
    >>> model["function"], model["value_unit"], model["seed"], model["hand"]
    ('anaconda_sim.pass_values', 'pot share', 1, 'Qs Qh')
    """
    return {
        "analysis": analysis,
        "function": f"anaconda_sim.{function}",
        "players": players,
        "rules": rules,
        "betting": betting,
        "model": "betting" if betting else "showdown",
        "value_unit": VALUE_UNITS[betting] if value_unit is None else value_unit,
        "seed": int(seed) if isinstance(seed, (int, np.integer)) else None,
        **fields,
    }


def sidecar_path(path: Path) -> Path:
    """The sidecar of a CSV or JSON table: ``NAME.meta.json`` next to it."""
    return path.with_name(path.name + ".meta.json")


def _plain(value: Any) -> Any:
    """A JSON-ready copy of an attrs value (numpy scalars and arrays, tuples, paths)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def provenance(attrs: dict[str, Any]) -> dict[str, Any]:
    """The record written with a table: its model (``attrs``), the library
    version and the time.

    Examples
    --------
    >>> record = provenance({"analysis": "pass", "players": np.int64(6)})
    >>> record["model"], record["library"], record["format"]
    ({'analysis': 'pass', 'players': 6}, 'anaconda-sim', 1)
    """

    return {
        "format": PROVENANCE_FORMAT,
        "library": "anaconda-sim",
        "version": __version__,
        "written": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "model": _plain(dict(attrs)),
    }


def encode(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1, sort_keys=False)


def decode(text: str | bytes, where: str) -> dict[str, Any]:
    """The model of a provenance record, or a ValueError naming ``where``."""
    try:
        record = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"the model of {where} is not readable JSON ({error})") from None
    if not isinstance(record, dict) or record.get("library") != "anaconda-sim":
        raise ValueError(f"{where} holds no anaconda-sim model")
    if record.get("format") != PROVENANCE_FORMAT:
        raise ValueError(
            f"{where} has provenance format {record.get('format')!r}; this version reads "
            f"format {PROVENANCE_FORMAT}"
        )
    model = record.get("model")
    if not isinstance(model, dict):
        raise ValueError(f"{where} has no model in its provenance record")
    return {**model, "written": record.get("written"), "library_version": record.get("version")}
