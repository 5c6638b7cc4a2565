from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from omoide.core.config_file import unknown_env
from omoide.core.errors import ConfigError, NoSourcesError
from omoide.core.settings import Settings, get_settings


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
        ('[[sources]]\nkind = "opera"\npath = "x"\n', "kind"),
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


def test_an_unknown_key_names_itself_the_file_and_the_closest_key(omoide_home: Path):
    toml = omoide_home / "omoide.toml"
    toml.write_text('timezon = "Europe/Berlin"\n')
    with pytest.raises(ConfigError) as caught:
        get_settings()
    assert str(caught.value) == (
        f"unknown setting 'timezon' in {toml.resolve()} (did you mean 'timezone'?)"
    )


def test_unknown_keys_in_tables_are_named_with_their_table(omoide_home: Path):
    toml = omoide_home / "omoide.toml"
    toml.write_text(
        'timezone = "Asia/Tokyo"\n[llm]\nmodle = "x"\nuser_name = "Aiko"\n'
        '[recall]\nk = 5\n[[sources]]\nkind = "notes"\npath = "n"\n'
        '[[sources]]\nkind = "chat"\npaht = "c"\n[embed]\nbatchsize = 8\n'
    )
    with pytest.raises(ConfigError) as caught:
        get_settings()
    where = toml.resolve()
    assert str(caught.value).split("; ") == [
        f"unknown setting 'modle' in [llm] of {where} (did you mean 'model'?)",
        # TOML files every key after a [table] header into that table.
        f"unknown setting 'user_name' in [llm] of {where} ('user_name' is a top-level "
        "setting: move it above the first [table] header)",
        f"unknown setting 'paht' in [[sources]] table 2 of {where} (did you mean 'path'?)",
        f"unknown setting 'batchsize' in [embed] of {where} (did you mean 'batch_size'?)",
    ]


def test_a_key_like_no_other_lists_the_known_ones(omoide_home: Path):
    (omoide_home / "omoide.toml").write_text("[recall]\nzzz = 1\n")
    with pytest.raises(ConfigError, match=r"'zzz' in \[recall\] of .*\(known: decay_lambda, k, "):
        get_settings()


@pytest.mark.parametrize(
    "text, where",
    [
        ('timezone = "UTC"\nuser_name = "Aiko\npeople = []\n', "at line 2, column 18"),
        ('timezone = "UTC"\nuser_name = "Aiko', "at its end (line 2)"),
        ("timezone = UTC\n", "at line 1, column 12"),
    ],
)
def test_a_toml_syntax_error_names_the_file_line_and_column(
    omoide_home: Path, text: str, where: str
):
    toml = omoide_home / "omoide.toml"
    toml.write_text(text)
    with pytest.raises(ConfigError) as caught:
        get_settings()
    message = str(caught.value)
    assert message.startswith(f"invalid TOML in {toml.resolve()} {where}: "), message
    assert "\n" not in message
    if "Aiko" in text:
        assert message.endswith("(a quote left open?)")


def test_a_toml_that_is_not_utf8_is_named(omoide_home: Path):
    (omoide_home / "omoide.toml").write_bytes('timezone = "UTC"\n'.encode("utf-16"))
    with pytest.raises(ConfigError, match=r"omoide\.toml is not UTF-8 text"):
        get_settings()


def test_environment_and_explicit_overrides_are_not_held_to_the_toml_keys(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch
):
    (omoide_home / "omoide.toml").write_text('timezone = "Asia/Tokyo"\n[llm]\nmodel = "m"\n')
    # The environment is shared with other tools: a variable that sets nothing is left alone.
    monkeypatch.setenv("OMOIDE_TIMEZON", "Europe/Berlin")
    monkeypatch.setenv("OMOIDE_LLM__MODLE", "x")
    monkeypatch.setenv("OMOIDE_BACKFILL_WORKERS", "2")
    monkeypatch.setenv("OMOIDE_STORAGE_URI", str(omoide_home / "store"))
    s = get_settings()
    assert (s.timezone, s.llm.model, s.backfill_workers) == ("Asia/Tokyo", "m", 2)
    assert s.storage_uri == str(omoide_home / "store")
    assert get_settings(session_gap_s=5, timezone="UTC").session_gap_s == 5
    assert unknown_env(os.environ, Settings) == [
        "OMOIDE_LLM__MODLE (did you mean OMOIDE_LLM__MODEL?)",
        "OMOIDE_TIMEZON (did you mean OMOIDE_TIMEZONE?)",
    ]


def test_no_sources_says_how_to_add_one(omoide_home: Path):
    message = str(NoSourcesError(omoide_home))
    assert "has no omoide.toml" in message and "`omoide init`" in message
    assert "[[sources]]" in message
    (omoide_home / "omoide.toml").write_text('timezone = "UTC"\n')
    message = str(NoSourcesError(omoide_home))
    assert f"no sources configured in {omoide_home / 'omoide.toml'}: add a [[sources]]" in message
    assert "`omoide init`" in message
