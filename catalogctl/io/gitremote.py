"""A git remote's refs and pushes to it, each within the network deadline.

libgit2 gives a remote call no overall deadline: a server that accepts and never answers keeps
`list_heads` and `push` waiting forever over git:// and http(s)://, its per-read timeout
(`server_timeout`) cannot stop a server that trickles a byte a second, and SSH (libssh2) waits
for a banner on its own terms. So every call runs in a child process of its own session, killed
with anything it started when the deadline passes (`bounded.run_within`): `RemoteTimeout`. The
deadline is `CATALOGCTL_TIMEOUT` seconds, 60 by default, for each call (one listing, one push),
counted from when the child is ready to ask: its own start is not the remote's time.

The child runs pygit2, as the tool always did, rather than the git CLI: the same library keeps the
same behaviour (which remotes it reaches, what it refuses, and what `freeze` guards against, such
as a tag it would move), the same messages, and the same configuration (the child is given this
process's config search path); the CLI would bring its own errors, prompts and output to parse.
The cost is a Python start, about 0.1 s, per call. The child is this module run with `-P` (the
current folder is not put first on `sys.path`): a request as JSON on stdin, the answer on stdout.
A remote that is a path on this machine (or a file:// URL) as libgit2 reads it, every URL of it
after git's rewriting (`insteadOf`), has no server to wait for: it is asked in this process,
without a child's start.
"""

from __future__ import annotations

import json
import signal
import sys
from dataclasses import dataclass, field
from typing import Any

import pygit2

from catalogctl.errors import RemoteProblem, RemoteTimeout, RemoteUnreachable
from catalogctl.io.bounded import LONGEST_WAIT_S, run_within
from catalogctl.io.gitrepo import DEFAULT_BRANCH
from catalogctl.io.transport import DEADLINE_ENV, network_deadline
from catalogctl.io.urls import local_path, redact_text, redact_url

DEADLINE_S = 60.0  # one listing or one push, as one call of the GitHub API
START_ALLOWANCE_S = 30.0  # a child's start (Python, pygit2) takes ~0.1 s; a busy machine's, seconds
TIMEOUT_HINT = (
    f"retry later, or check the remote's URL and the network; {DEADLINE_ENV} sets the deadline in seconds "
    f"({DEADLINE_S:g} by default)"
)
# The configuration levels whose files libgit2 reads besides the repository's own.
_CONFIG_LEVELS = (pygit2.enums.ConfigLevel.GLOBAL, pygit2.enums.ConfigLevel.XDG, pygit2.enums.ConfigLevel.SYSTEM)

# libgit2 tells a connection that failed from a remote that answered only in its messages (pygit2
# raises a bare GitError): these mean nothing was reached, neither a server nor a repository.
_UNREACHABLE = (
    "failed to connect",
    "failed to resolve address",
    "error receiving data from socket",
    "error sending data",
    "timed out",
    "network is unreachable",
    "could not find repository",
    "failed to resolve path",
    "unsupported url protocol",
)


def _remote_error(said: str, message: str, hint: str = "") -> RemoteProblem | RemoteUnreachable:
    """A failed remote operation (libgit2 `said` why): unreachable (an environment error) or
    refused/disagreeing."""
    message = redact_text(message)  # libgit2's words may quote the URL, credentials and all
    if any(sign in said.lower() for sign in _UNREACHABLE):
        return RemoteUnreachable(message, hint or "check the remote's URL and the network")
    return RemoteProblem(message, hint)


@dataclass(frozen=True)
class RemoteListing:
    """A remote's refs (annotated tags peeled) and the branch its HEAD names."""

    refs: dict[str, str]
    default_branch: str  # `refs/heads/<name>`: the remote's HEAD symref, else `refs/heads/main`
    tag_objects: dict[str, str] = field(default_factory=dict)  # `refs/tags/X` -> the tag object, unpeeled


def _ask(repo: pygit2.Repository, request: dict[str, Any], doing: str) -> dict[str, Any]:
    """The answer to `request` about `repo`'s remote: from a child process within the deadline,
    or here for a remote on this machine."""
    if _on_this_machine(repo, request["remote"]):
        return _serve(repo, request)
    return _in_child(repo, request, doing)


def _on_this_machine(repo: pygit2.Repository, remote: str) -> bool:
    """Whether every URL of the remote (fetch and push, rewritten as git rewrites them) is a path
    here; an unusable one is asked in a child, which says why."""
    try:
        found = _remote(repo, remote)
    except (pygit2.GitError, OSError):
        return False
    urls = [url for url in (found.url, found.push_url) if url]
    return bool(urls) and all(_local_to_libgit2(url) for url in urls)


def _local_to_libgit2(url: str) -> bool:
    """Whether libgit2 reads `url` as a path: it takes any other URL with a colon for SSH (`0:x`
    is host 0, this machine's port 22; `/srv/a:b` a host `/srv/a`), where git sees a path."""
    return local_path(url) is not None and (url.startswith("file://") or ":" not in url)


