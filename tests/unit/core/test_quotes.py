from __future__ import annotations

import pytest

from omoide.core.quotes import short_quote


def test_short_text_is_only_flattened():
    assert (
        short_quote("Peter moved\n  to the platform team.") == "Peter moved to the platform team."
    )


def test_long_text_is_cut_on_a_word_boundary_with_an_ellipsis():
    text = (
        "Aiko: Ryokan rabbit hole. Higashiyama or Gion? Peter: Higashiyama, quieter. Go to sleep!"
    )
    quote = short_quote(text)
    assert (
        quote == "Aiko: Ryokan rabbit hole. Higashiyama or Gion? Peter: Higashiyama, quieter. Go…"
    )
    assert len(quote) <= 80
    assert text.startswith(quote.removesuffix("…"))


@pytest.mark.parametrize("limit", [20, 40, 80])
def test_a_quote_never_exceeds_its_limit(limit: int):
    text = " ".join(f"word{i}" for i in range(100))
    quote = short_quote(text, limit)
    assert len(quote) <= limit and quote.endswith("…")
    assert quote.removesuffix("…").split()[-1] in text.split()  # no word cut in half


def test_trailing_punctuation_is_dropped_before_the_ellipsis():
    assert short_quote("one two three, four five six seven", 16) == "one two three…"


def test_one_long_word_is_cut_inside_itself():
    url = "https://example.org/" + "a" * 200
    assert short_quote(f"see {url}", 40) == f"see {url}"[:39] + "…"


def test_a_number_the_cut_would_split_is_left_out_whole():
    # The first half of an order number reads as a phone number: the reflect check's PII
    # scan failed a run whose profile page quoted "order no. 4929 1234…".
    text = "Wednesday, 25 November 2026: Ordered a donabe from Tokyo, order no. 4929 1234 5678 9013"
    quote = short_quote(text)
    assert quote == "Wednesday, 25 November 2026: Ordered a donabe from Tokyo, order no…"
    assert (
        short_quote("Booked for 3–7 April 2027 in Higashiyama", 30)
        == "Booked for 3–7 April 2027 in…"
    )
