from __future__ import annotations

from omoide.core.tokens import count_tokens, count_tokens_batch, load_tokenizer


def test_known_counts():
    assert count_tokens("") == 0
    assert count_tokens("   ") == 0
    assert count_tokens("Hello, World! I booked a flight to Kyoto.") == 11
    # WordPiece: una ##ffa ##ble token ##ization
    assert count_tokens("unaffable tokenization") == 5
    # bert-base-uncased splits CJK ideographs into single characters
    assert count_tokens("京都") == 2


def test_no_truncation():
    # the vendored tokenizer.json truncates at 128; counting must not
    assert count_tokens("kyoto " * 1000) == 1000


def test_batch_matches_single():
    texts = ["Hello, World!", "", "昨日、京都行きの飛行機を予約した。", "kyoto " * 300]
    assert count_tokens_batch(texts) == [count_tokens(t) for t in texts]
    assert count_tokens_batch([]) == []


def test_load_tokenizer_is_a_fresh_unbounded_copy():
    a, b = load_tokenizer(), load_tokenizer()
    assert a is not b
    assert a.truncation is None and a.padding is None
    assert a.get_vocab_size() == 30522
