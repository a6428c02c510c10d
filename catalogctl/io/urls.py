"""URLs as the tool records and prints them (without credentials), and the local path a URL names.

Every URL that goes into a resolved config, a message or a report passes through `redact_url`
(free text, such as libgit2's errors, through `redact_text`). The rule is one for every form:

- the whole user info goes, user included, not only a password: in an https URL the user is
  often the token itself (`https://ghp_…@github.com/…`, `https://oauth2:…@gitlab…`), and an ssh
  user (`git@`) is not needed to name the repository, so one rule for all schemes, scp-like
  `user@host:path` included, is simpler to trust than a list of schemes whose user is harmless;
- every query value is replaced by `REDACTED` (the names are kept): tokens travel there
  (`?private_token=`, presigned signatures) under names no list could be complete for, and a
  query is never part of which repository a remote is;
- a password may hold an unencoded `/` (`https://user:SEC/RET@host/…`, which RFC 3986 would read
  as the host `user` and the path `/RET@host/…`): when the authority has the `user:` form and an
  `@` follows before the query, the user info runs to that last `@`. A URL with a port and an `@`
  in its path is shown with less than it has; never the other way round.

`credentials_in` names what in a URL looks like a credential, for `datasets pin`, which writes a
URL into the catalog (committed, and public) and so refuses one that carries any.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

REDACTED = "REDACTED"

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# A URL inside a message: from its scheme to the first space, quote or bracket that ends it.
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"`<>]+")


def _redact_query(query: str) -> str:
    """Each parameter's value replaced (a bare parameter is a value: it may be the token)."""
    return "&".join(p.split("=", 1)[0] + f"={REDACTED}" if "=" in p else REDACTED for p in query.split("&"))


def _scp_like(url: str) -> bool:
    """`[user@]host:path`, as git reads it: a colon before any slash, not a Windows drive (`C:`)."""
    colon, slash = url.find(":"), url.find("/")
    return colon > 1 and (slash == -1 or colon < slash)


# Query parameter names that carry a credential: a word of the name (split at `_`, `-`, `.`, or
# a case change as in `apiKey`) is one of these, or the name is a cloud's signed-URL parameter.
_SECRET_WORDS = frozenset(
    {
        "token",
        "key",
        "apikey",
        "secret",
        "signature",
        "password",
        "passwd",
        "pwd",
        "auth",
        "authorization",
        "sig",
        "credential",
        "credentials",
    }
)
_SIGNED_PREFIXES = ("x-amz-", "x-goog-")


def _secret_name(name: str) -> bool:
    words = re.split(r"[_.\-]+|(?<=[a-z])(?=[A-Z])", name)
    return name.lower().startswith(_SIGNED_PREFIXES) or any(w.lower() in _SECRET_WORDS for w in words)


def credentials_in(url: str) -> list[str]:
    """What in an http(s) URL looks like a credential: `user info`, then each query parameter
    whose name is a secret's (`token`, `api_key`, `X-Amz-Signature`, …), by name."""
    if not _SCHEME.match(url):
        return []
    scheme, rest = url.split("://", 1)
    head = f"{scheme}://{re.split('[?#]', rest, maxsplit=1)[0]}"
    found = ["user info"] if redact_url(head) != head else []  # what redaction removes from it
    query = rest.partition("#")[0].partition("?")[2]
    names = [p.split("=", 1)[0] for p in query.split("&") if p] if query else []
    return found + [name for name in names if _secret_name(name)]


def redact_url(url: str) -> str:
    """`url` without user info and with its query values redacted; a name or a path unchanged."""
    if _SCHEME.match(url):
        scheme, rest = url.split("://", 1)
        # The authority ends at the first `/`, `?` or `#` (RFC 3986); its user info at its last `@`.
        end = min((i for i in (rest.find(c) for c in "/?#") if i != -1), default=len(rest))
        before_query = rest[: min((i for i in (rest.find(c) for c in "?#") if i != -1), default=len(rest))]
        if ":" in rest[:end] and "@" in before_query[end:]:  # `user:pass/word@host`
            at = before_query.rindex("@")
            cut = before_query.find("/", at)
            end = len(before_query) if cut == -1 else cut
        authority, rest = rest[:end], rest[end:]
        body, hash_, fragment = rest.partition("#")
        path, question, query = body.partition("?")
        query = _redact_query(query) if question else ""
        return f"{scheme}://{authority.rpartition('@')[2]}{path}{question}{query}{hash_}{fragment}"
    if _scp_like(url):
        # Up to the first slash: `user@host:dir`, or `user:password@host:dir` for whoever wrote one.
        head, slash, tail = url.partition("/")
        host, colon, directory = head.rpartition(":")
        return host.rpartition("@")[2] + colon + directory + slash + tail
    return url


def redact_text(text: str) -> str:
    """`text` with every URL in it redacted (see `redact_url`)."""
    return _URL_IN_TEXT.sub(lambda match: redact_url(match.group(0)), text)


def local_path(url: str) -> Path | None:
    """The path on this machine a remote URL names (a path, or a `file://` URL), else None."""
    if _SCHEME.match(url):
        scheme, rest = url.split("://", 1)
        return Path(unquote(rest[rest.find("/") :])) if scheme.lower() == "file" and "/" in rest else None
    if _scp_like(url):
        return None
    return Path(url)
