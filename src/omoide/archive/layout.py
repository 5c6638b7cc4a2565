"""What a portable archive holds, and where each part lives in a home.

One zip file (deflated; readable by any unzip tool): `manifest.json` (format, version, the
embedding model and dimension, counts, and a SHA-256 per member), `omoide.toml`, the vault
(`vault/…`), the lake's parquet partitions (`lake/…`), one JSON-lines file per LanceDB table
(`tables/memories.jsonl` with each row's vector and `embed_model`, `tables/entities.jsonl`,
`tables/opinions.jsonl`, `tables/profile_history.jsonl`, `tables/fact_validity.jsonl`, which
an archive made before facts had validity lacks: the next reflection makes it), the
tombstones with their salt (`state/…`), the day marks (`marks/…`: which days completed, so
`omoide status` and the next run's catch-up know the restored days are done) and the plan's
kept day keys (`plan/…`). Every path inside them is relative to the home (omoide.core.refs),
so the restored home cites its own files. The other caches, quarantine, logs and Prefect's
database are left out: they are made again from the rest, or belong to the machine that ran
them. Version 2 added the marks and the kept keys; a version 1 archive still imports.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from omoide.core import schemas
from omoide.core.location import StorePath
from omoide.core.settings import Settings
from omoide.ingest.span_cache import KEPT_DIR
from omoide.ingest.tombstones import SALT, TOMBSTONES

FORMAT = "omoide-export"
VERSION = 2
READS = (1, 2)  # the versions an import accepts
MANIFEST = "manifest.json"
CONFIG = "omoide.toml"
TABLES = ("memories", "entities", "opinions", "profile_history", "fact_validity")
STATE_FILES = (TOMBSTONES, SALT)


def table_schema(name: str, dim: int) -> pa.Schema:
    """LanceDB table name + the memories' vector dimension -> that table's schema."""
    fixed = {
        "entities": schemas.ENTITIES,
        "opinions": schemas.OPINIONS,
        "profile_history": schemas.PROFILE_HISTORY,
        "fact_validity": schemas.FACT_VALIDITY,
    }
    return schemas.memories_schema(dim) if name == "memories" else fixed[name]


def folders(settings: Settings) -> dict[str, StorePath]:
    """Settings -> archive prefix -> the folder of the home it is read from and restored to."""
    return {
        "vault": settings.vault_dir or settings.home / "vault",
        "lake": settings.lake_dir,
        "marks": settings.day_marks_dir,
        "plan": settings.cache_dir / KEPT_DIR,
    }


def member_path(root: Path, relative: str) -> Path:
    """A folder + a member's path inside it -> the file, refused when it would leave the folder."""
    target = (root / relative).resolve()
    if relative.startswith("/") or not target.is_relative_to(root.resolve()):
        raise ValueError(f"archive member {relative!r} points outside {root}")
    return target
