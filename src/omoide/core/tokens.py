"""Token counting with the embedded model's WordPiece tokenizer (vendored, no network)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

from tokenizers import Tokenizer

# all-MiniLM-L6-v2's tokenizer (bert-base-uncased vocabulary); origin and licence in embed/NOTICE.
_TOKENIZER_PACKAGE = "omoide.embed"
_TOKENIZER_FILE = "minilm-tokenizer.json"


def load_tokenizer() -> Tokenizer:
    """() -> a fresh vendored MiniLM tokenizer with truncation and padding switched off."""
    text = resources.files(_TOKENIZER_PACKAGE).joinpath(_TOKENIZER_FILE).read_text("utf-8")
    tokenizer = Tokenizer.from_str(text)
    # The shipped tokenizer.json truncates and pads to a fixed 128; callers choose their own.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@functools.cache
def _counter() -> Tokenizer:
    return load_tokenizer()


def count_tokens(text: str) -> int:
    """Text -> number of WordPiece tokens, without [CLS]/[SEP] and without truncation."""
    return len(_counter().encode(text, add_special_tokens=False).ids)


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """Texts -> token count of each, in order (same rules as count_tokens, tokenized in parallel)."""
    if not texts:
        return []
    encodings = _counter().encode_batch(list(texts), add_special_tokens=False)
    return [len(e.ids) for e in encodings]
