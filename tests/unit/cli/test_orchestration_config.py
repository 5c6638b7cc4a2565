"""prefect.yaml, the served deployments, Prefect's environment and machine discovery."""

from __future__ import annotations

import importlib
from pathlib import Path

import yaml

from omoide.cli.runtime import prefect_environment
from omoide.core.offline import OFFLINE_ENV
from omoide.ingest.discover import browser_profiles, starter_toml

ROOT = Path(__file__).resolve().parents[3]


def test_prefect_yaml_declares_daily_backfill_and_recall_with_real_entrypoints():
    spec = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    by_name = {d["name"]: d for d in spec["deployments"]}
    assert set(by_name) == {"daily", "backfill", "reflect", "recall"}
    assert by_name["daily"]["schedules"][0]["cron"] == "0 2 * * *"
    for d in by_name.values():
        path, func = d["entrypoint"].split(":")
        module = importlib.import_module("omoide." + path.removesuffix(".py").replace("/", "."))
        assert callable(getattr(module, func))
        env = d["work_pool"]["job_variables"]["env"]
        # Deployment runs start omoide too: every telemetry switch is set there as well.
        assert {k: env.get(k) for k in OFFLINE_ENV} == OFFLINE_ENV
        # ... and Prefect's home and result cache under OMOIDE_HOME, as for the CLI and the UI.
        assert env["OMOIDE_HOME"] == "{{ $OMOIDE_HOME }}"
        assert env["PREFECT_HOME"] == "{{ $OMOIDE_HOME }}/prefect"
        assert env["PREFECT_LOCAL_STORAGE_PATH"] == "{{ $OMOIDE_HOME }}/prefect/storage"


def test_served_daily_deployment_uses_the_configured_timezone():
    import omoide.flows.backfill as backfill_module
    import omoide.flows.daily as daily_module
    import omoide.flows.reflect as reflect_module
    from omoide.cli.run import deployments

    daily, backfill, weekly = deployments(
        daily_module, backfill_module, "Asia/Tokyo", reflect_module
    )
    schedule = daily.schedules[0].schedule
    assert schedule.cron == "0 2 * * *" and schedule.timezone == "Asia/Tokyo"
    # Late runs of nights switched off start one after another (prefect.yaml says the same).
    assert daily.concurrency_limit == 1 and weekly.concurrency_limit == 1
    assert backfill.name == "backfill" and not backfill.schedules
    assert weekly.name == "reflect"
    assert weekly.schedules[0].schedule.cron == "0 3 * * 0"
    assert weekly.schedules[0].schedule.timezone == "Asia/Tokyo"


def test_prefect_environment_stays_under_home_with_telemetry_off(tmp_path: Path):
    env = prefect_environment(tmp_path)
    assert env["PREFECT_HOME"] == str(tmp_path / "prefect")
    assert env["DO_NOT_TRACK"] == "1" and env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    assert env["GX_ANALYTICS_ENABLED"] == "false"


def test_browser_profiles_are_discovered(tmp_path: Path):
    chrome = tmp_path / ".config/google-chrome/Profile 1/History"
    firefox = tmp_path / ".mozilla/firefox/ab12.default-release/places.sqlite"
    for p in (chrome, firefox):
        p.parent.mkdir(parents=True)
        p.write_bytes(b"")
    found = browser_profiles(tmp_path, "linux")
    assert found == [("chrome", chrome), ("firefox", firefox)]
    import tomllib

    config = tomllib.loads(starter_toml(found, "Europe/Berlin"))
    assert [s["path"] for s in config["sources"]] == [str(chrome), str(firefox)]
