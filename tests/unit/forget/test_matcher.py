"""Every needle found in one pass: raw bytes in their escaped forms, decoded Arrow columns, whole words."""

from __future__ import annotations

import json

import pyarrow as pa

from omoide.forget.matcher import Matcher, Needle


def test_needles_are_found_in_bytes_however_escaped_and_whole_words_only() -> None:
    m = Matcher(
        [Needle("Café Zorblax"), Needle("https://x.example/a b"), Needle("Peter", word=True)]
    )
    assert m.in_bytes(json.dumps({"t": "café zorblax"}).encode()) == {0}
    assert m.in_bytes(b"GET https%3A%2F%2Fx.example%2Fa%20b") == {1}
    assert m.in_bytes(b"Peterson met PETER.") == {2}
    assert m.in_bytes(b"Peterson") == set()
    assert m.in_text("with Peter’s bike") == {2}  # an apostrophe is not a letter
    assert m.any_text([None, "nothing", "café zorblax!"])
    assert not Matcher([])


def test_a_column_is_searched_as_one_buffer_but_never_across_two_values() -> None:
    m = Matcher([Needle("just one cookbook"), Needle("Peter", word=True)])
    table = pa.table(
        {
            "a": ["x just one", "cookbook y", None, ""],  # the needle spans two values: no hit
            "b": [["nope"], ["Via Just One Cookbook"], [], None],
            "c": [1, 2, 3, 4],
        }
    )
    assert m.in_table(table) == {0}
    assert m.in_table(pa.table({"a": ["Peter", "Peters"]}).slice(1)) == set()
    assert m.in_table(pa.table({"a": ["xPeter", "Peter"]})) == {1}
