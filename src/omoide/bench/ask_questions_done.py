"""The questions `omoide bench ask` asks of what was decided and whether a thing was done: templates in English and Japanese, and what each is asked about.

Data only, as `omoide.bench.ask_questions` (whose things and periods these slots name);
`omoide.bench.ask_cases` fills the templates and takes each truth from the sample's script: a
decision topic names the script's `work` event of that decision, a did slot a thing (a tally,
or a talk: the chat log's conversations) and the period it is asked of (yes when it was done
in it, else no).
"""

from __future__ import annotations

DECISION = {
    "en": [
        "what did I decide about {t}",
        "what did we decide on {t}",
        "what was the decision on {t}?",
        "what did we settle on for {t}",
    ],
    "ja": [
        "{t}は何に決めた？",
        "{t}はどう決めましたか",
        "{t}について何を決めた？",
        "{t}の決定は？",
    ],
}
# A topic as a question says it -> the script's decision event about it ("decision on …").
DECISIONS = {
    "the vector store": "decision on LanceDB",
    "the nightly jobs": "decision on Prefect",
    "warelay's vectors": "decision on LanceDB",
    "the cron jobs": "decision on Prefect",
    "ベクトルの保存先": "decision on LanceDB",
    "夜間ジョブ": "decision on Prefect",
    "ベクトルストア": "decision on LanceDB",
    "cronのジョブ": "decision on Prefect",
}
DECISION_SLOTS = {
    "en": ["the vector store", "the nightly jobs", "warelay's vectors", "the cron jobs"],
    "ja": ["ベクトルの保存先", "夜間ジョブ", "ベクトルストア", "cronのジョブ"],
}

# did: yes or no, a thing done in a period ({perfect}: "have I been running", {polite}: 走りました)
DID = {
    "en": ["did I {base} {on}?", "have I {perfect} {on}?", "did I ever {base} {on}?"],
    "ja": ["{ja_wa}{obj}{polite}か", "{ja_wa}{obj}{verb}？", "{ja_wa}{obj}{verb}っけ？"],
}
PERFECT = {
    "run/run": "been running",
    "cooking/oyakodon": "cooked oyakodon",
    "cooking/dashi": "made dashi",
    "dentist/check-up": "been to the dentist",
    "booking/ryokan": "booked the ryokan",
    "social/call with my parents": "called my parents",
    "talk:Peter": "talked to Peter",
    "talk:Mina": "talked to Mina",
}
POLITE_JA = {
    "走った": "走りました",
    "作った": "作りました",
    "行った": "行きました",
    "予約した": "予約しました",
    "電話した": "電話しました",
    "話した": "話しました",
}
DID_SLOTS = {
    "en": [
        ("run/run", "week:-1"),
        ("cooking/oyakodon", "week:0"),
        ("dentist/check-up", "month:2026-10"),
        ("talk:Peter", "yesterday"),
    ],
    "ja": [
        ("run/run", "week:0"),
        ("booking/ryokan", "week:-1"),
        ("social/call with my parents", "week:-1"),
        ("cooking/dashi", "yesterday"),
    ],
}
