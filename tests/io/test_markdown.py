"""The Markdown escapers: a value is text or inline code, never markup, and its control
characters are shown rather than written."""

from __future__ import annotations

import pytest

from catalogctl.io.markdown import md_code, md_text, visible


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\nb\r\tc", "a\\nb\\r\\tc"),
        ("esc\x1b[31m del\x7f nel\x85", "esc\\x1b[31m del\\x7f nel\\x85"),
        ("ls\u2028ps\u2029", "ls\\u2028ps\\u2029"),
        ("plain é ✅", "plain é ✅"),
    ],
)
def test_control_characters_are_shown(text: str, shown: str) -> None:
    assert visible(text) == shown


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("max_new_tokens >= 3 -> 4", "max_new_tokens >= 3 -> 4"),  # what cannot be markup stays as it is
        ("[x](http://e) ![i](j)", "\\[x\\](http:\u2060//e) !\\[i\\](j)"),
        ("*a* _b_ ~c~ `d` $e$", "\\*a\\* \\_b\\_ \\~c\\~ \\`d\\` \\$e\\$"),
        ("<img src=x> &amp; &#60; a & b", "&lt;img src=x> \\&amp; \\&#60; a & b"),
        ("a|b\\c\nd", "a\\|b\\\\c\\\\nd"),
        ("# h", "\\# h"),
        ("> q", "\\> q"),
        ("- item", "\\- item"),
        ("12) item", "12\\) item"),
        ("1. item", "1\\. item"),
        ("80.5 ms", "80.5 ms"),
        ("#tag", "#tag"),
    ],
)
def test_text_is_never_markup(text: str, markdown: str) -> None:
    assert md_text(text) == markdown


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("", ""),
        ("a.yaml:2:5", "`a.yaml:2:5`"),
        ("a`b", "``a`b``"),
        ("``x`", "``` ``x` ```"),
        (" x", "` x`"),
        (" x ", "`  x  `"),
        ("a | b\nc", "`a \\| b\\nc`"),
    ],
)
def test_code_shows_the_value_exactly(text: str, markdown: str) -> None:
    assert md_code(text) == markdown


WJ = "\u2060"  # the word joiner: invisible, and it breaks a mention or an autolink


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("GSM8K @octo-org/security", f"GSM8K @{WJ}octo-org/security"),
        ("see https://evil.example/login", f"see https:{WJ}//evil.example/login"),
        ("HTTP://EVIL.example", f"HTTP:{WJ}//EVIL.example"),
        ("www.evil.example and WWW.evil.example", f"www{WJ}.evil.example and WWW{WJ}.evil.example"),
        ("mail admin@evil.example", f"mail admin@{WJ}evil.example"),
        ("max_new_tokens: 8", "max_new_tokens: 8"),
    ],
)
def test_text_mentions_no_one_and_links_nowhere(text: str, markdown: str) -> None:
    # They were written as they are: GitHub would notify the team and autolink the URLs.
    assert md_text(text) == markdown
