"""The diagnostic codes: every code of the registry (`catalog.diagnostics.CODES`) with its meaning,
and what catalogctl really says for it, found by running one edit of the shipped catalog per code
(`code_examples`) through the loader `validate` uses."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from catalogctl_docs import markdown as md
from catalogctl_docs.code_examples import EXAMPLES, NO_EXAMPLE, Step

FRAGMENT = "fragments/diagnostics.md"


def _apply(root: Path, step: Step) -> None:
    action, relative = step[0], str(step[1])
    path = Path(os.fsencode(root / relative).decode("utf-8", "surrogateescape"))
    target = os.fsencode(root / relative)
    if action == "replace":
        text = path.read_text(encoding="utf-8")
        old, new = str(step[2]), str(step[3])
        if old not in text:
            raise ValueError(f"{relative} does not contain {old!r}")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif action in {"write", "bytes"}:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        data = step[2] if isinstance(step[2], bytes) else str(step[2]).encode("utf-8")
        with open(target, "wb") as file:
            file.write(data)
    elif action == "symlink":
        os.symlink(str(step[2]), target)
    elif action == "remove":
        os.unlink(target)
    else:
        raise ValueError(f"unknown step {action!r}")


def _diagnostics(root: Path) -> list[Any]:
    """What `validate` reports on the catalog at `root` (an invalid configuration included)."""
    from catalogctl.catalog.loader import load_tree
    from catalogctl.errors import ConfigInvalid
    from catalogctl.io.tree import WorkingTree

    try:
        return list(load_tree(WorkingTree(root), use_cache=False).diagnostics)
    except ConfigInvalid as invalid:
        return invalid.diagnostics


def examples(repository: Path) -> dict[str, Any]:
    """Code -> the first diagnostic of that code that its edit of the shipped catalog gives. An
    edit that does not give its code stops the build: the example would be wrong."""
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="catalogctl-docs-") as scratch:
        for code, steps in EXAMPLES.items():
            root = Path(scratch) / code
            shutil.copytree(repository / "benchmark_suite", root / "benchmark_suite", symlinks=True)
            for step in steps:
                _apply(root, step)
            hits = [d for d in _diagnostics(root) if d.code == code]
            if not hits:
                raise ValueError(f"the example of `{code}` does not give it: {_diagnostics(root)}")
            found[code] = hits[0]
    return found


def fragment(repository: Path) -> str:
    """The table of every code, in the registry's order."""
    from catalogctl.catalog.diagnostics import CODES
    from catalogctl.render.common import diagnostic_line

    missing = set(CODES) - set(EXAMPLES) - set(NO_EXAMPLE)
    if missing:
        raise ValueError(f"codes with no example and no reason for none: {sorted(missing)}")
    shown = examples(repository)
    out: list[str] = []
    for code, meaning in CODES.items():
        out += [f"({code})=", f"## `{code}`", "", md.text(meaning[0].upper() + meaning[1:]) + ".", ""]
        d = shown.get(code)
        if d is None:
            out += [f"No example: {md.text(NO_EXAMPLE[code])}.", ""]
            continue
        out += [
            f"- severity: **{d.severity.value}**",
            f"- message, for example: {md.text(d.message)}",
            f"- hint, for example: {md.text(d.hint) if d.hint else '(none)'}",
            f"- as `validate` prints it: {md.code(diagnostic_line(d))}",
            "",
        ]
    return "\n".join(out)


def pages(repository: Path) -> dict[str, str]:
    return {FRAGMENT: fragment(repository)}
