"""A portable archive -> an empty home filled from it, checked member by member, all or nothing.

Everything is first unpacked into a staging folder inside the home (each member checked
against the manifest's SHA-256 as it streams, every path kept inside its folder), the
LanceDB tables are built there, and only then are the folders moved into place: a damaged
or truncated archive leaves the home as it was. The memories keep their vectors when the
home embeds with the archive's model; otherwise each memory (and each opinion's vector,
which is its origin memory's) is embedded again with the configured model.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import pyarrow as pa

from omoide.archive.layout import (
    CONFIG,
    FORMAT,
    MANIFEST,
    READS,
    STATE_FILES,
    TABLES,
    folders,
    member_path,
    table_schema,
)
from omoide.archive.rows import rows_table
from omoide.core import schemas
from omoide.core.errors import OmoideError
from omoide.core.files import private_dir
from omoide.core.location import Remote, StorePath, files_under, upload_folder
from omoide.core.settings import Settings
from omoide.embed.base import Embedder
from omoide.embed.text import embedding_text
from omoide.store.connect import connect_db
from omoide.store.memories import catch_up_indices, content_hash, lookup, open_memories

_CHUNK_ROWS = 2048
_BLOCK = 1 << 20


class ArchiveError(OmoideError):
    """The archive is not an omoide export, or a member is missing, damaged or out of place."""


def read_manifest(zf: zipfile.ZipFile, archive: Path) -> dict[str, Any]:
    """Open archive -> its manifest, checked to be an omoide export of a version this reads."""
    try:
        manifest = json.loads(zf.read(MANIFEST))
    except KeyError:
        raise ArchiveError(f"{archive}: no {MANIFEST}; not an `omoide export` archive") from None
    except ValueError as exc:
        raise ArchiveError(f"{archive}: {MANIFEST} is not valid JSON ({exc})") from None
    if manifest.get("format") != FORMAT:
        raise ArchiveError(f"{archive}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    if manifest.get("version") not in READS:
        raise ArchiveError(
            f"{archive}: export version {manifest.get('version')!r}; this omoide reads "
            f"{', '.join(map(str, READS))}"
        )
    return manifest


class _Checked(io.RawIOBase):
    """A member's stream that hashes what is read and compares it with the manifest at the end."""

    def __init__(self, raw: IO[bytes], name: str, expected: str, archive: Path) -> None:
        self.raw, self.name, self.expected, self.archive = raw, name, expected, archive
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.raw.read(len(buffer))
        if not data and self.digest.hexdigest() != self.expected:
            raise ArchiveError(f"{self.archive}: member {self.name} is damaged (SHA-256 differs)")
        self.digest.update(data)
        buffer[: len(data)] = data
        return len(data)


def _open_member(
    zf: zipfile.ZipFile, name: str, manifest: dict[str, Any], archive: Path
) -> IO[bytes]:
    """Archive + member name -> a binary stream of it that fails at its end when damaged."""
    expected = manifest["files"].get(name)
    if expected is None:
        raise ArchiveError(f"{archive}: member {name} is not in the manifest")
    try:
        raw = zf.open(name)
    except KeyError:
        raise ArchiveError(f"{archive}: member {name} is missing") from None
    return io.BufferedReader(_Checked(raw, name, expected, archive), _BLOCK)


def _copy_member(
    zf: zipfile.ZipFile, name: str, manifest: dict[str, Any], archive: Path, target: Path
) -> None:
    """Archive member -> written to target (private folders), checked against the manifest."""
    private_dir(target.parent)
    with _open_member(zf, name, manifest, archive) as src, target.open("wb") as dst:
        shutil.copyfileobj(src, dst, _BLOCK)


def restore_config(
    zf: zipfile.ZipFile, manifest: dict[str, Any], archive: Path, home: Path
) -> bool:
    """Archive + home -> the archive's omoide.toml placed in the home when it has none; whether it was."""
    if CONFIG not in manifest["files"] or (home / CONFIG).exists():
        return False
    _copy_member(zf, CONFIG, manifest, archive, private_dir(home) / CONFIG)
    return True


def not_empty(settings: Settings) -> list[str]:
    """Settings -> the parts of the home that already hold something (an import refuses them)."""
    held = [
        str(root)
        for root in [*folders(settings).values(), settings.lancedb_dir]
        if files_under(root)
    ]
    held += [str(settings.state_dir / s) for s in STATE_FILES if (settings.state_dir / s).exists()]
    return held


def _lines(stream: IO[bytes]) -> Iterator[list[str]]:
    """Binary stream of JSON lines -> the lines in chunks."""
    chunk: list[str] = []
    for line in io.TextIOWrapper(stream, encoding="utf-8"):
        chunk.append(line)
        if len(chunk) == _CHUNK_ROWS:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _reembedded(rows: pa.Table, embedder: Embedder) -> pa.Table:
    """Memory rows of another model -> the same rows with the embedder's vectors, hashes and name."""
    contents, kinds = rows["content"].to_pylist(), rows["kind"].to_pylist()
    texts = [embedding_text(k, c) for k, c in zip(kinds, contents, strict=True)]
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    model, dim = embedder.model, vectors.shape[1]
    fresh = {
        "content_hash": pa.array(
            [content_hash(k, c, model) for k, c in zip(kinds, contents, strict=True)]
        ),
        "embed_model": pa.array([model] * rows.num_rows),
        "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), dim),
    }
    out = rows.drop_columns(list(fresh))
    for name, column in fresh.items():
        out = out.append_column(name, column)
    return out.select(schemas.memories_schema(dim).names).cast(schemas.memories_schema(dim))


