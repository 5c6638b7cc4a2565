"""Titles split into the page's own title, the site's name and the app's name."""

from __future__ import annotations

from omoide.ingest.titles import heads, names_page, names_site, segments, site_names


def test_a_window_title_is_its_page_title_then_the_apps_name() -> None:
    title = "How to Make Dashi (Japanese Soup Stock) • Just One Cookbook — Mozilla  Firefox"
    assert segments(title) == [
        "how to make dashi (japanese soup stock)",
        "just one cookbook",
        "mozilla firefox",
    ]
    assert heads(title)[1] == "how to make dashi (japanese soup stock) • just one cookbook"
    page = {"how to make dashi (japanese soup stock) • just one cookbook"}
    assert names_page(title, page)
    # A hyphen inside a word, or a page title that only starts the same, is no separator.
    assert segments("Higashiyama-ku - Wikipedia") == ["higashiyama-ku", "wikipedia"]
    assert not names_page("How to Make Dashi (Japanese Soup Stock) extra", page)
    assert names_site("Oyakodon | Just One Cookbook", {"just one cookbook"})
    assert not names_site("Just One Cookbook fans - Reddit", {"just one cookbook"})


def test_a_sites_name_ends_several_of_its_titles_and_no_other_sites() -> None:
    mine = [
        "How to Make Dashi • Just One Cookbook",
        "Oyakodon (Chicken and Egg Bowl) • Just One Cookbook",
        "Search results - Home",
        "Login - Home",
        "Part 2 - Ramen",  # ends one title only
    ]
    others = ["My account - Home"]
    assert site_names(mine, others) == {"just one cookbook"}
