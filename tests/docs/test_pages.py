"""What the tool's messages say of the documentation is there: a hint that names a page
(`documentation: reference/configuration`) names a page of docs/."""

from __future__ import annotations

import re

from tests.docs.conftest import DOCS
from tests.helpers import REPO_ROOT

NAMED = re.compile(r"documentation: ([a-z-]+(?:/[a-z-]+)*)")


def test_every_page_a_message_names_exists() -> None:
    named = {
        page
        for path in (REPO_ROOT / "catalogctl").rglob("*.py")
        for page in NAMED.findall(path.read_text(encoding="utf-8"))
    }
    assert {"reference/configuration", "reference/diagnostics"} <= named
    assert [page for page in sorted(named) if not (DOCS / f"{page}.md").is_file()] == []