def _restore_memories(
    stream: IO[bytes], db_dir: Path, manifest: dict[str, Any], embedder: Embedder
) -> tuple[int, bool]:
    """Memories JSON lines -> the memories table built in db_dir; (rows, whether re-embedded)."""
    model, dim = manifest.get("embed_model"), manifest.get("embed_dim")
    again = model != embedder.model
    table = None
    total = 0
    for chunk in _lines(stream):
        if model is None or dim is None:
            raise ArchiveError("the archive holds memories but names no embedding model")
        rows = schemas.typed_rows(rows_table(chunk, schemas.memories_schema(dim)))
        if again:
            rows = _reembedded(rows, embedder)
        if table is None:
            width = rows.schema.field("vector").type.list_size
            table = open_memories(db_dir, rows["embed_model"][0].as_py(), width)
        table.add(rows)
        total += rows.num_rows
    if table is not None:
        catch_up_indices(db_dir)
    return total, again and total > 0


def _with_origin_vectors(rows: pa.Table, db: Any, embedder: Embedder) -> pa.Table:
    """Opinion rows -> each vector replaced by its origin memory's new one (else its statement's)."""
    origins = rows["origin_id"].to_pylist()
    stored = lookup(db.open_table("memories"), origins, ["memory_id", "vector"]).to_pylist()
    by_id = {r["memory_id"]: r["vector"] for r in stored}
    missing = [
        s for o, s in zip(origins, rows["statement"].to_pylist(), strict=True) if o not in by_id
    ]
    embedded = iter(
        np.asarray(embedder.embed(missing), dtype=np.float32).tolist() if missing else []
    )
    vectors = [by_id[o] if o in by_id else next(embedded) for o in origins]
    column = pa.array(vectors, pa.list_(pa.float32()))
    return rows.set_column(rows.schema.get_field_index("vector"), "vector", column)


def _restore_tables(
    zf: zipfile.ZipFile, manifest: dict[str, Any], archive: Path, db_dir: Path, embedder: Embedder
) -> dict[str, Any]:
    """Archive -> every LanceDB table built in db_dir; rows per table and whether re-embedded."""
    counts: dict[str, Any] = {}
    with _open_member(zf, "tables/memories.jsonl", manifest, archive) as stream:
        counts["memories"], counts["re-embedded"] = _restore_memories(
            stream, db_dir, manifest, embedder
        )
    db = connect_db(db_dir)
    for name in TABLES[1:]:
        # An archive older than a table lacks it; reflection makes it again.
        if f"tables/{name}.jsonl" not in manifest["files"]:
            continue
        schema = table_schema(name, 0)
        with _open_member(zf, f"tables/{name}.jsonl", manifest, archive) as stream:
            rows = rows_table(io.TextIOWrapper(stream, encoding="utf-8"), schema)
        if name == "opinions" and counts["re-embedded"] and rows.num_rows:
            rows = _with_origin_vectors(rows, db, embedder)
        if rows.num_rows:
            db.create_table(name, schema=schema).add(rows)
        counts[name] = rows.num_rows
    return counts


def _move(source: Path, target: StorePath) -> None:
    """Staged folder -> moved to target (an empty folder there is replaced; an object store is uploaded to)."""
    if isinstance(target, Remote):
        upload_folder(source, target)
        return
    if target.is_dir():
        shutil.rmtree(target)
    private_dir(target.parent)
    shutil.move(str(source), str(target))


def import_home(
    settings: Settings,
    zf: zipfile.ZipFile,
    manifest: dict[str, Any],
    archive: Path,
    embedder: Embedder,
) -> dict[str, Any]:
    """An open archive + an empty home (its settings) + the configured embedder -> the home filled; counts."""
    held = not_empty(settings)
    if held:
        raise OmoideError(
            f"{settings.home} is not empty ({', '.join(held)}): import only into an empty home"
        )
    roots = folders(settings)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=private_dir(settings.home)))
    try:
        counts: dict[str, Any] = {f"{p} files": 0 for p in roots}
        for name in manifest["files"]:
            prefix, _, rest = name.partition("/")
            if prefix in roots:
                _copy_member(zf, name, manifest, archive, member_path(staging / prefix, rest))
                counts[f"{prefix} files"] += 1
            elif prefix == "state" and rest in STATE_FILES:
                _copy_member(zf, name, manifest, archive, staging / "state" / rest)
            elif name != CONFIG and prefix != "tables":
                raise ArchiveError(f"{archive}: unexpected member {name}")
        counts |= _restore_tables(zf, manifest, archive, staging / "lancedb", embedder)
        for prefix, root in roots.items():
            if (staging / prefix).is_dir():
                _move(staging / prefix, root)
        if (staging / "lancedb").is_dir():
            _move(staging / "lancedb", settings.lancedb_dir)
        for state in STATE_FILES:
            if (staging / "state" / state).is_file():
                private_dir(settings.state_dir)
                shutil.move(str(staging / "state" / state), str(settings.state_dir / state))
        stones = settings.state_dir / STATE_FILES[0]
        counts["tombstones"] = (
            len(stones.read_text("utf-8").splitlines()) if stones.is_file() else 0
        )
        return counts
    finally:
        shutil.rmtree(staging, ignore_errors=True)
