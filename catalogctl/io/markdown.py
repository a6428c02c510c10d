"""Markdown text the tool writes (PR comments, job summaries, changelog sections): one escaper
for table cells and inline code, so that a value can never become markup (`<TBD>` stays text)."""

from __future__ import annotations


def md_text(text: str) -> str:
    """A value as plain Markdown inline text: no table break, no line break, no HTML tag."""
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ").replace("<", "&lt;")


def md_code(text: str) -> str:
    """A value as inline code (empty stays empty); a backtick inside cannot end the span."""
    if not text:
        return ""
    inner = text.replace("|", "\\|").replace("\r", " ").replace("\n", " ").replace("`", "'")
    return f"`{inner}`"
