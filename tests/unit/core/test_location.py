"""Store locations: a local folder or an object-store URI, and the lake's file operations on S3."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from omoide.core.errors import StoreUnavailableError
from omoide.core.location import (
    Remote,
    files_under,
    is_remote,
    lancedb_options,
    read_parquet,
    relative_name,
    store_root,
    write_parquet,
)
from omoide.core.settings import Settings
from tests.s3_server import BUCKET, keys


@pytest.mark.parametrize(
    ("uri", "remote"),
    [
        (None, False),
        ("", False),
        ("/srv/omoide", False),
        ("store", False),
        ("file:///srv/omoide", False),
        ("C:\\omoide", False),
        ("s3://bucket/prefix", True),
        ("gs://bucket", True),
    ],
)
def test_which_uris_are_object_stores(uri: str | None, remote: bool) -> None:
    assert is_remote(uri) is remote


def test_store_root_places_lake_and_lancedb(tmp_path: Path) -> None:
    assert store_root(None, tmp_path) == tmp_path
    assert store_root("shared", tmp_path) == tmp_path / "shared"
    assert store_root("file:///srv/x", tmp_path) == Path("/srv/x")
    assert store_root("s3://b/p/", tmp_path) == Remote("s3://b/p")
    s = Settings(home=tmp_path, storage_uri="s3://b/p")
    assert (s.lake_dir, s.lancedb_dir) == (Remote("s3://b/p/lake"), Remote("s3://b/p/lancedb"))
    assert all(isinstance(d, Path) for d in s.written_dirs)  # no temp files to sweep in S3
    assert Settings(home=tmp_path).lake_dir == tmp_path / "lake"


def test_remote_names_like_a_path() -> None:
    part = Remote("s3://b/p/lake") / "events" / "day=2026-11-20" / "chrome.parquet"
    assert (part.name, str(part.parent)) == (
        "chrome.parquet",
        "s3://b/p/lake/events/day=2026-11-20",
    )
    assert part.path == "b/p/lake/events/day=2026-11-20/chrome.parquet"
    assert relative_name(part, Remote("s3://b/p")) == "lake/events/day=2026-11-20/chrome.parquet"


def test_plain_http_endpoints_are_allowed_for_lancedb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000")
    assert lancedb_options(Remote("s3://b/p")) == {"allow_http": "true"}
    assert lancedb_options(Path("/x")) == {}
    monkeypatch.setenv("AWS_ENDPOINT_URL", "https://s3.example.org")
    assert lancedb_options(Remote("s3://b/p")) == {}


def test_the_lake_operations_on_a_real_s3_server(s3: dict[str, str]) -> None:
    root = Remote(f"s3://{BUCKET}/me/lake")
    assert not root.exists() and root.glob("*") == [] and files_under(root) == []
    table = pa.table({"event_id": ["a", "b"]})
    one = root / "events" / "day=2026-11-20" / "chrome.parquet"
    write_parquet(table, one)
    write_parquet(table, root / "events" / "day=2026-11-21" / "notes.parquet")
    assert one.exists() and not one.is_dir()
    assert (root / "events").is_dir()
    assert [p.name for p in (root / "events").glob("day=*")] == ["day=2026-11-20", "day=2026-11-21"]
    assert read_parquet(one).equals(table)
    assert one.stat().st_size == len(one.read_bytes())
    assert len(files_under(root)) == 2
    one.unlink()
    one.unlink(missing_ok=True)
    assert [relative_name(p, root) for p in files_under(root)] == [
        "events/day=2026-11-21/notes.parquet"
    ]
    assert "me/lake/events/day=2026-11-21/notes.parquet" in keys(s3, "me/lake/")


def test_a_failed_write_leaves_the_stored_object_whole(s3: dict[str, str]) -> None:
    part = Remote(f"s3://{BUCKET}/me/lake/facts/day=2026-11-20/facts.parquet")
    table = pa.table({"memory_id": ["m1"]})
    write_parquet(table, part)
    with pytest.raises(AttributeError):  # fails while encoding, before anything is put
        write_parquet(None, part)  # type: ignore[arg-type]
    assert read_parquet(part).equals(table)


def test_an_unreachable_store_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "y")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    with pytest.raises(StoreUnavailableError, match=r"object store s3://b/p/lake"):
        Remote("s3://b/p/lake").exists()
