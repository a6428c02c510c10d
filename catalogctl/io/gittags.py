"""Tags: what a tag names and says (its message up to its signature, whether git would make it
as it is), its raw object for a signature check, and new tags, never written over an old one.

Facts only: whether a tag is a release is `release.statement`'s to say."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pygit2

from catalogctl.errors import ConcurrentUpdate, EnvironmentProblem, TagNamesNoCommit
from catalogctl.io.sshsig import split


@dataclass(frozen=True)
class TagState:
    """A tag and what it points at."""

    name: str
    commit: str
    annotated: bool
    message: str  # the signed part's (the whole message when unsigned): never bytes after a signature
    malformed: str | None = None  # why the tag object is not one git makes (no readable tagger date, another name)


def _tagged_at(tag: pygit2.Tag) -> dt.datetime | str:
    """The tagger's date of a tag object, or why it has none: anyone who can push a tag can write
    one with no tagger line, or a date no calendar holds (`git hash-object --literally`)."""
    tagger = tag.tagger
    if tagger is None:
        return "it has no tagger line"
    sign = "-" if tagger.offset < 0 else "+"
    hours, minutes = divmod(abs(tagger.offset), 60)
    shown = f"{tagger.time} {sign}{hours:02d}{minutes:02d}"
    if tagger.time <= 0:  # ssh-keygen's -Overify-time refuses it: no signature could be checked at it
        return f"its tagger date {shown} cannot be checked: ssh-keygen takes no time before 1970"
    try:
        return dt.datetime.fromtimestamp(tagger.time, dt.timezone(dt.timedelta(minutes=tagger.offset)))
    except (ValueError, OSError, OverflowError):
        return f"its tagger date {shown} is not a date"


def tag_state(repo: pygit2.Repository, name: str) -> TagState | None:
    """The tag `name`, peeled to its commit; None when absent. A tag that names a tree or a blob
    is `TagNamesNoCommit`: it is never taken for some other ref of the same name."""
    try:
        ref = repo.references[f"refs/tags/{name}"]
    except (KeyError, ValueError, pygit2.InvalidSpecError):
        return None
    try:
        target = repo.get(ref.target)
    except pygit2.GitError as exc:  # libgit2 cannot parse it: a tagger date past its range, say
        return _unparsed_tag(repo, name, ref.target, exc)
    assert target is not None
    named = target
    while isinstance(named, pygit2.Tag):  # an annotated tag may name another tag
        named = named.get_object()
    if not isinstance(named, pygit2.Commit):
        raise TagNamesNoCommit(name, f"names a {named.type_str} ({str(named.id)[:12]}), not a commit")
    if isinstance(target, pygit2.Tag):
        when = _tagged_at(target)
        malformed = when if isinstance(when, str) else None
        if target.name != name:  # git never compares them (only `git describe` warns): a release does
            malformed = f"it is tag `{target.name}` (its tag header) under refs/tags/{name}"
        return TagState(name, str(named.id), True, _signed_message(repo, target.id), malformed)
    return TagState(name, str(named.id), False, "")


def _unparsed_tag(repo: pygit2.Repository, name: str, oid: pygit2.Oid | str, exc: Exception) -> TagState:
    """A tag object libgit2 refuses to parse (git fsck and push accept it), read from its raw
    headers: never a release, but a finding (`malformed`), not a crash."""
    kind, raw = repo.odb.read(oid)
    head = bytes(raw).split(b"\n\n", 1)[0].decode("utf-8", errors="replace")
    headers: dict[str, str] = {}
    for line in head.split("\n"):
        key, _, value = line.partition(" ")
        headers.setdefault(key, value)
    commit = repo.get(headers.get("object", "")) if kind == pygit2.enums.ObjectType.TAG else None
    if not isinstance(commit, pygit2.Commit):
        raise TagNamesNoCommit(name, f"is an object git cannot read ({exc})", unreadable=True)
    tagger = headers.get("tagger")
    why = (
        f"its tagger date {' '.join(tagger.rsplit(' ', 2)[-2:])} is not a date"
        if tagger
        else f"git cannot read it ({exc})"
    )
    return TagState(name, str(commit.id), True, _signed_message(repo, oid), why)


def _signed_message(repo: pygit2.Repository, oid: pygit2.Oid | str) -> str:
    """A tag's message up to its signature (all of it when unsigned): what anything read from a
    tag (the ruleset digest) is read from, since what follows the signature is signed by no one."""
    _, raw = repo.odb.read(oid)
    payload = split(bytes(raw)).payload
    return payload.split(b"\n\n", 1)[1].decode("utf-8", errors="replace") if b"\n\n" in payload else ""


@dataclass(frozen=True)
class TagObject:
    """An annotated tag object as git stores it (signature included), and its tagger's date (None
    when it has none that is a date: see `TagState.malformed`)."""

    id: str
    raw: bytes
    tagged_at: dt.datetime | None


def tag_object(repo: pygit2.Repository, name: str) -> TagObject | None:
    """The annotated tag object `refs/tags/<name>` points at; None for a lightweight or missing tag."""
    try:
        ref = repo.references[f"refs/tags/{name}"]
    except (KeyError, ValueError, pygit2.InvalidSpecError):
        return None
    kind, raw = repo.odb.read(ref.target)
    if kind != pygit2.enums.ObjectType.TAG:
        return None
    try:
        target = repo.get(ref.target)
    except pygit2.GitError:  # unparsable: `tag_state` says why; no date to check a signature at
        return TagObject(str(ref.target), bytes(raw), None)
    assert isinstance(target, pygit2.Tag)
    when = _tagged_at(target)
    return TagObject(str(target.id), bytes(raw), when if isinstance(when, dt.datetime) else None)


def create_tag(
    repo: pygit2.Repository, name: str, commit: pygit2.Commit, message: str, tagger: pygit2.Signature
) -> None:
    """An annotated tag; an existing tag or a leftover lock file is an error, never overwritten."""
    try:
        repo.create_tag(name, commit.id, pygit2.enums.ObjectType.COMMIT, tagger, message)
    except pygit2.AlreadyExistsError:
        raise ConcurrentUpdate(f"tag `{name}` was created meanwhile", "rerun to see where it points") from None
    except OSError as exc:  # libgit2 reports a leftover refs/tags/X.lock as a plain OSError
        raise EnvironmentProblem(
            f"cannot create tag `{name}`: {exc}", f"if no git process is running, remove .git/refs/tags/{name}.lock"
        ) from None


def _signature_line(who: pygit2.Signature) -> str:
    """An identity as git writes it in an object header: name, email, seconds, offset."""
    sign = "-" if who.offset < 0 else "+"
    hours, minutes = divmod(abs(who.offset), 60)
    return f"{who.name} <{who.email}> {who.time} {sign}{hours:02d}{minutes:02d}"


def tag_payload(name: str, commit: str, message: str, tagger: pygit2.Signature) -> bytes:
    """An annotated tag object's text, as `git tag -s` signs it: the headers, a blank line, the
    message (ending in a newline, so that a signature appended to it starts a line)."""
    body = message if message.endswith("\n") else message + "\n"
    head = f"object {commit}\ntype commit\ntag {name}\ntagger {_signature_line(tagger)}\n\n"
    return (head + body).encode("utf-8")


def create_tag_object(repo: pygit2.Repository, name: str, data: bytes) -> None:
    """The tag `name` for a tag object's raw text (a signed payload with its signature appended,
    git's layout); an existing tag or a leftover lock file is an error, never overwritten."""
    oid = repo.odb.write(pygit2.enums.ObjectType.TAG, data)
    try:
        repo.references.create(f"refs/tags/{name}", oid)
    except pygit2.AlreadyExistsError:
        raise ConcurrentUpdate(f"tag `{name}` was created meanwhile", "rerun to see where it points") from None
    except OSError as exc:
        raise EnvironmentProblem(
            f"cannot create tag `{name}`: {exc}", f"if no git process is running, remove .git/refs/tags/{name}.lock"
        ) from None
