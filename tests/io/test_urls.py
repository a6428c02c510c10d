"""`redact_url` and `redact_text`: no credential of a URL survives into what the tool records or prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogctl.io.urls import credentials_in, local_path, redact_text, redact_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "http://gitlab-ci-token:glcbt-SECRET@gitlab.example.org/g/catalog.git",
            "http://gitlab.example.org/g/catalog.git",
        ),
        ("https://ghp_SECRET@github.com/mlcommons/catalog.git", "https://github.com/mlcommons/catalog.git"),
        ("https://user:pa%40ss@[::1]:8443/catalog.git", "https://[::1]:8443/catalog.git"),
        ("https://a@b:SECRET@host/x.git", "https://host/x.git"),  # the last `@` ends the user info
        ("ssh://git@github.com/mlcommons/catalog.git", "ssh://github.com/mlcommons/catalog.git"),
        ("git://u:SECRET@127.0.0.1:9418/catalog.git", "git://127.0.0.1:9418/catalog.git"),
        ("git@github.com:mlcommons/catalog.git", "github.com:mlcommons/catalog.git"),
        ("deploy:SECRET@git.example.org:catalog.git", "git.example.org:catalog.git"),
        (
            "https://gitlab.example.org/g/c.git?private_token=SECRET&ref=main",
            "https://gitlab.example.org/g/c.git?private_token=REDACTED&ref=REDACTED",
        ),
        ("https://host/c.git?SECRET#frag", "https://host/c.git?REDACTED#frag"),
        ("https://host/c.git", "https://host/c.git"),
        ("file:///srv/git/catalog.git", "file:///srv/git/catalog.git"),
        ("/srv/git/user@host:catalog.git", "/srv/git/user@host:catalog.git"),  # a path, not scp-like
        ("host:dir@v1/x.git", "host:dir@v1/x.git"),  # an `@` after the host's colon is the path's
        ("origin", "origin"),
        ("https://u:SECRET@[::1/x", "https://[::1/x"),  # unparsable: the user info still goes
        # A password with an unencoded `/`: the user info runs to the last `@` (it showed `/RET@…`).
        ("https://user:SEC/RET@127.0.0.1:1/x.git", "https://127.0.0.1:1/x.git"),
        ("https://u:S/E/C@host/x.git?a=b", "https://host/x.git?a=REDACTED"),
        ("https://host/pkg@v1/x.git", "https://host/pkg@v1/x.git"),  # no `user:`: a path's `@`
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


@pytest.mark.parametrize(
    ("url", "found"),
    [
        ("https://host/data.jsonl", []),
        ("https://host/data.jsonl?v=2&split=test", []),
        ("https://u@host/data.jsonl", ["user info"]),
        (
            "https://host/d?access_token=1&Signature=2&sig=3&X-Amz-Date=4&apikey=5&auth=6",
            ["access_token", "Signature", "sig", "X-Amz-Date", "apikey", "auth"],
        ),
        ("https://host/d?monkey=1&keyboard=2&tokens_per_s=3", []),
        ("https://host/d?password&private-key=1&X-Goog-Credential=2", ["password", "private-key", "X-Goog-Credential"]),
    ],
)
def test_credentials_in(url: str, found: list[str]) -> None:
    assert credentials_in(url) == found


def test_redact_text_redacts_every_url_in_a_message() -> None:
    text = "cannot list `https://u:SECRET@host/a.git`: redirect to http://t:SECRET@other/b?token=SECRET failed"
    assert redact_text(text) == ("cannot list `https://host/a.git`: redirect to http://other/b?token=REDACTED failed")


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("/srv/git/catalog.git", Path("/srv/git/catalog.git")),
        ("../catalog.git", Path("../catalog.git")),
        ("file:///srv/git/my%20catalog.git", Path("/srv/git/my catalog.git")),
        ("file://localhost/srv/git/catalog.git", Path("/srv/git/catalog.git")),
        ("git@github.com:mlcommons/catalog.git", None),
        ("https://github.com/mlcommons/catalog.git", None),
    ],
)
def test_local_path(url: str, path: Path | None) -> None:
    assert local_path(url) == path
