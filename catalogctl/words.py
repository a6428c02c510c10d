"""Counts and lists in words, one way for every message: `1 error`, `2 errors`, `A, B and C`.

It sits in the lowest layer, beside `errors`, so that every layer (io's download messages
included) words its counts the same way.
"""

from __future__ import annotations

from collections.abc import Iterable


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The form of a noun (or verb) that agrees with `n`: `error` for 1, `errors` otherwise;
    give `plural` where it is not `singular` + "s" (`entry`/`entries`, `uses`/`use`)."""
    if n == 1:
        return singular
    return plural if plural is not None else singular + "s"


def count(n: int, singular: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """`1 error`, `0 errors`, `2 entries`; `grouped` writes thousands as `14,640 bytes`."""
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun(n, singular, plural)}"


def listed(items: Iterable[str]) -> str:
    """`A`, `A and B`, `A, B and C`: items in the order given, `and` before the last."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