def _in_child(repo: pygit2.Repository, request: dict[str, Any], doing: str) -> dict[str, Any]:
    """What the child answers to `request` about `repo`'s remote; `RemoteTimeout` when it has not
    answered by the deadline."""
    seconds = network_deadline(DEADLINE_S)
    request = {
        **request,
        "repo": repo.path,
        "deadline": min(seconds, LONGEST_WAIT_S),
        "search_path": {int(level): pygit2.settings.search_path[level] for level in _CONFIG_LEVELS},
    }
    argv = [sys.executable, "-P", "-m", __name__]
    # The child keeps the deadline itself, from when it is ready to ask (its alarm, below): its
    # own start is this tool's work, not the remote's. This bound only stops a child that never starts.
    finished = run_within(argv, json.dumps(request).encode(), seconds + START_ALLOWANCE_S)
    if finished is None or finished[0] == -signal.SIGALRM:  # the deadline passed
        raise RemoteTimeout(
            f"`{redact_url(request['remote'])}` gave no complete answer within {seconds:g} s ({doing})", TIMEOUT_HINT
        )
    code, out, err = finished
    if code != 0:  # a bug, not the remote: the child reports every git error in its answer
        raise RuntimeError(redact_text(f"the git child process exited {code}: {err.decode(errors='replace')}"))
    answer: dict[str, Any] = json.loads(out)
    return answer


def remote_listing(repo: pygit2.Repository, remote: str) -> RemoteListing:
    """The remote's refs, annotated tags peeled to their commit (`refs/tags/X^{}` entries win),
    and its default branch. A remote that cannot be reached is `RemoteUnreachable`; one that
    refuses, `RemoteProblem`; one that does not answer in time, `RemoteTimeout`."""
    answer = _ask(repo, {"op": "list", "remote": remote}, "listing its refs")
    if "error" in answer:
        said = answer["error"]
        raise _remote_error(
            said, f"cannot list the refs of `{redact_url(remote)}`: {said}", "check the remote's URL and your access"
        )
    refs: dict[str, str] = {}
    unpeeled: dict[str, str] = {}
    default = DEFAULT_BRANCH
    for name, oid, symref_target in answer["heads"]:
        if name == "HEAD" and symref_target:
            default = symref_target
        if name.endswith("^{}"):
            refs[name[:-3]] = oid
        else:
            refs.setdefault(name, oid)
            unpeeled[name] = oid
    return RemoteListing(refs, default, unpeeled)


def remote_refs(repo: pygit2.Repository, remote: str) -> dict[str, str]:
    """The remote's refs, annotated tags peeled to their commit (see `remote_listing`)."""
    return remote_listing(repo, remote).refs


def push(repo: pygit2.Repository, remote: str, refspecs: list[str]) -> None:
    """Push refspecs; a refusal reported in the callback is `RemoteProblem`, a remote that cannot
    be reached `RemoteUnreachable`, one that does not answer in time `RemoteTimeout`."""
    answer = _ask(repo, {"op": "push", "remote": remote, "refspecs": refspecs}, f"pushing {' '.join(refspecs)}")
    if "error" in answer:
        said = answer["error"]
        raise _remote_error(said, f"push to `{redact_url(remote)}` failed: {said}")
    rejected: dict[str, str] = answer["rejected"]
    if rejected:
        reasons = "; ".join(f"{ref}: {why}" for ref, why in sorted(rejected.items()))
        said = f"; it said: {' / '.join(answer['said'])}" if answer["said"] else ""
        raise RemoteProblem(redact_text(f"`{remote}` refused the push ({reasons}){said}"))


# -- what libgit2 answers: in the child, or here for a remote on this machine -------------------


class _PushCallbacks(pygit2.RemoteCallbacks):
    """Collects the server's per-ref verdicts: a refusal does not raise, it only shows here."""

    def __init__(self) -> None:
        super().__init__()
        self.rejected: dict[str, str] = {}
        self.said: list[str] = []  # the server's own words (its hooks' output), sent as progress

    def sideband_progress(self, string: str) -> None:
        self.said.extend(line.strip() for line in string.replace("\r", "\n").splitlines() if line.strip())

    def push_update_reference(self, refname: str, message: str | None) -> None:
        if message:
            self.rejected[refname] = message


def _remote(repo: pygit2.Repository, remote: str) -> pygit2.Remote:
    """A configured remote by name, or an anonymous one for a URL or path."""
    try:
        return repo.remotes[remote]
    except (KeyError, ValueError):
        return repo.remotes.create_anonymous(remote)


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The child's answer to a request, read with the parent's configuration (see `_serve`)."""
    for level, path in request["search_path"].items():
        pygit2.settings.search_path[pygit2.enums.ConfigLevel(int(level))] = path
    return _serve(pygit2.Repository(request["repo"]), request)


def _serve(repo: pygit2.Repository, request: dict[str, Any]) -> dict[str, Any]:
    """The remote's heads, or what a push's callbacks collected, or the error libgit2 raised (its
    words)."""
    try:
        remote = _remote(repo, request["remote"])
        if request["op"] == "list":
            heads = remote.list_heads()
            return {"heads": [[str(h.name), str(h.oid), str(h.symref_target or "")] for h in heads]}
        callbacks = _PushCallbacks()
        remote.push(request["refspecs"], callbacks=callbacks)
        return {"rejected": callbacks.rejected, "said": callbacks.said}
    except (pygit2.GitError, OSError) as exc:
        return {"error": str(exc)}


if __name__ == "__main__":
    asked = json.load(sys.stdin)
    # Ready to ask: the deadline starts now. Its alarm (SIGALRM's default action ends it, even
    # inside libgit2) is the deadline; in a session of its own, this process gets neither the
    # SIGTERM nor the SIGHUP that ends its parent, so it also never outlives its parent by more.
    # An ignored or blocked SIGALRM passes through exec (a shell's `trap '' ALRM`): reset both.
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    signal.setitimer(signal.ITIMER_REAL, asked["deadline"])
    answered = answer(asked)
    signal.setitimer(signal.ITIMER_REAL, 0)  # answered in time: the answer is not lost to the deadline
    json.dump(answered, sys.stdout)
