"""The docs' console examples run, so the docs never drift from what catalogctl prints.

Sybil finds the fenced ```console blocks of every page (its MyST parser: the docs are MyST
Markdown, the README CommonMark, which it reads alike); `tests.docs.console` runs them. Each page
runs in one scratch clone of this checkout's HEAD, its blocks in order, with the test venv's
`catalogctl` on PATH and a scratch home, git identity and GnuPG home. ```text, ```yaml and ```sh
blocks are shown, not run, so none of them may hold a `$ ` command line: a transcript is a
```console block.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest
from sybil import Example, Sybil
from sybil.parsers.myst import CodeBlockParser

from tests.docs.console import Session, commands, matches
from tests.helpers import REPO_ROOT


def evaluate(example: Example) -> str | None:
    session: Session = example.namespace["session"]
    return session.evaluate(example)


SYBIL = Sybil(parsers=[CodeBlockParser(language="console", evaluator=evaluate)], path=str(REPO_ROOT))
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]


def console_commands(page: Path) -> list[str]:
    return [c.text for example in SYBIL.parse(page).examples() for c in commands(example.parsed, example.line + 1)]


def builds_releases(page: Path) -> bool:
    """A page that freezes cohorts runs tens of commands (the tutorials, the release how-tos): the slow lane."""
    return any(command.startswith("catalogctl freeze") for command in console_commands(page))


def runs_loadgen(page: Path) -> bool:
    """A page that runs the real LoadGen (tests/loadgen_run.py): its wheel exists for Linux x86_64 only."""
    return any("loadgen_run.py" in command for command in console_commands(page))


def page_param(page: Path) -> object:
    marks: list[pytest.MarkDecorator] = [pytest.mark.slow] if builds_releases(page) else []
    if runs_loadgen(page) and importlib.util.find_spec("mlperf_loadgen") is None:
        marks.append(pytest.mark.skip(reason="the mlcommons-loadgen wheel exists for Linux x86_64 only"))
    return pytest.param(page, id=page.relative_to(REPO_ROOT).as_posix(), marks=marks)


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's HEAD as `main` of a bare repository: cloning it is a reader's fresh clone."""
    bare = tmp_path_factory.mktemp("upstream") / "catalogctl.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "push", "-q", str(bare), "HEAD:refs/heads/main"], cwd=REPO_ROOT, check=True)
    return bare


@pytest.mark.parametrize("page", [page_param(page) for page in PAGES if console_commands(page)])
def test_every_console_example_of_the_page_prints_what_it_shows(page: Path, upstream: Path, tmp_path: Path) -> None:
    document = SYBIL.parse(page)
    document.namespace["session"] = Session(tmp_path, upstream)
    for example in document.examples():
        example.evaluate()


def test_the_pages_have_console_examples_to_run() -> None:
    # A parser that found nothing would pass every page: the tutorials alone hold dozens.
    ran = [page for page in PAGES if console_commands(page)]
    assert REPO_ROOT / "README.md" in ran
    tutorials = [page for page in ran if "tutorials" in page.parts]
    assert len(tutorials) == 4
    slow = {page.name for page in tutorials if builds_releases(page)}
    assert slow == {"first-cohort.md", "what-is-valid.md", "runner.md"}
    assert not builds_releases(REPO_ROOT / "docs" / "how-to" / "check-the-catalog.md")


FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^\s`]*)")


def unrun_transcripts(name: str, text: str) -> list[str]:
    """The `$ ` command lines of a page's fenced blocks other than ```console, with where they are."""
    found: list[str] = []
    fence = ""
    language = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if not fence:
            opening = FENCE.match(line)
            if opening:
                fence, language = opening.group(1), opening.group(2)
        elif line.startswith(fence) and not line.strip(fence[0]).strip():
            fence = ""
        elif line.startswith("$ ") and language != "console":
            found.append(f"{name}:{number}: ```{language} {line}")
    return found


def test_every_command_transcript_is_a_console_block_that_runs() -> None:
    # A transcript in ```text is shown but never run: it drifts from what catalogctl prints.
    unrun = [
        found
        for page in PAGES
        for found in unrun_transcripts(page.relative_to(REPO_ROOT).as_posix(), page.read_text(encoding="utf-8"))
    ]
    assert unrun == []


def test_a_transcript_outside_a_console_block_is_found() -> None:
    text = (
        "```console\n$ true\n```\n\n"
        "````text\n```\n$ shown\n````\n\n"  # a longer fence: the inner ``` does not close it
        "~~~sh\n$ shown too\n~~~\n\n"
        "```yaml\nkey: $ value\n```\n"
    )
    assert unrun_transcripts("page.md", text) == ["page.md:7: ```text $ shown", "page.md:11: ```sh $ shown too"]


def test_a_command_and_what_it_prints() -> None:
    block = "$ catalogctl ls\nID  KIND\ngsm8k  inference\n$ git status --short\n"
    [ls, status] = commands(block, 10)
    assert (ls.line, ls.text, ls.expected) == (10, "catalogctl ls", ["ID  KIND", "gsm8k  inference"])
    assert (status.line, status.text, status.expected) == (13, "git status --short", [])
    with pytest.raises(ValueError, match="output before any"):
        commands("orphan output\n$ true\n", 1)


def test_ellipses_match_any_lines_and_any_text_within_a_line() -> None:
    assert matches(["a", "...", "d"], "a\nb\nc\nd\n")
    assert matches(["a", "...", "d"], "a\nd\n")
    assert matches(["froze ...: committed ... in ...; tagged"], "froze 2026-10-C1: committed x in 1a2b; tagged\n")
    assert matches([], "")
    assert matches(["a"], "a   \n\n")
    assert not matches(["a"], "a\nb\n")
    assert not matches([], "something\n")
    assert not matches(["a...c"], "a\nc\n")
    assert not matches(["(a)"], "a\n")  # the page's text is literal, never a pattern


def test_a_page_that_drifted_fails_naming_the_command_and_both_outputs(upstream: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n```console\n$ echo one\none\n$ echo two\nthree\n```\n", encoding="utf-8")
    document = SYBIL.parse(page)
    document.namespace["session"] = Session(tmp_path / "scratch", upstream)
    [example] = document.examples()
    with pytest.raises(AssertionError) as failure:
        example.evaluate()
    assert "line 6: $ echo two\n--- the page shows:\nthree\n--- it printed:\ntwo" in str(failure.value)


def test_state_carries_from_command_to_command(upstream: Path, tmp_path: Path) -> None:
    (tmp_path / "scratch").mkdir()
    session = Session(tmp_path / "scratch", upstream)
    assert session.run("git branch --show-current") == "main\n"
    assert session.run("ls benchmark_suite/suite.yaml") == "benchmark_suite/suite.yaml\n"
    session.run("export GREETING=hello; mkdir -p ../elsewhere && cd ../elsewhere")
    assert session.run('echo "$GREETING from $(basename "$PWD")"') == "hello from elsewhere\n"
    assert session.run("git config user.email") == "reader@example.org\n"
