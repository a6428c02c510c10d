"""Markdown text the tool writes (PR comments, job summaries, changelog sections): one escaper
for text and one for inline code, so that a value (a file name, a message, a label) can never
become markup: no table break, no link, no HTML tag or entity, no code span ended early.

GitHub also turns plain text into links and notifications: `@name` mentions a user or a team
(`@org/team`), and `https://…`, `www.…` and `a@b.example` become links. A word joiner (U+2060,
invisible) after each `@`, inside each `://` and before the dot of `www.` keeps the text as it reads
and breaks each of them; inside inline code none of them happens.

Control characters (a newline in a file name) are shown as visible escapes (`\\n`), never
written: a value keeps its one line, and a reader sees what the name really holds.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# The ASCII punctuation that is inline markup in GitHub's Markdown: emphasis, code, links,
# tables, strikethrough and math, an entity's `&`, and an `_` that can open or close
# emphasis (inside a word, as in `max_new_tokens`, it cannot). A backslash escapes each of them.
_MARKUP = re.compile(r"([\\`*\[\]|~$]|&(?=[#A-Za-z0-9])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
# What starts a block where text opens a line (a note after `> `): a heading, a quote, a list
# item (a lone `-` is text: the placeholder of an empty cell).
_WORD_JOINER = "\u2060"
_LINKING = re.compile(r"(@)|(:)(?=//)|(?<![A-Za-z0-9])([Ww]{3})(?=\.)")
_BLOCK_START = re.compile(r"^(?:(#{1,6}|[>+=-])|(\d{1,9})([.)]))(?= )")


def visible(text: str) -> str:
    """`text` with every control character written as an escape (`\\n`, `\\x1b`, `\\u2028`)."""

    def escape(match: re.Match[str]) -> str:
        char = match.group(0)
        return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")

    return _CONTROL.sub(escape, text)


def md_text(text: str) -> str:
    """A value as plain Markdown inline text: every markup character escaped, controls visible."""
    # `<` as an entity opens no HTML tag (a `>` alone is text).
    escaped = _MARKUP.sub(r"\\\1", visible(text)).replace("<", "&lt;")
    escaped = _LINKING.sub(lambda m: m.group(0) + _WORD_JOINER, escaped)  # no mention, no autolink
    return _BLOCK_START.sub(lambda m: f"\\{m.group(1)}" if m.group(1) else f"{m.group(2)}\\{m.group(3)}", escaped)


def md_code(text: str) -> str:
    """A value as inline code (empty stays empty), shown exactly: the fence is longer than any run
    of backticks inside, a `|` cannot end a table cell, controls are visible."""
    if not text:
        return ""
    inner = visible(text).replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall("`+", inner)), default=0) + 1)
    # A span that starts or ends with a backtick, or with a space at both ends, needs a space
    # inside each fence, which Markdown strips again.
    pad = " " if "`" in (inner[0], inner[-1]) or (inner[0] == inner[-1] == " " and inner.strip()) else ""
    return f"{fence}{pad}{inner}{pad}{fence}"
