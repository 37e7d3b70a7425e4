"""What a unit file says it is, and whether it is what the manifest recorded.

Every unit file carries a small JSON record in its Parquet schema metadata,
under the key ``anaconda_sim.sweep``: the unit's index (``unit``), the hash
of the sweep's spec (``spec_hash``) and its number of rows (``rows``). The
manifest records the SHA-256 of each finished unit file's bytes. A unit file
counts as finished only when :func:`unit_problem` finds nothing wrong: it
reads as Parquet, its record names this unit of this sweep, its row count is
right and its bytes hash to the checksum in the manifest.

Examples
--------
>>> import pandas as pd
>>> import pyarrow as pa, pyarrow.parquet as pq
>>> table = pa.Table.from_pandas(pd.DataFrame({"unit": [3, 3]}), preserve_index=False)
>>> table = table.replace_schema_metadata({**table.schema.metadata,
...                                        **unit_metadata(3, "abc", 2)})
>>> sink = pa.BufferOutputStream()
>>> pq.write_table(table, sink)
>>> data = sink.getvalue().to_pybytes()
>>> unit_problem(data, 3, "abc", sha256_hex(data)) is None
True
>>> unit_problem(data, 4, "abc", sha256_hex(data))
'holds unit 3, not unit 4 (a copy under another name?)'
>>> unit_problem(data[:-9], 3, "abc", sha256_hex(data))
'cannot be read (truncated, or not a Parquet file: ...)'
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pandas as pd

__all__ = ["METADATA_KEY", "read_frame", "sha256_hex", "unit_metadata", "unit_problem"]

#: the key of a unit file's record in its Parquet schema metadata
METADATA_KEY = b"anaconda_sim.sweep"


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex (the checksum the manifest records)."""
    return hashlib.sha256(data).hexdigest()


def unit_metadata(index: int, spec_hash: str, rows: int) -> dict[bytes, bytes]:
    """The schema metadata entry that makes a Parquet file unit ``index`` of a sweep."""
    record = {"unit": int(index), "spec_hash": spec_hash, "rows": int(rows)}
    return {METADATA_KEY: json.dumps(record, sort_keys=True).encode()}


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _footer(data: bytes) -> tuple[dict[str, Any] | None, int]:
    """The record of a unit file and its number of rows; ``ValueError`` if unreadable."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    except Exception as error:  # pyarrow raises its own error types
        raise ValueError(f"truncated, or not a Parquet file: {_one_line(error)}") from None
    raw = (meta.metadata or {}).get(METADATA_KEY)
    if raw is None:
        return None, int(meta.num_rows)
    try:
        record = json.loads(raw.decode("utf-8"))
    except ValueError:
        record = {}
    return (record if isinstance(record, dict) else {}), int(meta.num_rows)


def unit_problem(data: bytes, index: int, spec_hash: str, recorded: str | None) -> str | None:
    """Why the bytes of a unit file do not count as unit ``index``; ``None`` if they do.

    Parameters
    ----------
    data
        The file's bytes.
    index, spec_hash
        The unit the file's name says it is, and the hash of the folder's spec.
    recorded
        The checksum the manifest records for this file (``None``: none).

    Returns
    -------
    str or None
        A reason to show after the file's name ("cannot be read (...)",
        "belongs to another sweep (...)", ...).
    """
    if not data:
        return "cannot be read (it is empty)"
    try:
        record, rows = _footer(data)
    except ValueError as error:
        return f"cannot be read ({error})"
    if record is None:
        return "carries no sweep record (written by an older version or another program)"
    if record.get("spec_hash") != spec_hash:
        return f"belongs to another sweep (spec {record.get('spec_hash')}, not {spec_hash})"
    if record.get("unit") != index:
        return f"holds unit {record.get('unit')}, not unit {index} (a copy under another name?)"
    if record.get("rows") != rows:
        return f"holds {rows} rows, but its record says {record.get('rows')}"
    if recorded is None:
        return "is not recorded in the manifest (the manifest was edited)"
    if sha256_hex(data) != recorded:
        return "does not match its checksum in the manifest (its bytes changed)"
    return None


def read_frame(data: bytes) -> pd.DataFrame:
    """The DataFrame of a unit file's bytes (``ValueError`` if they are not Parquet)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(pa.BufferReader(data)).to_pandas()
    except Exception as error:  # pyarrow raises its own error types
        raise ValueError(_one_line(error)) from None
