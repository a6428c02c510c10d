"""GitHub Actions steps run here as the runner runs them, from the workflow and action files
themselves: each `run:` by bash with its `env:` and `if:` evaluated, a fresh `$GITHUB_OUTPUT` per
step read back into `steps.<id>.outputs`, a composite action's outputs evaluated at its end.
A `uses:` step is handed to the caller, which stands in for that action (or refuses it)."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalogctl.io.yamlio import parse_document

Value = str | bool
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(\|\||&&|==|!=|[(),!])|([A-Za-z_][A-Za-z0-9_.\-]*))")


def load_yaml(path: Path) -> Any:
    """A workflow or action file as data."""
    return parse_document(path.name, path.read_bytes()).data


def _text(value: Value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else value


def _truthy(value: Value) -> bool:
    return value if isinstance(value, bool) else value != ""


class _Parser:
    """The part of GitHub's expression language these files use: literals, context paths,
    `||`, `&&`, `!`, `==`, `!=`, parentheses, `format()` and the status functions."""

    def __init__(self, text: str, context: Mapping[str, Any]) -> None:
        self.tokens: list[str] = []
        self.context = context
        position = 0
        while text[position:].strip():
            match = _TOKEN.match(text, position)
            if match is None:
                raise ValueError(f"cannot read the expression {text!r} at {position}")
            self.tokens.append(match.group(match.lastindex or 0))
            position = match.end()

    def parse(self) -> Value:
        value = self._or()
        if self.tokens:
            raise ValueError(f"unexpected {self.tokens[0]!r}")
        return value

    def _take(self, token: str) -> bool:
        if self.tokens and self.tokens[0] == token:
            self.tokens.pop(0)
            return True
        return False

    def _or(self) -> Value:
        value = self._and()
        while self._take("||"):
            other = self._and()
            value = value if _truthy(value) else other
        return value

    def _and(self) -> Value:
        value = self._compare()
        while self._take("&&"):
            other = self._compare()
            value = other if _truthy(value) else value
        return value

    def _compare(self) -> Value:
        value = self._unary()
        for operator in ("==", "!="):
            if self._take(operator):
                # GitHub compares strings without regard to case.
                equal = _text(value).casefold() == _text(self._unary()).casefold()
                return equal if operator == "==" else not equal
        return value

    def _unary(self) -> Value:
        if self._take("!"):
            return not _truthy(self._unary())
        return self._primary()

    def _primary(self) -> Value:
        token = self.tokens.pop(0)
        if token == "(":
            value = self._or()
            assert self._take(")"), "a parenthesis is not closed"
            return value
        if token.startswith("'"):
            return token[1:-1].replace("''", "'")
        if self._take("("):
            args: list[Value] = []
            while not self._take(")"):
                args.append(self._or())
                self._take(",")
            return self._call(token, args)
        return self._lookup(token)

    def _call(self, name: str, args: list[Value]) -> Value:
        if name == "format":
            template, *rest = (_text(a) for a in args)
            return re.sub(r"\{(\d+)\}", lambda m: rest[int(m.group(1))], template)
        if name in ("always", "success", "failure"):
            failed = bool(self.context.get("failed"))
            return {"always": True, "success": not failed, "failure": failed}[name]
        raise ValueError(f"no function {name}() here")

    def _lookup(self, path: str) -> Value:
        root, *keys = path.split(".")
        if root not in self.context:
            raise KeyError(f"no context {root!r} here (in {path!r})")
        value: Any = self.context[root]
        for key in keys:
            value = value.get(key, "") if isinstance(value, Mapping) else ""
        return value if isinstance(value, bool) else str(value)


def evaluate(expression: str, context: Mapping[str, Any]) -> Value:
    """The value of one expression (without its `${{ }}`)."""
    return _Parser(expression, context).parse()


def substitute(text: str, context: Mapping[str, Any]) -> str:
    """`text` with every `${{ ... }}` replaced by its value."""
    return _EXPRESSION.sub(lambda m: _text(evaluate(m.group(1), context)), text)


def condition(step: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
    """Whether a step runs: its `if:` (with or without `${{ }}`), `success()` when it has none."""
    raw = str(step.get("if", "success()")).strip()
    match = _EXPRESSION.fullmatch(raw)
    value = evaluate(match.group(1) if match else raw, context)
    # A status function is implied when the condition names none.
    if not re.search(r"\b(always|success|failure|cancelled)\(", raw):
        value = _truthy(value) and not context.get("failed")
    return _truthy(value)


def read_outputs(path: Path) -> dict[str, str]:
    """A step's `$GITHUB_OUTPUT`: `name=value` lines and `name<<DELIMITER` blocks."""
    out: dict[str, str] = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block: list[str] = []
            for inner in lines:
                if inner == delimiter:
                    break
                block.append(inner)
            out[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
    return out


@dataclass
class StepRun:
    """What one step did."""

    name: str
    outcome: str  # success, failure or skipped
    outputs: dict[str, str] = field(default_factory=dict)
    log: str = ""


Uses = Callable[[Mapping[str, Any], dict[str, Any], Path], dict[str, str]]


@dataclass
class Runner:
    """The runner's side: its environment (RUNNER_TEMP, GITHUB_WORKSPACE, PATH, ...), the
    job's working folder, and what stands in for each `uses:` step."""

    env: dict[str, str]
    workspace: Path
    uses: Uses
    runs: list[StepRun] = field(default_factory=list)

    @property
    def temp(self) -> Path:
        return Path(self.env["RUNNER_TEMP"])

    def run_steps(self, steps: list[Mapping[str, Any]], context: dict[str, Any], extra_env: Mapping[str, str]) -> bool:
        """Run `steps` in order, filling `context["steps"]`; whether one failed."""
        context.setdefault("steps", {})
        for index, step in enumerate(steps):
            name = str(step.get("name") or step.get("id") or step.get("uses") or f"step {index}")
            if not condition(step, context):
                run = StepRun(name, "skipped")
            elif "run" in step:
                run = self._run(name, step, context, extra_env)
            else:
                run = StepRun(name, "success", self.uses(step, context, self.workspace))
            self.runs.append(run)
            if "id" in step:
                context["steps"][step["id"]] = {"outputs": run.outputs, "outcome": run.outcome}
            context["failed"] = context.get("failed", False) or run.outcome == "failure"
        return bool(context.get("failed"))

    def _run(
        self, name: str, step: Mapping[str, Any], context: dict[str, Any], extra_env: Mapping[str, str]
    ) -> StepRun:
        output = self.temp / f"output-{len(self.runs)}"
        output.write_text("")
        env = {**self.env, **extra_env, "GITHUB_OUTPUT": str(output)}
        env.update({key: substitute(str(value), context) for key, value in step.get("env", {}).items()})
        folder = self.workspace / substitute(str(step.get("working-directory", ".")), context)
        assert step.get("shell", "bash") == "bash", "only bash steps run here"
        # As the runner runs `shell: bash`.
        command = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", str(step["run"])]
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, check=False)
        outcome = "success" if done.returncode == 0 else "failure"
        return StepRun(name, outcome, read_outputs(output), done.stdout + done.stderr)

    def run_action(self, action_dir: Path, given: Mapping[str, str], github: Mapping[str, Any]) -> dict[str, str]:
        """A composite action, as a step of a job: its outputs; AssertionError when it fails."""
        action = load_yaml(action_dir / "action.yml")
        assert action["runs"]["using"] == "composite"
        inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        unknown = set(given) - set(inputs)
        assert not unknown, f"the action has no input {sorted(unknown)}"
        inputs.update(given)
        context: dict[str, Any] = {"inputs": inputs, "github": github, "runner": {"temp": str(self.temp)}}
        failed = self.run_steps(action["runs"]["steps"], context, {"GITHUB_ACTION_PATH": str(action_dir)})
        assert not failed, "\n".join(f"{r.name}: {r.outcome}\n{r.log}" for r in self.runs)
        return {name: substitute(str(spec["value"]), context) for name, spec in action["outputs"].items()}


def uploaded(paths: str, workspace: Path) -> dict[str, bytes]:
    """What `actions/upload-artifact` puts in the artifact for its `path` input: every file the
    lines name (a folder: the files under it), named relative to their least common ancestor."""
    found: list[Path] = []
    roots: list[Path] = []
    for line in paths.splitlines():
        if not line.strip():
            continue
        target = (workspace / line.strip()).resolve()
        if target.is_dir():
            roots.append(target)
            found += [p for p in sorted(target.rglob("*")) if p.is_file()]
        elif target.is_file():
            roots.append(target.parent)
            found.append(target)
    if not found:
        return {}
    root = Path(os.path.commonpath(roots))
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in found}
