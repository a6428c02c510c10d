"""Version specifiers (PEP 440), read by PyPA's `packaging`, the reference implementation pip
itself uses: a runner's `version` (`>=0.4,<0.5`) means what pip would install for it."""

from __future__ import annotations

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from catalogctl.errors import InputsUnusable


def specifier_problem(text: str) -> str | None:
    """Why `text` is not a PEP 440 version specifier, or None when it is one. An empty one is
    refused: it allows every version, which is not a pin."""
    if not text.strip():
        return "an empty specifier allows every version"
    try:
        SpecifierSet(text)
    except InvalidSpecifier:
        return f"`{text}` is not a PEP 440 version specifier"
    return None


def allows(specifier: str, version: str) -> bool | None:
    """Whether `version` is one `specifier` allows (pre-releases too: a harness records what ran);
    None when `version` is not a PEP 440 version."""
    try:
        parsed = Version(version)
    except InvalidVersion:
        return None
    return SpecifierSet(specifier).contains(parsed, prereleases=True)


def version_pin(text: str) -> str:
    """A resolved contract's `runner.version`, refused unless it is a specifier: a contract edited
    and resealed may hold any text, which `packaging` would raise on."""
    problem = specifier_problem(text)
    if problem is not None:
        raise InputsUnusable(
            f"the resolved config cannot be checked: contract.runner.version: {problem}",
            "write resolved configs with `catalogctl resolve` or `preflight`",
        )
    return text
