"""Markdown written by the generators: text escaped for MyST, tables, headings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# Backtick spans stay code; everything else is text, where these would be markup (`<TBD>` would
# be raw HTML, `*` emphasis, `|` a table's cell border).
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_SPECIAL = re.compile(r"([\\*_<>\[\]|#$])")


def text(value: str) -> str:
    """Prose from the code (help, docstrings, descriptions) as Markdown: code spans kept."""
    out: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(value):
        out.append(_SPECIAL.sub(r"\\\1", value[position : match.start()]))
        out.append(match.group(0).replace("|", "\\|"))
        position = match.end()
    out.append(_SPECIAL.sub(r"\\\1", value[position:]))
    return "".join(out)


def code(value: str) -> str:
    """An inline code span of any text (one longer fence when it holds backticks)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", value)), default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}".replace("|", "\\|")


def paragraphs(value: str) -> str:
    """Help or a docstring: its paragraphs kept, each paragraph's lines joined."""
    blocks = [" ".join(line.strip() for line in block.splitlines()) for block in re.split(r"\n\s*\n", value.strip())]
    return "\n\n".join(text(block) for block in blocks if block)


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A pipe table; cells are Markdown already (escape them with `text` or `code`)."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell.replace("\n", " ") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def toctree(entries: Iterable[str], *, hidden: bool = False, maxdepth: int = 1) -> str:
    """A toctree of absolute document names (`/reference/generated/...`): right in any page that
    includes it."""
    options = f":maxdepth: {maxdepth}\n" + (":hidden:\n" if hidden else "")
    return "```{toctree}\n" + options + "\n" + "\n".join(entries) + "\n```\n"
