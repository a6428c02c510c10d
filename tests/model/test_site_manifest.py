"""The site's manifest: every path it lists stays below the output folder."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from catalogctl.model.documents.site_manifest import SiteManifest

DIGEST = "sha256:" + "a" * 64


def manifest(files: dict[str, str], **extra: object) -> str:
    head = {"schema": "catalogctl/site-manifest/v1", "tool_version": "1", "source": "x"}
    return json.dumps({**head, "files": files, **extra})


def test_a_manifest_lists_paths_below_the_folder() -> None:
    read = SiteManifest.model_validate_json(manifest({"index.html": DIGEST, "benchmarks/a/index.html": DIGEST}))
    assert sorted(read.files) == ["benchmarks/a/index.html", "index.html"]


LEAVING = ["../x", "/etc/passwd", "a/../../x", "a//b", "./a", "a/.", "", ".git/config", "a/.git", "a\\..\\b"]


@pytest.mark.parametrize("path", [*LEAVING, "a\0b", ".catalogctl-site.json"])
def test_a_path_that_could_leave_the_folder_makes_the_manifest_invalid(path: str) -> None:
    with pytest.raises(ValidationError):
        SiteManifest.model_validate_json(manifest({"index.html": DIGEST, path: DIGEST}))


def test_the_schema_field_is_required_and_digests_are_sha256() -> None:
    with pytest.raises(ValidationError):
        SiteManifest.model_validate_json(json.dumps({"tool_version": "1", "source": "x", "files": {}}))
    with pytest.raises(ValidationError):
        SiteManifest.model_validate_json(manifest({"index.html": "md5:abc"}))
    with pytest.raises(ValidationError):
        SiteManifest.model_validate_json(manifest({}, extra="field"))


def test_inputs_are_kept_for_files_of_the_build_only() -> None:
    assert SiteManifest.model_validate_json(manifest({"index.html": DIGEST})).inputs == {}  # an earlier build's
    read = SiteManifest.model_validate_json(manifest({"index.html": DIGEST}, inputs={"index.html": DIGEST}))
    assert read.inputs == {"index.html": DIGEST}
    with pytest.raises(ValidationError, match=r"inputs of files the build did not write: a\.html"):
        SiteManifest.model_validate_json(manifest({"index.html": DIGEST}, inputs={"a.html": DIGEST}))
