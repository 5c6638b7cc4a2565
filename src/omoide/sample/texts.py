"""A weekday's note template and chat script (+ planted items) -> the day's Markdown note and chat records."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime

from omoide.core.days import zone
from omoide.sample.content import Planted, content
from omoide.sample.desk import local_ms

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
TIMED_LINE = re.compile(r"^- (\d\d:\d\d) ")


def note_markdown(day: date, text: str, planted: list[Planted]) -> str:
    """Day's note template + planted lines -> the Markdown of that day's note."""
    long = f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    lines = text.replace("{long}", long).splitlines()
    retain = lines.index("## Retain")
    for item in planted:
        line = f"- {item.at} {item.payload[0][0]}"
        timed = [i for i in range(retain) if TIMED_LINE.match(lines[i])]
        after = [i for i in timed if lines[i][2:7] <= item.at]
        lines.insert(after[-1] + 1 if after else timed[0], line)
        retain += 1
    return "\n".join(lines) + "\n"


def chat_records(day: date, script: str, planted: list[Planted], rng: random.Random) -> list[dict]:
    """Day's chat script + planted messages -> chat records with local ISO timestamps."""
    msgs: list[tuple[str, str, str, str]] = []  # (HH:MM, conversation, speaker, text)
    conversation = ""
    for line in script.splitlines():
        if line.startswith("@"):
            conversation = line[1:]
            continue
        hhmm, code, text = line.split(" ", 2)
        msgs.append((hhmm, conversation, content().speakers[code], text))
    for item in planted:
        msgs.extend((item.at, conv, speaker, text) for conv, speaker, text in item.payload)
    msgs.sort(key=lambda m: m[0])
    tz, last, out = zone(content().timezone), {}, []
    for hhmm, conv, speaker, text in msgs:
        ms = local_ms(day, hhmm) + rng.randint(0, 40) * 1000
        ms = max(ms, last.get(conv, 0) + rng.randint(4, 30) * 1000)
        last[conv] = ms
        local = datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)
        out.append(
            {
                "ts": local.isoformat(timespec="seconds"),
                "speaker": speaker,
                "text": text,
                "conversation": conv,
                "_ms": ms,
            }
        )
    return out
