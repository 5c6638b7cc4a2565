"""`bench retrieval`: a paragraph corpus indexed as notes through omoide's path, then recall@k."""

from __future__ import annotations

import json
from pathlib import Path

from omoide.bench.retrieval import run_retrieval, words
from tests.fakes import FakeEmbedder

CORPUS = [
    {"id": "京都#0", "title": "京都", "text": "京都の旅館に泊まった。東山の静かな宿だった。"},
    {"id": "京都#1", "title": "京都", "text": "嵐山の竹林は朝早くが空いている。"},
    {"id": "出汁#0", "title": "出汁", "text": "昆布と鰹節で一番出汁を取る。沸騰させないのがこつ。"},
    {
        "id": "Lance#0",
        "title": "Lance",
        "text": "Lance is a columnar format for machine learning data.",
    },
]
QUERIES = [
    {"id": "q1", "question": "京都ではどこに泊まった？", "evidence": ["京都#0"]},
    {"id": "q2", "question": "出汁を取るには何を使う？", "evidence": ["出汁#0"]},
    {"id": "q3", "question": "竹林が空いているのはいつ？", "evidence": ["京都#1"]},
    {"id": "q4", "question": "which columnar format suits ML data", "evidence": ["Lance#0"]},
]


def test_japanese_paragraphs_are_found_by_their_words(tmp_path: Path) -> None:
    data = tmp_path / "set.json"
    data.write_text(json.dumps({"corpus": CORPUS, "queries": QUERIES}), encoding="utf-8")
    # Vectors that know nothing: what is found, the word index (ICU segmentation) found.
    result = run_retrieval(data, FakeEmbedder(whole_text=True))
    assert result["recall_at"] == {"1": 100.0, "5": 100.0, "10": 100.0}
    assert set(result["words_at"]) == {"1", "5", "10"}
    assert result["questions"] == 4 and result["paragraphs"] == 4


def test_words_count_each_japanese_character_and_each_other_word() -> None:
    assert words("京都の旅館 in Kyoto, 2027") == 5 + 3
