"""Safari, WhatsApp and Telegram read end to end by `omoide run --day` on their fixtures: one home
naming all three, the day's lake partitions holding their rows with `actor` and `text`."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.store.lake import part_path
from tests.fakes import run_cli
from tests.unit.ingest.sources.chat_exports import DAY, FIXTURES
from tests.unit.ingest.sources.test_safari import build_history


@pytest.mark.slow
def test_omoide_run_day_reads_safari_whatsapp_and_telegram(tmp_path: Path) -> None:
    home = tmp_path / "home"
    build_history(home / "Library" / "Safari" / "History.db")
    shutil.copytree(FIXTURES / "whatsapp", home / "whatsapp")
    # The iOS chat as the phone shares it: a zip holding _chat.txt and the photos.
    ios = home / "whatsapp" / "WhatsApp Chat - Kyoto Trip"
    with zipfile.ZipFile(home / "whatsapp" / f"{ios.name}.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(ios / "_chat.txt", "_chat.txt")
        z.writestr("00000012-PHOTO-2026-11-20-08-06-30.jpg", b"\xff\xd8\xff\xe0")
    shutil.rmtree(ios)
    shutil.copytree(FIXTURES / "telegram", home / "telegram")
    (home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "safari"\npath = "Library/Safari"\nname = "safari"\n'
        '[[sources]]\nkind = "whatsapp"\npath = "whatsapp"\nname = "whatsapp"\n'
        '[[sources]]\nkind = "telegram"\npath = "telegram"\nname = "telegram"\n'
        '[llm]\nbackend = "none"\n',
        encoding="utf-8",
    )
    r = run_cli("run", "--day", str(DAY), home=home, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]

    def lake(name: str) -> pd.DataFrame:
        return pd.read_parquet(part_path(home / "lake", "events", DAY, name))

    safari = lake("safari")
    assert sorted(safari["url"]) == [
        "https://example.org/kyoto-ryokan",
        "https://example.org/kyoto-ryokan",
        "https://shop.example/checkout",
        "https://t.co/x1",
        "https://www.apple.com/",
    ]
    assert set(safari["event_type"]) == {"visit"} and set(safari["app"]) == {"Safari"}
    assert safari["source_ref"].str.contains(r"History\.db#history_visits\.id=\d+$").all()

    whatsapp = lake("whatsapp")
    assert len(whatsapp) == 16 and set(whatsapp["event_type"]) == {"chat"}
    said = set(zip(whatsapp["title"], whatsapp["actor"], whatsapp["text"], strict=True))
    assert ("Kyoto Trip", "Jun", "Count me in!\nI can drive from Osaka") in said
    assert ("Familie", "Ken Sato", "Wunderbar, morgen fahre ich nach Nara.") in said
    assert ("Mom", "Ken Sato", "Breakfast at the ryokan") in said
    assert not whatsapp["text"].str.contains("omitted|ausgelassen|attached|encrypted").any()
    assert "whatsapp/WhatsApp Chat - Kyoto Trip.zip#L8" in set(whatsapp["source_ref"])

    telegram = lake("telegram")
    assert len(telegram) == 12 and set(telegram["event_type"]) == {"chat"}
    mine = telegram[telegram["actor"] == "Ken Sato"]
    assert sorted(mine["text"]) == [
        "/forecast kyoto",
        "Buy yatsuhashi for the office",
        "I'll bring onigiri",
        "Yes! Booked two nights at https://ryokan.example/kinosaki",
    ]
    assert "Weather Bot [bot]" in set(telegram["actor"])
    for frame in (safari, whatsapp, telegram):
        assert list(frame.columns) == schemas.EVENTS.names
    quarantined = home / "quarantine"
    # The one visit whose page row is gone and the one from 1988 are quarantined, nothing else.
    found = [p for p in quarantined.rglob("*.parquet")] if quarantined.exists() else []
    rejects = pd.concat([pd.read_parquet(p) for p in found]) if found else pd.DataFrame()
    assert len(rejects) == 2, rejects.to_dict("records")
