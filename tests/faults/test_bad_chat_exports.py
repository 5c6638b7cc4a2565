"""Damaged WhatsApp and LINE text exports (issue 52): CR-only and mixed line ends, a year 0000,
an older LINE block appended; every dated line is an event, a counted notice or a reject
naming it, never a crash, never one message swallowing the rest."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from omoide.ingest.pii import redact_text
from omoide.ingest.sources import collect
from tests.unit.ingest.sources.chat_exports import export_source

START = datetime(2016, 1, 1, tzinfo=UTC)
END = NOW = datetime(2026, 11, 21, tzinfo=UTC)
NOTICE = "Messages and calls are end-to-end encrypted. No one outside of this chat can read them."
# The oracle's own idea of a dated WhatsApp line, written apart from the reader's.
DATED = re.compile(r"^\[?\d{1,2}[./]\d{1,2}[./]\d{2,4},? (?:klo )?\d{1,2}[:.]\d{2}")


def _chat(n: int) -> list[str]:
    """n -> an Android export's lines: the encryption notice, then n messages (every 3rd on two lines)."""
    lines = [f"20/11/2026, 08:00 - {NOTICE}"]
    for i in range(n):
        lines.append(f"20/11/2026, 09:{i % 60:02d} - {'Peter' if i % 2 else 'Ken'}: message {i}")
        if i % 3 == 0:
            lines.append(f"and its second line {i}")
    return lines


def _accounted(folder: Path, texts: dict[str, str]) -> None:
    """A folder of exports + their texts -> every dated line is an event, a notice or a reject named by it."""
    out = collect(export_source("whatsapp", folder, timezone="UTC"), START, END, NOW)
    refs = set(out.events["source_ref"]) | {r.ref for r in out.rejects}
    for name, text in texts.items():
        for n, line in enumerate(re.split(r"\r\n?|\n", text), start=1):
            if DATED.match(line) and NOTICE not in line:
                assert f"{folder / name}#L{n}" in refs, (name, n)
    assert out.events["text"].str.len().max() < 60  # no message swallowed the ones after it
    assert not out.events["actor"].str.contains("encrypted").any()
    assert all(redact_text(t)[0] == t for t in out.events["text"])


def test_cr_only_and_mixed_line_ends_read_every_message(tmp_path: Path) -> None:
    lines = _chat(240)
    texts = {
        "WhatsApp Chat with Peter.txt": "\r".join(lines) + "\r",  # an old Mac's line ends
        "WhatsApp Chat with Ken.txt": "".join(
            line + ("\r", "\n", "\r\n")[i % 3] for i, line in enumerate(lines)
        ),
    }
    for name, text in texts.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    _accounted(tmp_path, texts)
    out = collect(export_source("whatsapp", tmp_path, timezone="UTC"), START, END, NOW)
    assert len(out.events) == 480 and out.rejects == []


def test_a_year_0000_is_a_reject_naming_its_line_and_the_rest_lands(tmp_path: Path) -> None:
    lines = _chat(30)
    lines[5] = lines[5].replace("20/11/2026", "20/11/0000")
    lines[9] = lines[9].replace("20/11/2026", "00/00/0000")
    text = "\n".join(lines) + "\n"
    name = "WhatsApp Chat with Peter.txt"
    (tmp_path / name).write_text(text, encoding="utf-8")
    _accounted(tmp_path, {name: text})
    out = collect(export_source("whatsapp", tmp_path, timezone="UTC"), START, END, NOW)
    assert sorted((r.ref.rsplit("#", 1)[1], r.reason) for r in out.rejects) == [
        ("L10", "impossible year 0000"),
        ("L6", "impossible year 0000"),
    ]
    assert len(out.events) == 28 and not (out.events["ts"].dt.year < 2026).any()


def test_a_line_export_with_cr_only_ends_and_an_older_block_appended(tmp_path: Path) -> None:
    newer = [f"{h:02d}:00\tPeter\tnewer {h}" for h in range(9, 21)]
    older = [f"{h:02d}:30\tKen Sato\tolder {h}" for h in range(9, 21)]
    text = "\r".join(
        [
            "[LINE] Chat history with Peter",
            "Saved on: 2017/12/03 16:47",
            "",
            "Sun, 12/03/2017",
            *newer,
            "",
            "Sun, 05/08/2016",
            *older,
        ]
    )
    talk = tmp_path / "peter.txt"
    talk.write_bytes(text.encode("utf-8"))
    out = collect(export_source("line", talk, timezone="UTC"), START, END, NOW)
    assert out.rejects == [] and len(out.events) == 24
    days = out.events.groupby(out.events["ts"].dt.date.astype(str))["text"].apply(list).to_dict()
    assert days == {
        "2016-05-08": [f"older {h}" for h in range(9, 21)],
        "2017-12-03": [f"newer {h}" for h in range(9, 21)],
    }
