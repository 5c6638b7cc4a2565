"""No planted PII reaches OMOIDE_HOME, Prefect's database, results, artifacts or logs."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from prefect.client.orchestration import get_client
from prefect.settings import get_current_settings

from omoide.sample import content, write_sample

PII_SAMPLES = content().pii_samples
LOOKALIKES = content().lookalikes
INJECTION_TITLE = content().injection_title

pytestmark = pytest.mark.usefixtures("prefect_harness")


def _texts_under(folder: Path, skip: Path | None = None) -> dict[str, str]:
    """Folder -> {file: its text}; parquet decoded (it is compressed), other files as bytes."""
    out = {}
    for p in folder.rglob("*"):
        if not p.is_file() or (skip and skip in p.parents):
            continue
        if p.suffix == ".parquet":
            out[str(p)] = pq.read_table(p).to_pandas().to_json(date_format="iso")
        else:
            out[str(p)] = p.read_bytes().decode("utf-8", "ignore")
    return out


def test_no_pii_anywhere_after_a_backfill(omoide_home: Path):
    from omoide.flows.backfill import backfill

    first, last = write_sample(omoide_home, days=2, end=date(2026, 11, 20))
    sources_dir = omoide_home / "sources"
    planted = "\n".join(_texts_under(sources_dir).values())
    assert all(s in planted for s in PII_SAMPLES)  # the sample really carries them

    state = backfill(start=first, end=last, return_state=True)
    assert state.is_completed(), state.message

    stored = _texts_under(omoide_home, skip=sources_dir)
    settings = get_current_settings()
    db_url = str(settings.server.database.connection_url.get_secret_value())
    db = Path(db_url.split("///", 1)[1]) if "///" in db_url else None
    for extra in (settings.home, settings.results.local_storage_path, db and db.parent):
        if extra and Path(extra).exists():
            stored.update(_texts_under(Path(extra)))
    with get_client(sync_client=True) as client:
        stored["artifacts"] = "\n".join(str(a.data) for a in client.read_artifacts())
        stored["logs"] = "\n".join(log.message for log in client.read_logs())
    import lancedb

    memories = lancedb.connect(omoide_home / "lancedb").open_table("memories")
    stored["lancedb rows"] = (
        memories.to_pandas().drop(columns=["vector"]).to_json(date_format="iso")
    )
    assert any("lake" in k for k in stored) and stored["artifacts"] and stored["logs"]
    assert any("/vault/memory/" in k for k in stored) and len(stored["lancedb rows"]) > 1000
    leaks = [(where, s) for where, text in stored.items() for s in PII_SAMPLES if s in text]
    assert leaks == []

    lake = "\n".join(t for k, t in stored.items() if "/lake/" in k)
    assert all(s in lake for s in LOOKALIKES)  # look-alikes survive sanitizing
    assert INJECTION_TITLE.split(" — ")[0] in lake  # kept as plain data
