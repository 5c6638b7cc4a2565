from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from omoide.core.settings import get_settings


def test_defaults_live_under_home(omoide_home: Path):
    s = get_settings()
    assert s.home == omoide_home.resolve()
    assert s.vault_dir == omoide_home.resolve() / "vault"
    assert s.lake_dir == omoide_home.resolve() / "lake"
    assert s.session_gap_s == 300 and s.sources == []


def test_toml_sources_resolve_relative_to_home(omoide_home: Path):
    (omoide_home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nexcluded_domains = ["bank.example"]\n'
        '[[sources]]\nkind = "chrome"\npath = "sources/History"\n'
        '[[sources]]\nkind = "chrome"\npath = "/abs/History"\nname = "work"\n'
        '[[sources]]\nkind = "activitywatch"\nurl = "http://127.0.0.1:5600"\n',
        encoding="utf-8",
    )
    s = get_settings()
    assert s.timezone == "Asia/Tokyo"
    assert s.excluded_domains == ["bank.example"]
    assert [x.name for x in s.sources] == ["chrome-1", "work", "activitywatch"]
    assert s.sources[0].path == omoide_home.resolve() / "sources" / "History"
    assert s.sources[1].path == Path("/abs/History")


def test_env_overrides_toml(omoide_home: Path, monkeypatch: pytest.MonkeyPatch):
    (omoide_home / "omoide.toml").write_text('timezone = "Asia/Tokyo"\nsession_gap_s = 60\n')
    monkeypatch.setenv("OMOIDE_TIMEZONE", "Europe/Berlin")
    s = get_settings()
    assert s.timezone == "Europe/Berlin" and s.session_gap_s == 60


def test_explicit_home_reads_its_own_toml(tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "omoide.toml").write_text('timezone = "America/New_York"\n')
    assert get_settings(home=other).timezone == "America/New_York"


@pytest.mark.parametrize(
    "toml, message",
    [
        ('timezone = "Nowhere/City"\n', "unknown timezone"),
        ('[[sources]]\nkind = "safari"\npath = "x"\n', "kind"),
        ('[[sources]]\nkind = "chrome"\n', "needs a 'path'"),
        (
            '[[sources]]\nkind = "chrome"\npath = "a"\nname = "x"\n[[sources]]\nkind = "firefox"\npath = "b"\nname = "x"\n',
            "unique",
        ),
    ],
)
def test_invalid_configuration_is_rejected(omoide_home: Path, toml: str, message: str):
    (omoide_home / "omoide.toml").write_text(toml)
    with pytest.raises(ValidationError, match=message):
        get_settings()


def test_llm_concurrency_defaults_env_and_bounds(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch
):
    s = get_settings()
    assert s.llm.max_concurrent == 2 and s.llm.concurrency_limit == "ollama"
    (omoide_home / "omoide.toml").write_text(
        '[llm]\nmax_concurrent = 3\nconcurrency_limit = "gpu"\n'
    )
    assert (get_settings().llm.max_concurrent, get_settings().llm.concurrency_limit) == (3, "gpu")
    monkeypatch.setenv("OMOIDE_LLM__MAX_CONCURRENT", "4")
    assert get_settings().llm.max_concurrent == 4
    monkeypatch.setenv("OMOIDE_LLM__MAX_CONCURRENT", "0")
    with pytest.raises(ValidationError, match="max_concurrent"):
        get_settings()
