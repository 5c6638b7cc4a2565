"""The sample month -> the questions of `omoide bench ask` about hours of a day and about people (part of a day, said by, who, commitments), each with its truth.

As `omoide.bench.ask_cases`: every truth from the script or the source files alone.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from omoide.bench import ask_questions as Q
from omoide.bench.ask_month import Case, Month, case, name_in, period, text, words


def _timed_notes(m: Month, start: datetime, end: datetime) -> list[str]:
    """An aware window -> the refs of the note lines with a time of their own inside it."""
    out = []
    for day in {start.date().isoformat(), (end - timedelta(microseconds=1)).date().isoformat()}:
        for line in m.days.get(day, {}).get("note", []):
            if line["time"] is None:
                continue
            at = datetime.combine(date.fromisoformat(day), time.fromisoformat(line["time"]), m.tz)
            if start <= at < end:
                out.append(line["source"])
    return sorted(out)


def part_of_day_cases(m: Month, lang: str) -> list[Case]:
    """-> the part-of-day questions: the window's top app or site (ActivityWatch's arithmetic), its timed notes and messages."""
    out = []
    for spec, (a, b), which, phrase in Q.PART_OF_DAY_SLOTS[lang]:
        now = m.now(which)
        p = period(spec, now)
        if p.first is None or p.first.isoformat() not in m.days:
            continue
        start, end = m.sources.hours(p.first, a, b)
        end = min(end, now)
        top = m.sources.activities((start, end))
        if not top:
            continue
        said = [x.source for x in m.sources.messages if start <= x.ts < end]
        last = (end - timedelta(microseconds=1)).date().isoformat()
        window = {"since": start.date().isoformat(), "until": last}
        when = phrase.format(**words(p))
        template = m.template("part_of_day", lang, Q.PART_OF_DAY[lang])
        question = text(template, when=when)
        expected = f"{top[0][0]} ({top[0][1]:g} min) first"
        notes = _timed_notes(m, start, end)
        out.append(
            case(
                "part_of_day",
                lang,
                question,
                now,
                window,
                expected,
                top=top[0][0],
                notes=notes,
                messages=said,
            )
        )
    return out


def said_by_cases(m: Month, lang: str) -> list[Case]:
    """-> the said-by questions: the speaker's own messages on the topic (its words, or the script's `said` events about it)."""
    out = []
    for person, topic in Q.SAID_BY_SLOTS[lang]:
        keys, whats = Q.TOPICS[topic]
        theirs = [x for x in m.sources.messages if x.speaker == person]
        lines = {x.source for x in theirs if any(k in x.text.casefold() for k in keys)}
        lines |= {
            e["source"]
            for e in m.script["events"]
            if e["kind"] == "said" and e.get("speaker") == person and e["what"] in whats
        }
        if not lines:
            continue
        template = m.template("said_by", lang, Q.SAID_BY[lang])
        question = text(template, p=name_in(person, lang), t=topic)
        expected = f"{person}'s lines {', '.join(sorted(lines))}"
        out.append(
            case(
                "said_by",
                lang,
                question,
                m.now(None),
                None,
                expected,
                lines=sorted(lines),
                speaker_lines=sorted(x.source for x in theirs),
            )
        )
    return out


def relation(m: Month, person: str) -> str | None:
    """A person -> 'colleague' when more of the script's events with them are work than social, 'friend' when fewer, None when as many."""
    kinds = [e["kind"] for e in m.script["events"] if person in e["people"]]
    work, social = kinds.count("work"), kinds.count("social")
    return None if work == social else "colleague" if work > social else "friend"


def who_cases(m: Month, lang: str) -> list[Case]:
    """-> the who questions: how the user knows them, and each fact about them that stands now."""
    out = []
    for person in Q.WHO_SLOTS[lang]:
        facts = [f for f in m.script["facts"] if f["subject"] == person and f["valid_to"] is None]
        circle = relation(m, person)
        if circle is None:
            continue  # the days written do not say how the user knows them
        standing = [
            {
                "value": f["value"],
                "word": f["value"].split()[-1],
                "sources": [s["source"] for s in f["said"]],
            }
            for f in facts
        ]
        template = m.template("who", lang, Q.WHO[lang])
        question = text(template, p=name_in(person, lang))
        expected = f"{circle}; " + "; ".join(f["value"] for f in standing)
        out.append(
            case(
                "who",
                lang,
                question,
                m.now(None),
                None,
                expected,
                relation=Q.RELATION[lang][circle],
                facts=standing,
            )
        )
    return out


def commitments_cases(m: Month, lang: str) -> list[Case]:
    """-> the commitments questions: the script's promises to that person said or due in the window (only those not kept for 'open')."""
    out = []
    for person, spec, mode in Q.COMMITMENTS_SLOTS[lang]:
        now = m.now(None)
        p = period(spec, now)
        promises = [
            e
            for e in m.script["events"]
            if e["kind"] == "promise"
            and (person is None or e["to"] == person)
            and (
                p.first is None or p.holds(e["day"]) or (e["due"] is not None and p.holds(e["due"]))
            )
            and (mode != "open" or e["status"] != "kept")
        ]
        if not promises:
            continue
        template = m.template(f"commitments/{mode}", lang, Q.COMMITMENTS[lang][mode])
        question = text(template, p=name_in(person or "", lang), **words(p))
        wanted = [
            {"what": e["what"], "sources": [e["source"], *(a["source"] for a in e["also"])]}
            for e in promises
        ]
        expected = "; ".join(e["what"] for e in promises)
        out.append(case("commitments", lang, question, now, p.window(), expected, promises=wanted))
    return out
