"""Arrow rows <-> JSON lines: timestamps as ISO 8601 text, vectors as plain number lists.

JSON has no timestamp, so each timestamp is written as ISO 8601 with its offset and read
back through the table's schema (nested ones too, as in an opinion's history). A vector is
written with 9 significant digits, which is enough for every float32 to come back as the
very same float32, and under half the size of the shortest double repr that `json` writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa

VECTOR = "vector"


def _plain(value: object) -> object:
    """A value of a row -> JSON-ready (datetimes as ISO 8601 text)."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def json_lines(table: pa.Table, batch_rows: int = 2048) -> Iterator[str]:
    """Arrow table -> one JSON object per row (with its newline); a vector column as numbers."""
    for batch in table.to_batches(max_chunksize=batch_rows):
        rows = batch.drop_columns([VECTOR]).to_pylist() if VECTOR in batch.schema.names else None
        if rows is None:
            for row in batch.to_pylist():
                yield json.dumps(row, default=_plain, ensure_ascii=False) + "\n"
            continue
        vectors = batch.column(VECTOR).to_pylist()
        for row, vector in zip(rows, vectors, strict=True):
            head = json.dumps(row, default=_plain, ensure_ascii=False)
            if vector is None:
                yield head[:-1] + ', "vector": null}\n'
                continue
            numbers = ",".join(f"{x:.9g}" for x in np.asarray(vector, dtype=np.float32).tolist())
            yield f'{head[:-1]}, "vector": [{numbers}]}}\n'


def _revive(value: Any, kind: pa.DataType) -> Any:
    """A JSON value + its Arrow type -> the Python value Arrow takes (ISO text -> datetime)."""
    if value is None:
        return None
    if pa.types.is_timestamp(kind):
        return datetime.fromisoformat(value)
    if pa.types.is_struct(kind):
        return {f.name: _revive(value.get(f.name), f.type) for f in kind}
    if pa.types.is_list(kind) or pa.types.is_fixed_size_list(kind):
        inner = kind.value_type
        if pa.types.is_floating(inner):
            return value
        return [_revive(v, inner) for v in value]
    return value


def rows_table(lines: Iterable[str], schema: pa.Schema) -> pa.Table:
    """JSON lines + the table's schema -> an Arrow table in that schema (extra keys refused)."""
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = json.loads(line)
        unknown = set(row) - set(schema.names)
        if unknown:
            raise ValueError(f"line {n}: unknown column(s) {sorted(unknown)}")
        rows.append({f.name: _revive(row.get(f.name), f.type) for f in schema})
    return pa.Table.from_pylist(rows, schema=schema)
