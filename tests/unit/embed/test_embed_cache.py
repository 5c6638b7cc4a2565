"""The shared embedding cache: a text is computed once per model, across processes and days."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from omoide.embed.cache import CACHE_FILE, CachedEmbedder, clear
from omoide.embed.minilm import MiniLMEmbedder
from omoide.embed.text import embedding_text
from tests.fakes import FakeEmbedder


def test_a_text_is_computed_once_and_served_the_same(tmp_path: Path) -> None:
    inner = FakeEmbedder(dim=8)
    first = CachedEmbedder(inner, tmp_path)
    a = first.embed(["github.com: pull requests", "zoom: standup", "github.com: pull requests"])
    assert first.computed == 2 and first.hits == 0
    # A later process (a new wrapper) finds both in the file and asks the model nothing.
    second = CachedEmbedder(inner, tmp_path)
    b = second.embed(["zoom: standup", "github.com: pull requests", "new text"])
    assert (second.computed, second.hits) == (1, 2)
    assert inner.calls[-1] == ["new text"]
    np.testing.assert_array_equal(b[0], a[1])
    np.testing.assert_array_equal(b[1], a[0])
    assert b.dtype == np.float32 and b.shape == (3, 8)


def test_models_and_queries_do_not_share_vectors(tmp_path: Path) -> None:
    one, other = (
        CachedEmbedder(FakeEmbedder(dim=8, model="m1"), tmp_path),
        FakeEmbedder(dim=8, model="m2"),
    )
    one.embed(["same words"])
    two = CachedEmbedder(other, tmp_path)
    two.embed(["same words"])
    assert two.computed == 1 and two.hits == 0
    # A question is never cached: a model may embed a query differently from a passage.
    two.embed(["same words"], query=True)
    two.embed(["same words"], query=True)
    assert two.computed == 3


def test_the_file_holds_no_text(tmp_path: Path) -> None:
    CachedEmbedder(FakeEmbedder(dim=8), tmp_path).embed(["Aiko's secret birthday plan"])
    assert b"secret" not in (tmp_path / CACHE_FILE).read_bytes()


def test_a_damaged_cache_is_replaced_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / CACHE_FILE).write_bytes(b"this is not a database" * 100)
    emb = CachedEmbedder(FakeEmbedder(dim=8), tmp_path)
    out = emb.embed(["a", "b"])
    assert out.shape == (2, 8) and emb.computed == 2
    assert "unusable" in caplog.text
    # The next call has a working cache again.
    again = CachedEmbedder(FakeEmbedder(dim=8), tmp_path)
    again.embed(["a"])
    assert again.hits == 1


def test_clear_removes_every_vector(tmp_path: Path) -> None:
    CachedEmbedder(FakeEmbedder(dim=8), tmp_path).embed(["a", "b", "c"])
    assert clear(tmp_path) == 3
    assert not (tmp_path / CACHE_FILE).exists()
    assert clear(tmp_path) == 0


def _writer(folder: str, texts: list[str]) -> None:
    """Folder + texts -> embedded through the cache in this process."""
    CachedEmbedder(FakeEmbedder(dim=8), Path(folder)).embed(texts)


def test_two_processes_write_at_once_without_loss_or_doubles(tmp_path: Path) -> None:
    texts = [f"text {i}" for i in range(400)]
    ctx = multiprocessing.get_context("spawn")
    procs = [
        ctx.Process(target=_writer, args=(str(tmp_path), texts[i::2] + texts[:50])) for i in (0, 1)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    emb = CachedEmbedder(FakeEmbedder(dim=8), tmp_path)
    emb.embed(texts)
    assert (emb.computed, emb.hits) == (0, 400)
    assert clear(tmp_path) == 400


def test_the_bundled_model_through_the_cache_gives_its_own_vectors(tmp_path: Path) -> None:
    model = MiniLMEmbedder()
    texts = ["I decided on LanceDB for warelay", "ramen with Peter at 13:00"]
    direct = model.embed(texts)
    through = CachedEmbedder(model, tmp_path)
    through.embed(texts)
    again = CachedEmbedder(model, tmp_path).embed(texts)
    np.testing.assert_array_equal(again, direct)


def test_a_session_is_embedded_without_its_clock_times() -> None:
    line = "08:55–09:05 github.com (10 min): omoide pull requests; Issues"
    assert embedding_text("session", line) == "github.com: omoide pull requests; Issues"
    assert embedding_text("session", "08:55–09:05 zoom (2 min)") == "zoom"
    # Other kinds keep every word: a note's time may be what it says.
    assert embedding_text("note", line) == line
