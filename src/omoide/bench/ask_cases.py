"""A sample home and its script -> the questions of `omoide bench ask`, each with its truth.

The templates and what they ask about are `omoide.bench.ask_questions` (and
`ask_questions_done` for decisions and yes-or-no questions); every truth comes from
the generator's own script (`sample-script.json`: events, tallies, facts, every day's lines) or
from the source files by `omoide.bench.ask_truth` (ActivityWatch's arithmetic, the chat log),
never from omoide's stores. A slot whose period or subject the sample does not hold (a shorter
sample) gives no question. Each case: `question`, `lang`, `kind`, `now` (ISO), `window`
({since, until} or null), `expected` (the truth in words, for the report) and `truth` (what
`omoide.bench.ask_judge` checks for its kind).
"""

from __future__ import annotations

import re

from omoide.bench import ask_questions as Q
from omoide.bench import ask_questions_done as D
from omoide.bench.ask_month import (
    Case,
    Month,
    case,
    clipped,
    minutes_on,
    name_in,
    period,
    text,
    thing_fields,
    words,
)


def overview_cases(m: Month, lang: str) -> list[Case]:
    """-> the overview questions: the window's days, and one day's note log items."""
    out = []
    for spec, which in Q.OVERVIEW_SLOTS[lang]:
        now = m.now(which)
        p = period(spec, now)
        days = [d for d in m.days if p.holds(d) and d <= now.date().isoformat()]
        if not days:
            continue
        mentions = []
        if len(days) == 1:
            log = [x["text"] for x in m.days[days[0]]["note"] if x["section"] == "Log"]
            mentions = [re.sub(r"^-\s*(\d{1,2}:\d{2}\s*)?", "", t).strip() for t in log]
        question = text(m.template("overview", lang, Q.OVERVIEW[lang]), **words(p))
        expected = f"pages of {', '.join(days)}"
        out.append(
            case(
                "overview",
                lang,
                question,
                now,
                clipped(p, now),
                expected,
                days=days,
                mentions=mentions,
            )
        )
    return out


def time_spent_cases(m: Month, lang: str) -> list[Case]:
    """-> the time-spent questions: minutes from the ActivityWatch export."""
    out = []
    for subject, spec in Q.TIME_SPENT_SLOTS[lang]:
        now = m.now(None)
        p = period(spec, now)
        if not any(p.holds(d) for d in m.days):
            continue
        minutes = minutes_on(m, subject, m.span(p, now))
        if not minutes:
            continue
        prep = Q.PREPOSITION.get(subject, "on")
        template = m.template("time_spent", lang, Q.TIME_SPENT[lang])
        saw = "見た" if subject in Q.SITES else "使った"
        question = text(template, s=subject, prep=prep, saw=saw, **words(p))
        window = clipped(p, now)
        out.append(
            case("time_spent", lang, question, now, window, f"{minutes} min", minutes=minutes)
        )
    return out


def when_cases(m: Month, lang: str) -> list[Case]:
    """-> the when questions: the script's first or last time of a thing, or the chat log's of a talk."""
    out = []
    for key, which in Q.WHEN_SLOTS[lang]:
        thing, now = Q.THINGS[key], m.now(None)
        also: list[str] = []
        if key.startswith("talk:"):
            said = m.sources.with_person(key[5:])
            if not said:
                continue
            moment = (said[0] if which == "first" else said[-1]).ts.isoformat()
        else:
            tally = m.script["tallies"].get(key)
            if tally is None:
                continue
            at = tally["first" if which == "first" else "last"]
            moment = m.moment(at["day"], at["time"])
            event = m.events[at["source"]]
            also = [
                m.moment(a["day"], a["time"])
                for a in event["also"]
                if a["time"] and a["day"] == at["day"]
            ]
        template = m.template(f"when/{which}", lang, Q.WHEN[lang][which])
        out.append(
            case(
                "when",
                lang,
                text(template, **thing_fields(thing)),
                now,
                None,
                moment,
                when=moment,
                also=also,
            )
        )
    return out


def lookup_cases(m: Month, lang: str) -> list[Case]:
    """-> the lookups: a standing fact's value now, and the days it was said."""
    out = []
    for subject, attribute in Q.LOOKUP_SLOTS[lang]:
        facts = [
            f
            for f in m.script["facts"]
            if (f["subject"], f["attribute"]) == (subject, attribute) and f["valid_to"] is None
        ]
        if not facts:
            continue
        en, ja, mentions = Q.LOOKUPS[(subject, attribute)]
        question = m.template("lookup", lang, en if lang == "en" else ja)
        days = sorted({s["day"] for s in facts[0]["said"]})
        expected = f"{facts[0]['value']} (said {', '.join(days)})"
        out.append(
            case(
                "lookup", lang, question, m.now(None), None, expected, days=days, mentions=mentions
            )
        )
    return out


