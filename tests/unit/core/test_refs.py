"""Refs that survive a move: written relative to the home or as `~/…`, resolved back, old absolute ones still read."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from omoide.core.refs import resolve_ref, to_ref, to_refs


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user home folder (`~`) with OMOIDE_HOME inside it, as most people keep it."""
    user = tmp_path / "aiko"
    (user / "omoide").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(user))
    return user


def test_a_file_is_written_relative_to_the_home_else_to_the_user_home_else_as_it_is(
    user_home: Path, tmp_path: Path
) -> None:
    home = user_home / "omoide"
    assert to_ref(f"{home}/sources/chat/chat.jsonl#L218", home) == "sources/chat/chat.jsonl#L218"
    history = user_home / ".config/google-chrome/Default/History"
    assert (
        to_ref(f"{history}#visits.id=7", home)
        == "~/.config/google-chrome/Default/History#visits.id=7"
    )
    assert to_ref(home / "vault/memory/2026-11-20.md", home) == "vault/memory/2026-11-20.md"
    assert to_ref("/mnt/disk/notes/a.md#L1", home) == "/mnt/disk/notes/a.md#L1"
    # Already a ref, or no file at all: left as it is.
    for ref in ("sources/notes/a.md#L2", "~/notes/a.md#L2", "http://localhost:5600/api/0/x"):
        assert to_ref(ref, home) == ref
    # A folder whose name only starts like the home's is not inside it.
    assert to_ref(f"{home}-old/a.md#L1", home) == "~/omoide-old/a.md#L1"


def test_a_home_named_through_a_symlink_still_holds_its_resolved_files(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    # Settings resolve the sources' paths: they name the real folder.
    assert to_ref(f"{real}/sources/a.md#L1", tmp_path / "link") == "sources/a.md#L1"


def test_refs_resolve_against_the_home_the_user_home_or_as_absolute(
    user_home: Path, tmp_path: Path
) -> None:
    home = tmp_path / "moved"
    assert resolve_ref("sources/chat/chat.jsonl#L218", home) == home / "sources/chat/chat.jsonl"
    assert resolve_ref("~/.config/History#visits.id=7", home) == user_home / ".config/History"
    # A ref of a home made before refs were relative: the absolute path itself.
    assert resolve_ref("/old/home/sources/notes/a.md#L21", home) == Path(
        "/old/home/sources/notes/a.md"
    )
    assert resolve_ref("vault/memory/2026-11-20.md", home) == home / "vault/memory/2026-11-20.md"
    # The anchor is what follows the last `#`: a file name may hold one.
    assert resolve_ref("sources/notes/#1.md#L3", home) == home / "sources/notes/#1.md"
    assert resolve_ref("http://localhost:5600/api/0/buckets/b/events/3", home) is None


def test_a_column_of_refs_is_written_once_per_value_keeping_nulls_and_categories(
    user_home: Path,
) -> None:
    home = user_home / "omoide"
    refs = [f"{home}/sources/a.md#L1", None, f"{user_home}/History#visits.id=1", "x#L1"]
    written = to_refs(pd.Series(refs, dtype=object), home)
    assert pd.isna(written[1])
    assert written.drop(1).tolist() == ["sources/a.md#L1", "~/History#visits.id=1", "x#L1"]
    column = to_refs(pd.Series([refs[0], refs[0], refs[2]], dtype="category"), home)
    assert column.astype(str).tolist() == [
        "sources/a.md#L1",
        "sources/a.md#L1",
        "~/History#visits.id=1",
    ]
