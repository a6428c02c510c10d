"""The manifest of a built site (`catalogctl/site-manifest/v1`): written by `site` into its output
folder as `.catalogctl-site.json`, read back by the next build. It is what marks a folder as a
build of the site, and the only list of files a rebuild may remove.

Every name is checked as it is read: a relative path below the folder, `/`-separated, without an
empty, `.`, `..` or `.git` component, and never the manifest itself; a manifest with one bad name
is not a manifest at all.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

SITE_MANIFEST_SCHEMA: Literal["catalogctl/site-manifest/v1"] = "catalogctl/site-manifest/v1"
MANIFEST_NAME = ".catalogctl-site.json"


def site_path(value: str) -> str:
    """`value` if it names a file below the site's folder (see the module's docstring)."""
    parts = value.split("/")
    if value.startswith("/") or "\\" in value or "\0" in value:
        raise ValueError(f"{value!r} is not a relative path with / separators")
    if any(part in ("", ".", "..", ".git") for part in parts):
        raise ValueError(f"{value!r} has an empty, '.', '..' or '.git' component")
    if value == MANIFEST_NAME:
        raise ValueError(f"{value!r} is the manifest itself")
    return value


SitePath = Annotated[str, Field(min_length=1, max_length=4096), AfterValidator(site_path)]
FileDigest = Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")]


class SiteManifest(BaseModel):
    """The files one build of the site wrote, each with the digest of what it wrote."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True, strict=True)

    schema_: Literal["catalogctl/site-manifest/v1"] = Field(alias="schema", description="required: it marks the file")
    tool_version: str = Field(description="the catalogctl that built the site")
    source: str = Field(description="the catalog the site was built from: the working tree, or a ref")
    files: dict[SitePath, FileDigest] = Field(
        description="every file the build wrote, by its path below the output folder ('/'-separated; no empty, "
        "'.', '..' or '.git' component), with the sha256 of its bytes: a rebuild removes a file the new build "
        "no longer writes only while it still has these bytes"
    )