def count_cases(m: Month, lang: str) -> list[Case]:
    """-> the count questions: distinct occurrences (a day each, a conversation each for a talk)."""
    out = []
    for key, spec in Q.COUNT_SLOTS[lang]:
        now = m.now(None)
        p = period(spec, now)
        found = m.occurrences(Q.THINGS[key], p, now)
        if not found:
            continue
        question = text(
            m.template("count", lang, Q.COUNT[lang]), **thing_fields(Q.THINGS[key]), **words(p)
        )
        days = sorted(set(found))
        expected = f"{len(found)} ({', '.join(days)})"
        out.append(
            case("count", lang, question, now, p.window(), expected, count=len(found), days=days)
        )
    return out


def which_days_cases(m: Month, lang: str) -> list[Case]:
    """-> the which-days questions: the days of a thing's occurrences."""
    out = []
    for key, spec in Q.WHICH_DAYS_SLOTS[lang]:
        now = m.now(None)
        p = period(spec, now)
        days = sorted(set(m.occurrences(Q.THINGS[key], p, now)))
        if not days:
            continue
        template = m.template("which_days", lang, Q.WHICH_DAYS[lang])
        question = text(template, **thing_fields(Q.THINGS[key]), **words(p))
        out.append(case("which_days", lang, question, now, p.window(), ", ".join(days), days=days))
    return out


def compare_cases(m: Month, lang: str) -> list[Case]:
    """-> the comparisons: the larger side first (time by ActivityWatch's arithmetic, else occurrences)."""
    out = []
    for how, a, b, c in Q.COMPARE_SLOTS[lang]:
        now, template = m.now(None), None
        if how == "periods":
            pa, pb = period(b, now), period(c, now)
            figures = [len(m.occurrences(Q.THINGS[a], x, now)) for x in (pa, pb)]
            names = [[x.bare, x.ja] for x in (pa, pb)]
            fields = {
                **thing_fields(Q.THINGS[a]),
                "A": pa.bare if lang == "en" else pa.ja,
                "B": pb.bare if lang == "en" else pb.ja,
            }
            window = {"since": pa.window()["since"], "until": pb.window()["until"]}  # type: ignore[index]
            minutes = None
        else:
            p = period(c, now)
            if how == "time":
                figures = [minutes_on(m, s, m.span(p, now)) for s in (a, b)]
                names = [[a], [b]]
                prep = {s: Q.PREPOSITION.get(s, "on") for s in (a, b)}
                fields = {"a": a, "b": b, "pa": prep[a], "pb": prep[b], **words(p)}
            else:
                figures = [len(m.occurrences(Q.THINGS[f"talk:{s}"], p, now)) for s in (a, b)]
                names = [[s, Q.NAMES_JA.get(s, s)] for s in (a, b)]
                fields = {"a": name_in(a, lang), "b": name_in(b, lang), **words(p)}
            window = clipped(p, now) if how == "time" else p.window()
            minutes = max(figures) if how == "time" else None
        if figures[0] == figures[1]:
            continue  # a tie names no side first
        big, small = (0, 1) if figures[0] > figures[1] else (1, 0)
        template = m.template(f"compare/{how}", lang, Q.COMPARE[lang][how])
        expected = (
            f"{names[big][0]} ({figures[big]:g}) before {names[small][0]} ({figures[small]:g})"
        )
        out.append(
            case(
                "compare",
                lang,
                text(template, **fields),
                now,
                window,
                expected,
                first=names[big],
                second=names[small],
                minutes=minutes,
                counts=None if minutes is not None else [figures[big], figures[small]],
            )
        )
    return out


def decision_cases(m: Month, lang: str) -> list[Case]:
    """-> the decision questions: the script's decision event on the topic, its line and moment."""
    out = []
    events = {e["what"]: e for e in m.script["events"] if e["kind"] == "work"}
    for topic in D.DECISION_SLOTS[lang]:
        event = events.get(D.DECISIONS[topic])
        if event is None:
            continue
        moment = m.moment(event["day"], event["time"])
        question = text(m.template("decision", lang, D.DECISION[lang]), t=topic)
        expected = f"{event['what']}: {event['source']} ({moment})"
        out.append(
            case(
                "decision",
                lang,
                question,
                m.now(None),
                None,
                expected,
                source=event["source"],
                when=moment,
            )
        )
    return out


def did_cases(m: Month, lang: str) -> list[Case]:
    """-> the yes-or-no questions: yes with the days a thing was done in the period (up to now), else no."""
    out = []
    for key, spec in D.DID_SLOTS[lang]:
        now = m.now(None)
        p = period(spec, now)
        if not any(p.holds(d) for d in m.days):
            continue  # a period the sample does not hold tells no "no"
        thing = Q.THINGS[key]
        today = now.date().isoformat()
        days = sorted({d for d in m.occurrences(thing, p, now) if d <= today})
        fields = {**thing_fields(thing), "perfect": D.PERFECT[key], **words(p)}
        fields["polite"] = D.POLITE_JA[thing.ja_verb]
        question = text(m.template("did", lang, D.DID[lang]), **fields)
        expected = f"yes ({', '.join(days)})" if days else "no"
        out.append(
            case("did", lang, question, now, p.window(), expected, yes=bool(days), days=days)
        )
    return out
