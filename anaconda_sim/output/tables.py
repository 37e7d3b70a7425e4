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

from ..provenance import META_KEY, decode, encode, provenance, sidecar_path

__all__ = ["TABLE_FORMATS", "format_table", "read_table", "write_table"]

TABLE_FORMATS = (".csv", ".parquet", ".json")

_LABELS = ("pass", "discard", "keep", "order", "hidden", "stage", "declare")


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
    if "count" in shown and (shown["count"] > 1).any():  # rows standing for several choices
        out["count"] = shown["count"].map(lambda n: f"x{n}")
    value = "equity" if "equity" in shown else "value"
    out[value] = shown[value].map(lambda v: f"{v:.{digits}f}")
    out["95% CI"] = [
        f"[{lo:.{digits}f}, {hi:.{digits}f}]"
        for lo, hi in zip(shown["ci_low"], shown["ci_high"], strict=True)
    ]
    if "diff_vs_best" in shown:
        tied = shown["tied_with_best"] if "tied_with_best" in shown else [False] * len(shown)
        out["vs best (± se)"] = [
            "best" if d == 0 and s == 0
            else f"{d:+.{digits}f} ± {s:.{digits}f}" + (" tie" if t else "")
            for d, s, t in zip(shown["diff_vs_best"], shown["diff_se"], tied, strict=True)
        ]  # fmt: skip
    if "p_best" in shown:
        out["P(best)"] = shown["p_best"].map(lambda p: f"{p:.3f}")
    if "confirm_value" in shown:
        out["confirmed (fresh deals)"] = [
            "" if v != v else f"{v:.{digits}f} ± {s:.{digits}f}"  # NaN: not confirmed
            for v, s in zip(shown["confirm_value"], shown["confirm_se"], strict=True)
        ]
    if "high_share" in shown and "low_share" in shown:  # hi-lo: the pot share by half
        out["high half"] = shown["high_share"].map(lambda v: f"{v:.{digits}f}")
        out["low half"] = shown["low_share"].map(lambda v: f"{v:.{digits}f}")
    if "left_gain" in shown:
        out["left gain"] = shown["left_gain"].map(lambda v: f"{v:+.{digits}f}")
    if "deals" in shown:
        out["deals"] = shown["deals"]
    text = out.to_string(index=False, justify="left")
    return "\n".join(line.rstrip() for line in text.splitlines())


def _table_format(path: Path, doing: str) -> str:
    """The table format of ``path`` by its extension, or a clear error."""
    suffix = path.suffix.lower()
    if suffix not in TABLE_FORMATS:
        raise ValueError(
            f"cannot {doing} {str(path)!r}: unknown extension {suffix or '(none)'!r}; "
            f"use one of {', '.join(TABLE_FORMATS)}"
        )
    return suffix


def write_table(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` as CSV, Parquet or JSON, chosen by the file extension,
    with its model (:mod:`~anaconda_sim.provenance`).

    Parquet keeps the model in its schema metadata; CSV and JSON in a
    sidecar ``NAME.meta.json``. The folder is created if needed. Parquet
    needs ``pyarrow``. :func:`read_table` reads the table back.

    Examples
    --------
    >>> frame = pd.DataFrame({"value": [0.5]})
    >>> frame.attrs = {"analysis": "equity", "players": 4}
    >>> path = write_table(frame, "equity.csv")
    >>> read_table(path).attrs["players"], path.with_name("equity.csv.meta.json").exists()
    (4, True)
    """

    path = Path(path)
    suffix = _table_format(path, "write a table to")
    path.parent.mkdir(parents=True, exist_ok=True)
    record = encode(provenance(frame.attrs))
    plain = frame.copy()
    plain.attrs = {}
    if suffix in (".csv", ".json"):
        if suffix == ".csv":
            plain.to_csv(path, index=False)
        else:
            plain.to_json(path, orient="records", indent=2, force_ascii=False)
        sidecar_path(path).write_text(record + "\n", encoding="utf-8")
        return path
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as error:  # pragma: no cover - pyarrow is in the extras
        raise ValueError(
            "writing Parquet needs pyarrow: pip install 'anaconda-sim[parquet]'"
        ) from error
    table = pa.Table.from_pandas(plain, preserve_index=False)
    metadata = {**(table.schema.metadata or {}), META_KEY: record.encode("utf-8")}
    pq.write_table(table.replace_schema_metadata(metadata), path)
    return path


def read_table(path: str | Path) -> pd.DataFrame:
    """A table written by :func:`write_table`, with its model in ``attrs``.

    ``attrs`` gets the model back, plus ``written`` (when) and
    ``library_version``. A file whose model cannot be read (no sidecar, no
    Parquet metadata, another format) is refused: numbers without their
    model cannot be told apart.

    Examples
    --------
    >>> read_table("nowhere.csv")
    Traceback (most recent call last):
    ...
    ValueError: cannot read 'nowhere.csv': no such file
    """

    path = Path(path)
    suffix = _table_format(path, "read a table from")
    if not path.is_file():
        raise ValueError(f"cannot read {str(path)!r}: no such file")
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        raw = (table.schema.metadata or {}).get(META_KEY)
        if raw is None:
            raise ValueError(
                f"{str(path)!r} carries no model (no anaconda_sim schema metadata); "
                "read tables written by anaconda_sim.write_table, or pandas.read_parquet "
                "for bare numbers"
            )
        model = decode(raw, repr(str(path)))
        frame = table.to_pandas()
    else:
        meta = sidecar_path(path)
        if not meta.is_file():
            raise ValueError(
                f"{str(path)!r} carries no model: its sidecar {meta.name!r} is missing; "
                "keep the sidecar next to the table (write_table writes both)"
            )
        model = decode(meta.read_text(encoding="utf-8"), repr(str(meta)))
        if suffix == ".csv":
            frame = pd.read_csv(path)
        else:
            frame = pd.read_json(path, orient="records")
    frame.attrs = model
    return frame
