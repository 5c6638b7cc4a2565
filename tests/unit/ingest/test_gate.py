"""The gate writes every ref relative to the home (or `~/…`) before anything is stored; ids stay as the sources made them."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.core.days import day_bounds
from omoide.core.settings import get_settings
from omoide.ingest.gate import sanitized
from omoide.ingest.sources import collect
from tests.conftest import FIXTURES

DAY, TZ = date(2026, 11, 20), "Europe/Berlin"
NOW = datetime(2026, 11, 21, 3, tzinfo=UTC)


def _home_with_notes(home: Path) -> Path:
    """A home -> the fixture notes placed in it (with a line that is no text) and named in omoide.toml."""
    notes = home / "sources" / "notes"
    shutil.copytree(FIXTURES / "notes" / "vault", notes)
    bad = notes / "memory" / f"{DAY}.md"
    bad.write_bytes(bad.read_bytes() + b"\n\x00\x01\x02 not text\n")
    (home / "omoide.toml").write_text(
        '[[sources]]\nkind = "notes"\npath = "sources/notes"\n', "utf-8"
    )
    return home


def test_refs_are_written_relative_to_the_home_and_ids_do_not_change(omoide_home: Path) -> None:
    settings = get_settings(home=_home_with_notes(omoide_home))
    raw = collect(settings.sources[0], *day_bounds(DAY, TZ), NOW)
    assert raw.events["source_ref"].str.startswith(f"{omoide_home}/").all() and raw.rejects
    clean = sanitized(raw, DAY, TZ, [], settings.home)
    assert clean.events["source_ref"].str.startswith("sources/notes/memory/").any()
    assert clean.events["source_ref"].str.startswith("sources/notes/").all()
    assert clean.rejects["ref"].str.startswith("sources/notes/memory/").all()
    as_collected = sanitized(raw, DAY, TZ, [])
    assert clean.events["event_id"].tolist() == as_collected.events["event_id"].tolist()
    assert as_collected.events["source_ref"].tolist() == raw.events["source_ref"].tolist()


def test_a_source_elsewhere_in_the_user_home_is_written_under_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "aiko"
    shutil.copytree(FIXTURES / "notes" / "vault", user / "Obsidian")
    monkeypatch.setenv("HOME", str(user))
    home = tmp_path / "omoide"
    home.mkdir()
    (home / "omoide.toml").write_text(
        f'[[sources]]\nkind = "notes"\npath = "{user / "Obsidian"}"\n', "utf-8"
    )
    settings = get_settings(home=home)
    clean = sanitized(collect(settings.sources[0], *day_bounds(DAY, TZ), NOW), DAY, TZ, [], home)
    assert not clean.events.empty
    assert clean.events["source_ref"].str.startswith("~/Obsidian/").all()
