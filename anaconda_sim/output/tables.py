"""Result tables: readable text for the terminal, files by extension.

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"pass": ["8♦ 3♠ 2♣"], "rank": [1], "value": [0.2676],
...                       "se": [0.0014], "ci_low": [0.2648], "ci_high": [0.2703]})
>>> print(format_table(frame))
 rank     pass  value  95% CI
    1 8♦ 3♠ 2♣ 0.2676  [0.2648, 0.2703]
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["TABLE_FORMATS", "format_table", "write_table"]

TABLE_FORMATS = (".csv", ".parquet", ".json")

_LABELS = ("pass", "discard", "keep", "order", "hidden", "stage")


def format_table(frame: pd.DataFrame, top: int | None = None, digits: int = 4) -> str:
    """A compact text table: rank, the choice, value with its 95% CI, paired difference."""
    shown = frame if top is None else frame.head(top)
    out = pd.DataFrame()
    if "rank" in shown:
        out["rank"] = shown["rank"]
    elif "players" in shown:
        out["players"] = shown["players"]
    for label in _LABELS:
        if label in shown:
            out[label] = shown[label]
    value = "equity" if "equity" in shown else "value"
    out[value] = shown[value].map(lambda v: f"{v:.{digits}f}")
    out["95% CI"] = [
        f"[{lo:.{digits}f}, {hi:.{digits}f}]"
        for lo, hi in zip(shown["ci_low"], shown["ci_high"], strict=True)
    ]
    if "diff_vs_best" in shown:
        out["vs best (± se)"] = [
            "best" if d == 0 and s == 0 else f"{d:+.{digits}f} ± {s:.{digits}f}"
            for d, s in zip(shown["diff_vs_best"], shown["diff_se"], strict=True)
        ]
    if "left_gain" in shown:
        out["left gain"] = shown["left_gain"].map(lambda v: f"{v:+.{digits}f}")
    if "deals" in shown:
        out["deals"] = shown["deals"]
    text = out.to_string(index=False, justify="left")
    return "\n".join(line.rstrip() for line in text.splitlines())


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` as CSV, Parquet or JSON, chosen by the file extension.

    The folder is created if needed. Parquet needs ``pyarrow``.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_FORMATS:
        raise ValueError(
            f"cannot write a table to {str(path)!r}: unknown extension {suffix or '(none)'!r}; "
            f"use one of {', '.join(TABLE_FORMATS)}"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    plain = frame.copy()
    plain.attrs = {}
    if suffix == ".csv":
        plain.to_csv(path, index=False)
    elif suffix == ".json":
        plain.to_json(path, orient="records", indent=2, force_ascii=False)
    else:
        try:
            import pyarrow  # noqa: F401
        except ImportError as error:  # pragma: no cover - pyarrow is in the extras
            raise ValueError(
                "writing Parquet needs pyarrow: pip install 'anaconda-sim[parquet]'"
            ) from error
        plain.to_parquet(path, index=False)
    return path
