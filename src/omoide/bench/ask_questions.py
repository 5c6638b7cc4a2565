"""The questions `omoide bench ask` asks of the sample month: templates in English and Japanese, and what each is asked about.

Data only; `omoide.bench.ask_cases` fills the templates and takes each truth from the sample's
script and source files. A slot names what a question is about (a thing done as the script's
tallies name it, a site or app, a fact, a person) and its period; each kind's templates are
used in turn over its slots, so the phrasing varies. A period is `yesterday`, `on:YYYY-MM-DD`
(said as its weekday within the week before now, else as its date), `week:-1|0|+1` (last,
this, next week), `month:YYYY-MM`, or None (the whole history). `now` is the Saturday after
the sample's last day at 10:00, or as a slot says (`tuesday`: four days after the last day;
`noon`: the last day at 13:00).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thing:
    """Something done: its tally in the script (or `talk:<person>`), and how each language says doing it."""

    key: str
    base: str  # "go running"
    past: str  # "went running"
    ja_obj: str  # "親子丼を", "" when the verb alone says it
    ja_verb: str  # "作った"


THINGS = {
    t.key: t
    for t in (
        Thing("run/run", "go running", "went running", "", "走った"),
        Thing("cooking/oyakodon", "cook oyakodon", "cooked oyakodon", "親子丼を", "作った"),
        Thing("cooking/dashi", "make dashi", "made dashi", "出汁を", "作った"),
        Thing("dentist/check-up", "go to the dentist", "went to the dentist", "歯医者に", "行った"),
        Thing("booking/ryokan", "book the ryokan", "booked the ryokan", "旅館を", "予約した"),
        Thing(
            "social/call with my parents",
            "call my parents",
            "called my parents",
            "母と",
            "電話した",
        ),
        Thing("talk:Peter", "talk to Peter", "talked to Peter", "ピーターと", "話した"),
        Thing("talk:Mina", "talk to Mina", "talked to Mina", "ミナと", "話した"),
    )
}
# How a Japanese question names the sample's people.
NAMES_JA = {"Peter": "ピーター", "Mina": "ミナ"}
SITES = frozenset({"github.com", "news.ycombinator.com", "lancedb.github.io", "japan-guide.com"})
# "how long was I in zoom", "… on Slack", "… on github.com"
PREPOSITION = {"zoom": "in"}

OVERVIEW = {
    "en": ["what did I do {on}", "what happened {on}?", "what was I up to {on}", "summarise {on}"],
    "ja": ["{ja}は何をしましたか", "{ja}は何をしていた？", "{ja}はどうだった？", "{ja}のまとめ"],
}
OVERVIEW_SLOTS = {
    "en": [
        ("yesterday", None),
        ("on:2026-11-19", None),
        ("on:2026-11-02", None),
        ("week:-1", "tuesday"),
    ],
    "ja": [
        ("yesterday", None),
        ("on:2026-10-31", None),
        ("week:-1", "tuesday"),
        ("on:2026-11-19", None),
    ],
}

TIME_SPENT = {
    "en": [
        "how much time did I spend {prep} {s} {on}",
        "how long was I {prep} {s} {on}",
        "how many hours did I spend {prep} {s} {on}",
        "how long did I use {s} {on}",
    ],
    "ja": [
        "{ja_wa}{s}を何時間{saw}？",
        "{ja_ni}{s}をどのくらい使った？",
        "{ja_ni}{s}に何時間いた？",
        "{ja_wa}{s}にどれくらい時間を使いましたか",
    ],
}
TIME_SPENT_SLOTS = {
    "en": [
        ("github.com", "yesterday"),
        ("zoom", "on:2026-11-20"),
        ("news.ycombinator.com", "on:2026-11-19"),
        ("Slack", "on:2026-11-18"),
        ("lancedb.github.io", "week:-1"),
        ("japan-guide.com", "on:2026-11-12"),
    ],
    "ja": [
        ("github.com", "yesterday"),
        ("zoom", "on:2026-11-20"),
        ("news.ycombinator.com", "on:2026-11-19"),
        ("lancedb.github.io", "week:-1"),
        ("Slack", "on:2026-11-12"),
    ],
}

WHEN = {
    "en": {
        "last": ["when did I last {base}", "when was the last time I {past}"],
        "first": ["when did I first {base}", "when was the first time I {past}"],
        "latest": ["when did I {base}"],
    },
    "ja": {
        "last": ["最後に{obj}{verb}のはいつ？", "{obj}最後に{verb}のはいつだっけ"],
        "first": ["初めて{obj}{verb}のはいつですか", "最初に{obj}{verb}のはいつ？"],
        "latest": ["{obj}{verb}のはいつ？"],
    },
}
WHEN_SLOTS = {
    "en": [
        ("run/run", "last"),
        ("cooking/dashi", "first"),
        ("cooking/oyakodon", "last"),
        ("booking/ryokan", "latest"),
        ("dentist/check-up", "latest"),
        ("talk:Peter", "last"),
        ("talk:Mina", "first"),
    ],
    "ja": [
        ("cooking/oyakodon", "last"),
        ("cooking/dashi", "first"),
        ("booking/ryokan", "latest"),
        ("run/run", "last"),
        ("talk:Peter", "last"),
        ("talk:Mina", "first"),
        ("dentist/check-up", "latest"),
    ],
}

# A standing fact -> its questions in each language, and the words that name its value now.
LOOKUPS = {
    ("Mina", "home"): (
        ["where does Mina live", "where does Mina live now?"],
        ["ミナはどこに住んでいますか", "ミナは今どこに住んでる？"],
        ["Berlin", "ベルリン"],
    ),
    ("warelay", "vector store"): (
        ["which store did we pick for warelay", "where will warelay keep its vectors?"],
        ["warelayのベクトルはどこに保存することにした？"],
        ["Lance", "ランス"],
    ),
    ("Peter", "team"): (
        ["which team is Peter on now"],
        ["ピーターは今どのチームにいる？"],
        ["platform", "プラットフォーム"],
    ),
    ("Peter", "age"): (["how old is Peter"], ["ピーターは何歳？"], ["34"]),
    ("Peter", "home"): (
        ["where does Peter live now"],
        ["ピーターは今どこに住んでいる？"],
        ["Neukölln", "sister"],
    ),
}
LOOKUP_SLOTS = {
    "en": [
        ("Mina", "home"),
        ("warelay", "vector store"),
        ("Peter", "team"),
        ("Peter", "age"),
        ("Peter", "home"),
    ],
    "ja": [("Mina", "home"), ("warelay", "vector store"), ("Peter", "age"), ("Peter", "team")],
}

COUNT = {
    "en": [
        "how many times did I {base} {on}",
        "how often did I {base} {on}",
        "how many days did I {base} {on}",
    ],
    "ja": [
        "{ja_ni}{obj}何回{verb}？",
        "{ja_ni}{obj}{verb}のは何回ですか",
        "{ja_ni}{obj}何度{verb}？",
    ],
}
COUNT_SLOTS = {
    "en": [
        ("run/run", "month:2026-11"),
        ("cooking/oyakodon", None),
        ("cooking/dashi", None),
        ("talk:Peter", "week:-1"),
        ("social/call with my parents", None),
        ("dentist/check-up", None),
    ],
    "ja": [
        ("cooking/oyakodon", None),
        ("cooking/dashi", None),
        ("social/call with my parents", None),
        ("talk:Peter", "week:-1"),
        ("run/run", "month:2026-11"),
    ],
}

WHICH_DAYS = {
    "en": [
        "which days did I {base} {on}",
        "on which days did I {base} {on}",
        "what days did I {base} {on}",
        "list the days I {past} {on}",
    ],
    "ja": [
        "{ja_no}どの日に{obj}{verb}？",
        "{ja_no}{obj}{verb}のはどの日ですか",
        "{ja_no}{obj}{verb}のは何日？",
        "{ja_no}何曜日に{obj}{verb}？",
    ],
}
WHICH_DAYS_SLOTS = {
    "en": [
        ("run/run", None),
        ("cooking/oyakodon", None),
        ("social/call with my parents", None),
        ("cooking/dashi", "month:2026-11"),
    ],
    "ja": [
        ("cooking/oyakodon", None),
        ("social/call with my parents", None),
        ("cooking/dashi", None),
        ("run/run", None),
    ],
}

# compare: ("time", a, b, period), ("periods", thing, period a, period b), ("talk", a, b, period)
COMPARE = {
    "en": {
        "time": [
            "did I spend more time {pa} {a} or {pb} {b} {on}",
            "was I longer {pa} {a} or {pb} {b} {on}",
            "{On}, more time {pa} {a} or {pb} {b}?",
        ],
        "periods": [
            "did I {base} more in {A} or in {B}",
            "did I {base} more often in {A} than in {B}",
        ],
        "talk": ["did I talk more with {a} or with {b} {on}"],
    },
    "ja": {
        "time": [
            "{ja_wa}{a}と{b}のどちらに長く時間を使いましたか",
            "{ja_wa}{a}と{b}、どっちが長かった？",
        ],
        "periods": [
            "{A}と{B}では、どちらの方が多く{obj}{verb}？",
            "{A}と{B}のどっちがよく{obj}{verb}？",
        ],
        "talk": ["{ja_wa}{a}と{b}のどちらとよく話した？"],
    },
}
COMPARE_SLOTS = {
    "en": [
        ("time", "github.com", "zoom", "on:2026-11-20"),
        ("time", "Slack", "github.com", "on:2026-11-18"),
        ("time", "lancedb.github.io", "news.ycombinator.com", "week:-1"),
        ("periods", "run/run", "month:2026-10", "month:2026-11"),
        ("talk", "Peter", "Mina", "week:-1"),
    ],
    "ja": [
        ("time", "github.com", "zoom", "on:2026-11-20"),
        ("time", "Slack", "github.com", "on:2026-11-18"),
        ("periods", "cooking/dashi", "month:2026-10", "month:2026-11"),
        ("talk", "Peter", "Mina", "week:-1"),
    ],
}

# part of a day: (day period, hours from its midnight, now) -> how each language names those hours
PART_OF_DAY = {
    "en": ["what did I do {when}", "what was I doing {when}"],
    "ja": ["{when}は何をしていた？", "{when}は何をした？"],
}
PART_OF_DAY_SLOTS = {
    "en": [
        ("on:2026-11-11", (12, 18), None, "on the afternoon of {bare}"),
        ("yesterday", (18, 24), None, "{bare} evening"),
        ("on:2026-11-19", (14, 16), None, "between 14:00 and 16:00 {on}"),
        ("on:2026-11-20", (0, 12), "noon", "this morning"),
    ],
    "ja": [
        ("on:2026-11-17", (12, 18), None, "{ja}の午後"),
        ("yesterday", (18, 30), None, "{ja}の夜"),
        ("on:2026-11-19", (14, 16), None, "{ja}の14時から16時まで"),
        ("on:2026-11-20", (0, 12), "noon", "今朝"),
    ],
}

SAID_BY = {
    "en": [
        "what did {p} say about {t}",
        "what did {p} tell me about {t}",
        "did {p} say anything about {t}",
        "what did {p} write about {t}",
    ],
    "ja": [
        "{p}は{t}について何と言っていましたか",
        "{p}は{t}のことで何て言ってた？",
        "{p}が{t}について何か言ってた？",
    ],
}
# A topic -> the words that put a message on it, and the script's `said` events about it.
TOPICS = {
    "the ryokan": (["ryokan", "higashiyama", "旅館"], ["the ryokan"]),
    "旅館": (["ryokan", "higashiyama", "旅館"], ["the ryokan"]),
    "the flights": (["flight", "フライト", "飛行機"], ["the flights"]),
    "the flat": (["flat", "apartment"], ["the flat"]),
    "the benchmark": (["benchmark", "ベンチマーク"], ["the benchmark"]),
    "ベンチマーク": (["benchmark", "ベンチマーク"], ["the benchmark"]),
    "the runbook": (["runbook"], ["the migration runbook"]),
    "グラフ": (["graph", "chart", "グラフ"], ["the all-hands slides"]),
    "全体会議": (["all-hands", "全体会議", "発表"], ["the all-hands slides"]),
}
SAID_BY_SLOTS = {
    "en": [
        ("Peter", "the ryokan"),
        ("Peter", "the flights"),
        ("Mina", "the benchmark"),
        ("Mina", "the runbook"),
        ("Peter", "the flat"),
    ],
    "ja": [("Peter", "旅館"), ("Mina", "ベンチマーク"), ("Mina", "グラフ"), ("Mina", "全体会議")],
}

WHO = {
    "en": ["who is {p}", "who's {p}?", "who is {p} again?"],
    "ja": ["{p}って誰？", "{p}はどんな人？", "{p}とは誰ですか"],
}
WHO_SLOTS = {"en": ["Mina", "Peter", "Peter"], "ja": ["Mina", "Peter", "Mina"]}
# How each language names the circle a person is in (the truth: their events in the script).
RELATION = {
    "en": {"colleague": ["colleague"], "friend": ["friend"]},
    "ja": {"colleague": ["同僚"], "friend": ["友人", "友達"]},
}

# commitments: (to whom or None, period, "all" promises or the "open" ones)
COMMITMENTS = {
    "en": {
        "all": ["what have I promised {p} {on}", "what did I promise {p} {on}"],
        "open": ["what do I owe {p}", "what do I still owe {p}"],
        "anyone": ["what do I have to do {on}", "what's on my plate {on}"],
    },
    "ja": {
        "all": ["{ja_ni}{p}に何を約束した？", "{ja}{p}との約束は？"],
        "anyone": ["{ja}やることは？", "{ja}しなきゃいけないことは？"],
    },
}
COMMITMENTS_SLOTS = {
    "en": [
        ("Peter", None, "all"),
        ("Mina", None, "open"),
        ("Mina", "week:-1", "all"),
        (None, "week:+1", "anyone"),
    ],
    "ja": [
        ("Peter", None, "all"),
        ("Mina", None, "all"),
        (None, "week:+1", "anyone"),
        ("Mina", "week:-1", "all"),
    ],
}
