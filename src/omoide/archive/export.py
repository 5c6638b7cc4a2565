"""A home -> one portable zip archive (see `layout` for what it holds)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from omoide.archive.layout import (
    CONFIG,
    FORMAT,
    MANIFEST,
    STATE_FILES,
    TABLES,
    VERSION,
    folders,
)
from omoide.archive.rows import json_lines
from omoide.core.files import is_temp, replacing
from omoide.core.location import StorePath, files_under, open_read, relative_name
from omoide.core.settings import Settings
from omoide.store.connect import connect_db
from omoide.store.memories import stored_model

_CHUNK = 1 << 20


def _files(root: StorePath) -> list[StorePath]:
    """Folder or object-store prefix -> its files, sorted (omoide's own leftover temporary files left out)."""
    return [p for p in files_under(root) if not (isinstance(p, Path) and is_temp(p))]


def _put_file(zf: zipfile.ZipFile, name: str, path: StorePath) -> str:
    """Zip + member name + a file -> the file stored under that name; its SHA-256."""
    digest = hashlib.sha256()
    with open_read(path) as src, zf.open(name, "w", force_zip64=True) as dst:
        while block := src.read(_CHUNK):
            digest.update(block)
            dst.write(block)
    return digest.hexdigest()


def _put_lines(zf: zipfile.ZipFile, name: str, lines: Iterable[str]) -> tuple[str, int]:
    """Zip + member name + text lines -> stored as one UTF-8 member; (SHA-256, lines)."""
    digest, n = hashlib.sha256(), 0
    with zf.open(name, "w", force_zip64=True) as dst:
        for line in lines:
            data = line.encode("utf-8")
            digest.update(data)
            dst.write(data)
            n += 1
    return digest.hexdigest(), n


def _names(db: Any) -> set[str]:
    """LanceDB connection -> the names of its tables."""
    return set(db.list_tables().tables)


def _embedding(db: Any) -> tuple[str | None, int | None]:
    """LanceDB connection -> (embedding model, dimension) of its memories, or (None, None)."""
    if "memories" not in _names(db):
        return None, None
    table = db.open_table("memories")
    return stored_model(table), table.schema.field("vector").type.list_size


def export_home(settings: Settings, out: Path) -> dict[str, Any]:
    """Settings + output path -> the home written to one zip archive (atomically); its manifest."""
    db = connect_db(settings.lancedb_dir)
    model, dim = _embedding(db)
    hashes: dict[str, str] = {}
    counts: dict[str, int] = {}
    with replacing(out) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        config = settings.home / CONFIG
        if config.is_file():
            hashes[CONFIG] = _put_file(zf, CONFIG, config)
        for prefix, root in folders(settings).items():
            files = _files(root)
            for path in files:
                name = f"{prefix}/{relative_name(path, root)}"
                hashes[name] = _put_file(zf, name, path)
            counts[f"{prefix} files"] = len(files)
        names = _names(db)
        for table in TABLES:
            rows = db.open_table(table).to_arrow() if table in names else None
            name = f"tables/{table}.jsonl"
            hashes[name], counts[table] = _put_lines(
                zf, name, json_lines(rows) if rows is not None else ()
            )
        for state in STATE_FILES:
            path = settings.state_dir / state
            if path.is_file():
                hashes[f"state/{state}"] = _put_file(zf, f"state/{state}", path)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "embed_model": model,
            "embed_dim": dim,
            "counts": counts,
            "files": hashes,
        }
        zf.writestr(MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    return manifest
