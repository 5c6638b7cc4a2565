"""The LanceDB `fact_validity` table: Validity rows in (unchanged ones skipped, vanished ones deleted), a mapping out.

Rows are derived from the memories by every reflection (`omoide.reflect.validity`) and hold
ids and times only, so a forgotten memory leaves no text here; the next reflection drops
its row and ends nothing with it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

import lancedb
import pyarrow as pa

from omoide.core.schemas import FACT_VALIDITY
from omoide.store.connect import connect_db
from omoide.store.memories import sql_list
from omoide.store.table_version import VersionKey, version_key

log = logging.getLogger(__name__)

TABLE = "fact_validity"
# Homes whose validities a process keeps (a server reads one; tests open many).
_KEPT_HOMES = 8


@dataclass(frozen=True)
class Validity:
    """When a fact was true: from its own time until the fact that replaced it (None: still)."""

    memory_id: str
    entity: str  # the shared entity's slug ("" when nothing replaced it and it has none)
    attribute: str  # work, store, home, similar or the judge's word; "" when never compared
    valid_from: datetime
    valid_to: datetime | None = None
    superseded_by: str | None = None
    method: str = ""  # "rule" or "llm:<model>": who decided the replacement

    def standing(self, at: datetime) -> bool:
        """A time (an exclusive end, such as the end of an --as-of day) -> whether the fact still stood just before it."""
        return self.valid_to is None or self.valid_to >= at


def current_of(memory_id: str, found: Mapping[str, Validity], at: datetime) -> str:
    """A fact's id + validities + a time -> the fact standing at that time in its line of replacements."""
    seen = {memory_id}
    v = found.get(memory_id)
    while v is not None and not v.standing(at) and v.superseded_by and v.superseded_by not in seen:
        memory_id = v.superseded_by
        seen.add(memory_id)
        v = found.get(memory_id)
    return memory_id


def open_validity(db_dir: Path) -> lancedb.table.Table:
    """LanceDB folder -> the fact_validity table (created empty when missing)."""
    return connect_db(db_dir).create_table(TABLE, schema=FACT_VALIDITY, exist_ok=True)


def _rows(found: Mapping[str, Validity]) -> pa.Table:
    """Validities -> FACT_VALIDITY rows, by memory id."""
    keys = [f.name for f in FACT_VALIDITY]
    records = [{k: getattr(found[m], k) for k in keys} for m in sorted(found)]
    return pa.Table.from_pylist(records, schema=FACT_VALIDITY)


def save_validity(table: lancedb.table.Table, found: Mapping[str, Validity]) -> dict[str, int]:
    """Validities of every W fact -> stored; unchanged rows untouched, rows of facts gone deleted; counts."""
    rows = _rows(found)
    stored = {r["memory_id"]: r for r in table.search().to_arrow().to_pylist()}
    fresh = rows.to_pylist()
    changed = [i for i, r in enumerate(fresh) if stored.get(r["memory_id"]) != r]
    if changed:
        merge = table.merge_insert("memory_id").when_matched_update_all()
        merge.when_not_matched_insert_all().execute(rows.take(changed))
    gone = sorted(set(stored) - set(found))
    if gone:
        table.delete(f"memory_id IN ({sql_list(gone)})")
    log.info("fact validity: %d written, %d deleted", len(changed), len(gone))
    return {"written": len(changed), "deleted": len(gone)}


def _read(table: lancedb.table.Table) -> Mapping[str, Validity]:
    """The fact_validity table -> every stored Validity by memory id, read-only."""
    rows = table.to_arrow().to_pylist()
    return MappingProxyType({r["memory_id"]: Validity(**r) for r in rows})


class _Kept:
    """One home's validities, with the table version they were read at."""

    def __init__(self, table: lancedb.table.Table) -> None:
        self.table = table
        self.version: VersionKey | None = None
        self.found: Mapping[str, Validity] = MappingProxyType({})

    def current(self) -> Mapping[str, Validity]:
        """() -> the validities at the table's newest version, read again only if it moved."""
        self.table.checkout_latest()
        key = version_key(self.table)
        if key != self.version:
            self.found, self.version = _read(self.table), key
        return self.found


_KEPT: OrderedDict[str, _Kept] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def load_validity(db_dir: Path) -> Mapping[str, Validity]:
    """LanceDB folder -> every stored Validity by memory id (empty before the first reflection).

    A long-lived reader (`omoide mcp`, `omoide server`) asks this for every question: the rows
    are kept per home and read again only when the table's version moved (~1 ms to ask,
    against ~7 ms to read 33 rows through a query), as every write makes a new version and a
    table made again has a new folder.
    """
    where = str(db_dir)
    with _KEPT_LOCK:
        kept = _KEPT.get(where)
        if kept is not None:
            _KEPT.move_to_end(where)
            try:
                return kept.current()
            except (ValueError, OSError, RuntimeError):
                # Dropped or rewritten under this handle (a reindex, a forget): open it again.
                del _KEPT[where]
        try:
            table = connect_db(db_dir).open_table(TABLE)
        except ValueError:
            return MappingProxyType({})
        kept = _KEPT[where] = _Kept(table)
        while len(_KEPT) > _KEPT_HOMES:
            _KEPT.popitem(last=False)
        return kept.current()
