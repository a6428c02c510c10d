"""Where `site` may write: folders it refuses (with or without --force), the manifest of a
build, a rebuild that removes only its own stale pages, and manifests planted to do harm."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import catalogctl.render.site as site_render
from catalogctl.authoring.site import gather_site
from catalogctl.errors import UsageError
from catalogctl.model.reports.site import SiteData
from tests.helpers import CliResult, commit_all, git, init_repo, run_cli, write
from tests.release_repo import bare_origin

MANIFEST = ".catalogctl-site.json"  # documented: the name is part of the interface

FORCE_HINT = (
    "hint: name a new or empty folder (e.g. _site), or pass --force to write into it: "
    "it overwrites the files at the site's paths and deletes nothing\n"
)


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder`, without following symbolic links: files by content, links by
    target, folders as "/"."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = f"-> {os.readlink(path)}"
        elif path.is_dir():
            found[rel] = "/"
        else:
            found[rel] = path.read_bytes()
    return found


def notes(folder: Path) -> Path:
    """A folder of someone's notes."""
    write(folder, "todo.md", "- call Ann\n")
    write(folder, "2026/march.md", "# March\n")
    return folder


def unpushed(repo: Path, tmp_path: Path) -> str:
    """`repo` pushed to a bare origin, then one more commit that only exists here: its id."""
    git(repo, "remote", "add", "origin", str(bare_origin(tmp_path)))
    git(repo, "push", "-q", "origin", "main")
    write(repo, "NOTES.md", "work in progress\n")
    return commit_all(repo, "Not pushed yet")


def assert_repository_intact(repo: Path, head: str) -> None:
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "log", "--format=%s", "origin/main..main") == "Not pushed yet"
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "fsck", "--no-progress") == ""


def test_a_folder_of_notes_is_refused_and_left_untouched(catalog_repo: Path, tmp_path: Path) -> None:
    folder = notes(tmp_path / "notes")
    before = tree(folder)
    result = catalogctl_site(folder, catalog_repo, code=2)
    assert result.stderr == (
        f"error: refusing to write the site into {folder}: it is not empty and no site was built there"
        f" (no {MANIFEST})\n" + FORCE_HINT
    )
    assert tree(folder) == before


def catalogctl_site(out: Path | str, repo: Path, *extra: str, code: int = 0) -> CliResult:
    return run_cli("site", "-o", out, "-C", repo, *extra, code=code)


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_the_repository_root_is_refused_even_with_force(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force: list[str]
) -> None:
    head = unpushed(catalog_repo, tmp_path)
    before = tree(catalog_repo)
    monkeypatch.chdir(catalog_repo)
    result = run_cli("site", "-o", ".", *force, code=2)
    assert result.stderr == (
        f"error: refusing to write the site into . ({catalog_repo}): it is the current folder\n"
        "hint: --force does not override this: name a new folder for the site, e.g. _site\n"
    )
    assert tree(catalog_repo) == before
    assert_repository_intact(catalog_repo, head)


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_the_parent_of_the_current_folder_is_refused_even_with_force(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force: list[str]
) -> None:
    head = unpushed(catalog_repo, tmp_path)
    notes(tmp_path / "sibling")
    before = tree(tmp_path)
    monkeypatch.chdir(catalog_repo)
    result = run_cli("site", "-o", "..", *force, code=2)
    parent = f"it is a parent of the current folder ({catalog_repo})"
    assert result.stderr.startswith(f"error: refusing to write the site into .. ({tmp_path}): {parent}\n")
    assert tree(tmp_path) == before
    assert_repository_intact(catalog_repo, head)


