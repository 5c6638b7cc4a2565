"""An embedding cache shared by every day: a text is embedded once per model, however often it recurs.

Vectors are kept in one SQLite file under the home's cache folder, keyed by the model's
vector space and a hash of the text (the text itself is not stored). SQLite because several
processes (a backfill's workers, a reindex beside a nightly run) read and write it at once,
and its transactions keep a half-written entry from ever being read. Query texts are not
cached: each question is new, and some models embed a query differently from a passage.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

import numpy as np

from omoide.core.files import private_dir
from omoide.embed.base import Embedder

log = logging.getLogger(__name__)
CACHE_FILE = "embeddings.sqlite"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors "
    "(space TEXT NOT NULL, key BLOB NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (space, key)) "
    "WITHOUT ROWID"
)
_CHUNK = 500  # keys per query, under SQLite's bound-parameter limit


def _key(text: str) -> bytes:
    """Text -> its 16-byte digest (the cache key within a model's space)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class CachedEmbedder:
    """Wraps an Embedder: passage vectors come from `cache_dir/embeddings.sqlite` when known; counts what the model computed."""

    def __init__(self, inner: Embedder, cache_dir: Path) -> None:
        self.inner = inner
        self.backend, self.model = inner.backend, inner.model
        self.path = cache_dir / CACHE_FILE
        self.computed = 0  # texts the model embedded
        self.hits = 0  # texts served from the cache
        self.seconds = 0.0  # time spent in the model

    @property
    def dim(self) -> int:
        """-> the model's dimension (asked lazily: an Ollama model is probed)."""
        return self.inner.dim

    def load(self) -> None:
        """() -> the wrapped model loaded."""
        self.inner.load()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (n, dim) vectors, each distinct text computed by the model at most once ever."""
        if query or not texts:
            return self._model(list(texts), query=query)
        space = f"{self.backend}/{self.model}/{self.dim}"
        keys = [_key(t) for t in texts]
        known = self._read(space, keys)
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in known}
        if missing:
            vectors = self._model(list(missing.values()), query=False)
            fresh = dict(zip(missing, vectors, strict=True))
            self._write(space, fresh)
            known |= fresh
        self.hits += sum(1 for k in keys if k not in missing)
        return np.stack([known[k] for k in keys]).astype(np.float32, copy=False)

    def _model(self, texts: list[str], *, query: bool) -> np.ndarray:
        """Texts -> the wrapped model's vectors, timed and counted."""
        began = time.perf_counter()
        out = np.asarray(self.inner.embed(texts, query=query), dtype=np.float32)
        self.seconds += time.perf_counter() - began
        self.computed += len(texts)
        return out

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """-> a connection to the cache file (created on first use), committed on success."""
        private_dir(self.path.parent)
        with closing(sqlite3.connect(self.path, timeout=60)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(_SCHEMA)
            with db:
                yield db

    def _read(self, space: str, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        """Space + keys -> the cached vectors among them (a damaged cache is set aside and read as empty)."""
        found: dict[bytes, np.ndarray] = {}
        distinct = list(dict.fromkeys(keys))
        try:
            with self._db() as db:
                for i in range(0, len(distinct), _CHUNK):
                    part = distinct[i : i + _CHUNK]
                    marks = ",".join("?" * len(part))
                    rows = db.execute(
                        f"SELECT key, vector FROM vectors WHERE space = ? AND key IN ({marks})",
                        [space, *part],
                    )
                    for key, blob in rows:
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self.dim,):
                            found[key] = vector
        except sqlite3.DatabaseError as exc:
            self._set_aside(exc)
            return {}
        return found

    def _write(self, space: str, vectors: dict[bytes, np.ndarray]) -> None:
        """Space + vectors by key -> stored (a concurrent writer's identical entry wins)."""
        rows = [(space, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        try:
            with self._db() as db:
                db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)
        except sqlite3.DatabaseError as exc:
            self._set_aside(exc)

    def _set_aside(self, exc: Exception) -> None:
        """A cache error -> the damaged file removed so the next call starts a new one (vectors are recomputed)."""
        log.warning("embedding cache %s unusable (%s): starting a new one", self.path, exc)
        _remove(self.path)


def clear(cache_dir: Path) -> int:
    """The home's cache folder -> the embedding cache deleted; how many vectors it held."""
    path = cache_dir / CACHE_FILE
    held = 0
    if path.exists():
        try:
            with closing(sqlite3.connect(path, timeout=60)) as db:
                held = int(db.execute("SELECT count(*) FROM vectors").fetchone()[0])
        except sqlite3.DatabaseError:
            held = 0
    _remove(path)
    return held


def _remove(path: Path) -> None:
    """The cache file -> deleted with its write-ahead log and shared-memory files."""
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
