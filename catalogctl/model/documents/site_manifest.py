"""The manifest of a built site (`catalogctl/site-manifest/v1`): written by `site` into its output
folder as `.catalogctl-site.json`, read back by the next build. It is what marks a folder as a
build of the site, and the only list of files a rebuild may remove. Beside each file it keeps the
digest of what the file was made from: a rebuild leaves a file whose inputs did not change as it is.

Every name is checked as it is read: a relative path below the folder, `/`-separated, without an
empty, `.`, `..` or `.git` component, and never the manifest itself; a manifest with one bad name
is not a manifest at all.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

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
    inputs: dict[SitePath, FileDigest] = Field(
        default_factory=dict,
        description="for files of `files`, the sha256 of everything the file was made from: the data it shows "
        "(shared parts such as the site's title and languages included) and the code and templates of the "
        "catalogctl that laid it out. A rebuild neither renders nor rewrites a file whose inputs are the same "
        "while it still has the bytes of `files`",
    )

    @model_validator(mode="after")
    def _inputs_of_files(self) -> SiteManifest:
        strays = sorted(set(self.inputs) - set(self.files))
        if strays:
            raise ValueError(f"inputs of files the build did not write: {', '.join(strays[:5])}")
        return self