def test_the_home_folder_is_refused_even_with_force(catalog_repo: Path) -> None:
    home = Path(os.environ["HOME"])  # the sealed environment's home, holding notes
    notes(home / "notes")
    before = tree(home)
    result = catalogctl_site(home, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(f"error: refusing to write the site into {home}: it is the home folder\n")
    assert tree(home) == before


def _can_bind_mount() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "--mount", "--propagation", "private", "mount", "--bind", "/", "/"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _can_bind_mount(), reason="needs a mount namespace of its own (unshare, as root)")
def test_a_second_path_to_the_home_folder_is_refused_even_with_force(catalog_repo: Path, tmp_path: Path) -> None:
    # A bind mount (a container's volume, a second mount of /home) names the same folder by
    # another path; the mount lives in a namespace of the build's own and goes with it.
    home = Path(os.environ["HOME"])
    notes(home / "notes")
    alias = tmp_path / "alias"
    alias.mkdir()
    before = tree(home)
    build = 'mount --bind "$1" "$2" && exec "$3" -m catalogctl site -o "$2" --force -C "$4"'
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", build, "sh"]
    done = subprocess.run(
        [*command, home, alias, sys.executable, catalog_repo], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: refusing to write the site into {alias}: it is the home folder\n")
    assert tree(home) == before


def test_the_filesystem_root_is_refused() -> None:
    from catalogctl.catalog.layout import DEFAULT
    from catalogctl.render.site.output import refuse_protected

    # Never run a build against "/": the guard alone is asked.
    with pytest.raises(UsageError, match=r"^refusing to write the site into /: it is the root of the filesystem$"):
        refuse_protected(Path("/"), Path("/"), catalog=[], layout=DEFAULT)


def test_the_catalog_and_its_parents_are_refused_even_with_force(catalog_repo: Path, tmp_path: Path) -> None:
    head = unpushed(catalog_repo, tmp_path)
    before = tree(tmp_path)
    result = catalogctl_site(catalog_repo, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: refusing to write the site into {catalog_repo}: it is the catalog's folder\n"
    )
    result = catalogctl_site(tmp_path, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: refusing to write the site into {tmp_path}: it is a parent of the catalog's folder ({catalog_repo})\n"
    )
    assert tree(tmp_path) == before
    assert_repository_intact(catalog_repo, head)


def test_the_catalogs_own_folders_are_refused(
    catalog_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for inside, data in (("benchmark_suite", "benchmark_suite"), ("rulesets/site", "rulesets")):
        result = catalogctl_site(catalog_repo / inside, catalog_repo, "--force", code=2)
        assert result.stderr.startswith(
            f"error: refusing to write the site into {catalog_repo / inside}: it is in the catalog's {data}/ folder\n"
        )
    assert not (catalog_repo / "rulesets").exists()
    catalogctl_site(catalog_repo / "_site", catalog_repo)  # inside the repository: the usual place
    assert (catalog_repo / "_site/index.html").is_file()


def test_a_folder_holding_a_git_repository_is_refused_even_with_force(catalog_repo: Path, tmp_path: Path) -> None:
    folder = tmp_path / "work"
    project = init_repo(folder / "projects" / "thesis")
    write(project, "chapter1.md", "# One\n")
    commit_all(project, "Draft")
    before = tree(folder)
    result = catalogctl_site(folder, catalog_repo, "--force", code=2)
    assert result.stderr == (
        f"error: refusing to write the site into {folder}: it holds a git repository (projects/thesis/.git)\n"
        "hint: --force does not override this: name a new folder for the site, e.g. _site\n"
    )
    assert tree(folder) == before
    git(tmp_path, "init", "-q", "--bare", str(folder / "backup.git"))
    before = tree(folder)
    result = catalogctl_site(folder, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: refusing to write the site into {folder}: it holds a git repository (backup.git)\n"
    )
    bare = folder / "backup.git"
    result = catalogctl_site(bare, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(f"error: refusing to write the site into {bare}: it is a git repository\n")
    result = catalogctl_site(project / ".git" / "site", catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: refusing to write the site into {project / '.git' / 'site'}: it is in a git"
    )
    assert tree(folder) == before


@pytest.mark.parametrize("inside", ["refs/tags", "refs/tags/site", "objects/info"])
def test_a_folder_inside_a_bare_repository_is_refused_even_with_force(
    catalog_repo: Path, tmp_path: Path, inside: str
) -> None:
    # A bare repository (or a --separate-git-dir) is a .git folder by another name: its empty
    # refs/tags would otherwise take the site, and git then reads every page as a broken ref.
    bare = tmp_path / "backup.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(catalog_repo, "push", "-q", str(bare), "main")
    before = tree(bare)
    result = catalogctl_site(bare / inside, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: refusing to write the site into {bare / inside}: it is in a git repository ({bare})\n"
    )
    assert tree(bare) == before
    assert git(bare, "fsck", "--no-progress") == ""


def test_a_new_folder_is_created_and_an_empty_one_used(catalog_repo: Path, tmp_path: Path) -> None:
    catalogctl_site(tmp_path / "new" / "site", catalog_repo)
    assert (tmp_path / "new/site/index.html").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    catalogctl_site(empty, catalog_repo)
    assert (empty / "index.html").is_file()
    manifest = json.loads((empty / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["schema"] == "catalogctl/site-manifest/v1"
    written = {p for p, kind in tree(empty).items() if kind != "/" and p != MANIFEST}
    assert set(manifest["files"]) == written


def rebuilt_without_gsm8k(data: SiteData) -> SiteData:
    return data.model_copy(update={"benchmarks": [b for b in data.benchmarks if b.id != "gsm8k"]})


def test_a_rebuild_removes_its_stale_pages_and_keeps_the_users_files(catalog_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    data = gather_site(catalog_repo)
    site_render.write_site(data, out, catalog=catalog_repo)
    write(out, "CNAME", "catalog.example.org\n")
    write(out, ".nojekyll", "")
    write(out, "benchmarks/gsm8k/notes.md", "mine\n")  # beside a page that goes away
    write(out, "benchmarks/deepseek-r1/index.html", "edited by hand\n")  # a page the site writes again
    written = site_render.write_site(rebuilt_without_gsm8k(data), out, catalog=catalog_repo)
    assert (written.removed, written.kept) == (["benchmarks/gsm8k/index.html"], [])
    assert not (out / "benchmarks/gsm8k/index.html").exists()
    assert tree(out)["benchmarks/gsm8k/notes.md"] == b"mine\n"
    assert (out / "CNAME").read_text() == "catalog.example.org\n"
    assert (out / ".nojekyll").exists()
    assert "edited by hand" not in (out / "benchmarks/deepseek-r1/index.html").read_text()
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert "benchmarks/gsm8k/index.html" not in manifest["files"]
    assert "CNAME" not in manifest["files"]
    # A stale page the user changed since is theirs now: kept.
    site_render.write_site(data, out, catalog=catalog_repo)
    write(out, "benchmarks/gsm8k/index.html", "my own page now\n")
    written = site_render.write_site(rebuilt_without_gsm8k(data), out, catalog=catalog_repo)
    assert (written.removed, written.kept) == ([], ["benchmarks/gsm8k/index.html"])
    assert (out / "benchmarks/gsm8k/index.html").read_text() == "my own page now\n"
    assert "benchmarks/gsm8k/index.html" not in json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []


def test_the_cli_says_what_a_rebuild_removed(catalog_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    catalogctl_site(out, catalog_repo)
    write(out, "CNAME", "catalog.example.org\n")
    (catalog_repo / "benchmark_suite/benchmarks/gsm8k.yaml").unlink()  # the catalog drops a benchmark
    result = catalogctl_site(out, catalog_repo)
    assert result.stdout == f"wrote 10 pages (0 cohorts, 5 benchmarks) to {out}; removed 1 stale file\n"
    assert result.stderr == ""
    assert not (out / "benchmarks/gsm8k").exists()  # its folder, emptied, goes too
    assert (out / "CNAME").read_text() == "catalog.example.org\n"
    git(catalog_repo, "checkout", "--", "benchmark_suite/benchmarks/gsm8k.yaml")
    result = catalogctl_site(out, catalog_repo)
    assert result.stdout == f"wrote 11 pages (0 cohorts, 6 benchmarks) to {out}\n"
    assert (out / "benchmarks/gsm8k/index.html").is_file()


def test_force_writes_into_a_folder_and_deletes_nothing(catalog_repo: Path, tmp_path: Path) -> None:
    folder = notes(tmp_path / "www")
    write(folder, "index.html", "my home page\n")
    result = catalogctl_site(folder, catalog_repo, "--force")
    assert result.stdout == f"wrote 11 pages (0 cohorts, 6 benchmarks) to {folder}\n"
    assert tree(folder)["todo.md"] == b"- call Ann\n"
    assert tree(folder)["2026/march.md"] == b"# March\n"
    assert "my home page" not in (folder / "index.html").read_text()  # --force: a path the site writes is overwritten
    # Now a build of the site: a rebuild needs no --force.
    catalogctl_site(folder, catalog_repo)


def test_a_file_the_last_build_did_not_write_is_not_overwritten_without_force(
    catalog_repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    data = gather_site(catalog_repo)
    site_render.write_site(rebuilt_without_gsm8k(data), out, catalog=catalog_repo)
    write(out, "benchmarks/gsm8k/index.html", "mine\n")
    before = tree(out)
    with pytest.raises(UsageError) as raised:
        site_render.write_site(data, out, catalog=catalog_repo)
    assert str(raised.value) == (
        f"refusing to write the site into {out}: 1 file it writes was not written by its last build:"
        " benchmarks/gsm8k/index.html"
    )
    assert raised.value.hint == "move it away, or pass --force to overwrite it"
    assert tree(out) == before
    site_render.write_site(data, out, catalog=catalog_repo, force=True)
    assert "mine" not in (out / "benchmarks/gsm8k/index.html").read_text()


def plant(out: Path, files: dict[str, str]) -> None:
    manifest = {"schema": "catalogctl/site-manifest/v1", "tool_version": "0", "source": "working tree", "files": files}
    text = json.dumps(manifest)
    (out / MANIFEST).write_text(text, encoding="utf-8")


def test_a_hostile_manifest_never_deletes_outside_the_folder(catalog_repo: Path, tmp_path: Path) -> None:
    import hashlib

    precious = write(tmp_path, "precious/thesis.md", "years of work\n")
    digest = "sha256:" + hashlib.sha256(precious.read_bytes()).hexdigest()
    out = tmp_path / "site"
    out.mkdir()
    plant(out, {"../precious/thesis.md": digest, str(precious): digest})
    before = tree(tmp_path)
    result = catalogctl_site(out, catalog_repo, code=2)
    assert result.stderr.startswith(f"error: refusing to write the site into {out}: its {MANIFEST} is not valid")
    assert tree(tmp_path) == before
    catalogctl_site(out, catalog_repo, "--force")  # an invalid manifest is no build: nothing is removed
    assert precious.read_text() == "years of work\n"
    # Valid names that reach outside through symbolic links: never followed.
    (out / "link.md").symlink_to(precious)
    (out / "dir").symlink_to(precious.parent)
    write(out, "todo.md", "mine\n")  # a file of the folder's owner, listed with other bytes
    ours = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    plant(out, {**ours, "link.md": digest, "dir/thesis.md": digest, "todo.md": "sha256:" + "0" * 64})
    result = catalogctl_site(out, catalog_repo)
    assert precious.read_text() == "years of work\n"
    assert (out / "link.md").is_symlink()
    assert (out / "dir").is_symlink()
    assert (out / "todo.md").read_text() == "mine\n"
    assert result.stderr == (
        "note: kept link.md: the last build wrote it, and it has changed since\n"
        "note: kept todo.md: the last build wrote it, and it has changed since\n"
    )
    # A manifest that is a link to a manifest elsewhere is no manifest.
    (out / MANIFEST).rename(tmp_path / "elsewhere.json")
    (out / MANIFEST).symlink_to(tmp_path / "elsewhere.json")
    result = catalogctl_site(out, catalog_repo, code=2)
    assert f"its {MANIFEST} is not valid (not a regular file" in result.stderr


def test_the_site_is_never_written_through_a_symbolic_link(catalog_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    catalogctl_site(out, catalog_repo)
    elsewhere = write(tmp_path, "elsewhere/index.html", "not the site's\n").parent
    for page in (out / "benchmarks").iterdir():
        if page.is_dir():
            for file in page.iterdir():
                file.unlink()
            page.rmdir()
    (out / "benchmarks/gsm8k").symlink_to(elsewhere)
    before = tree(tmp_path)
    result = catalogctl_site(out, catalog_repo, "--force", code=2)
    assert result.stderr.startswith(
        f"error: cannot write the site into {out}: benchmarks/gsm8k is a symbolic link, not a folder\n"
    )
    assert tree(tmp_path) == before


def test_the_help_says_what_is_refused_and_what_force_does() -> None:
    text = " ".join(run_cli("site", "--help").stdout.split())
    assert "No build deletes a file it did not write" in text
    assert "Refused even with --force: the root, home, current or catalog folder or a parent of one" in text
    assert "--force Also write into a folder that is not empty and holds no build of the site" in text
