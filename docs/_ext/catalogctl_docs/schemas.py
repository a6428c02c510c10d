"""A page per JSON Schema of `schemas/` (committed; tests prove each equal to its model): what
the tool reads (the catalog's documents, a submission, a run's results) and what each verb
writes with `--format json`. Every object is a table of its fields: type, required, default,
description; a type that is an object of its own links to its table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from catalogctl_docs import markdown as md

DOCUMENTS = "documents"
OUTPUTS = "outputs"


class Page:
    """One schema, laid out as Markdown."""

    def __init__(self, kind: str, schema: dict[str, Any]) -> None:
        self.kind = kind
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {})

    def label(self, name: str) -> str:
        return f"schema-{self.kind}-{name}".lower()

    def type_of(self, node: dict[str, Any]) -> str:  # noqa: C901  (one case per JSON Schema keyword)
        """A field's type in words, with links to the tables of its objects."""
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return f"{{ref}}`{name} <{self.label(name)}>`"
        for key in ("anyOf", "oneOf"):
            if key in node:
                return " or ".join(self.type_of(option) for option in node[key])
        if "const" in node:
            return md.code(json.dumps(node["const"]))
        if "enum" in node:
            return "one of " + ", ".join(md.code(json.dumps(value)) for value in node["enum"])
        kind = node.get("type")
        if isinstance(kind, list):
            return " or ".join(self.type_of({**node, "type": one}) for one in kind)
        if kind == "array":
            items = node.get("items")
            return "list of " + (self.type_of(items) if items else "any")
        if kind == "object":
            values = node.get("additionalProperties")
            patterns = node.get("patternProperties", {})
            if patterns:
                pattern, value = next(iter(patterns.items()))
                return f"map of keys matching {md.code(pattern)} to {self.type_of(value)}"
            if isinstance(values, dict):
                return f"map of string to {self.type_of(values)}"
            return "object"
        if kind is None:
            return "any"
        words = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean", "null": "null"}
        shown = words.get(kind, kind)
        if "format" in node:
            shown += f" ({node['format']})"
        return shown + _bounds(node)

    def table(self, node: dict[str, Any]) -> str:
        required = set(node.get("required", []))
        rows = []
        for name, field in node.get("properties", {}).items():
            default = md.code(json.dumps(field["default"])) if "default" in field else ""
            description = md.text(" ".join(field.get("description", "").split()))
            rows.append((md.code(name), self.type_of(field), "yes" if name in required else "no", default, description))
        if not rows:
            return ""
        return md.table(["field", "type", "required", "default", "description"], rows)

    def section(self, node: dict[str, Any], level: int) -> list[str]:
        out = []
        if node.get("description"):
            out += [md.paragraphs(node["description"]), ""]
        if "properties" in node:
            extra = node.get("additionalProperties")
            out += [self.table(node), ""]
            if extra is False:
                out += ["No other field is allowed.", ""]
        elif "oneOf" in node or "anyOf" in node:
            by = node.get("discriminator", {}).get("propertyName")
            options = node.get("oneOf") or node.get("anyOf")
            which = f", by the value of {md.code(by)}" if by else ""
            out += [f"One of{which}:", ""] + [f"- {self.type_of(option)}" for option in options] + [""]
        else:
            out += [f"A value of type {self.type_of(node)}.", ""]
        return out

    def markdown(self, title: str, intro: str) -> str:
        out = [f"({self.label('')[:-1]})=", f"# {title}", "", intro, ""]
        out += self.section(self.schema, 1)
        for name in self.ordered_defs():
            out += [f"({self.label(name)})=", f"## {name}", "", *self.section(self.defs[name], 2)]
        return "\n".join(out)

    def ordered_defs(self) -> list[str]:
        """The definitions in the order a reader meets them, from the root down."""
        seen: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/$defs/"):
                    name = ref.rsplit("/", 1)[-1]
                    if name not in seen:
                        seen.append(name)
                        walk(self.defs[name])
                for key, value in node.items():
                    if key != "$defs":
                        walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.schema)
        return seen + sorted(set(self.defs) - set(seen))


def _bounds(node: dict[str, Any]) -> str:
    marks = [("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<")]
    parts = [f"{sign} {node[key]}" for key, sign in marks if key in node]
    if "pattern" in node:
        parts.append(f"matching {md.code(node['pattern'])}")
    return f" ({', '.join(md.text(p) if not p.startswith('matching') else p for p in parts)})" if parts else ""


def _load(repository: Path, kind: str) -> dict[str, Any]:
    from catalogctl.catalog.layout import schema_name

    data: dict[str, Any] = json.loads((repository / "schemas" / schema_name(kind)).read_text(encoding="utf-8"))
    return data


def pages(repository: Path) -> dict[str, str]:
    """`documents/<kind>.md`, `outputs/<kind>.md`, and the index fragments listing them."""
    from catalogctl.authoring.schemas import document_kinds, output_kinds
    from catalogctl.catalog.layout import schema_name

    out: dict[str, str] = {}
    for folder, kinds in ((DOCUMENTS, document_kinds()), (OUTPUTS, output_kinds())):
        rows = []
        for kind in kinds:
            schema = _load(repository, kind)
            if folder == OUTPUTS:
                version = schema.get("properties", {}).get("schema", {}).get("const")
                if version is None:  # a union of shapes (ls): each names its own
                    version = " or ".join(
                        sorted(
                            {
                                d["properties"]["schema"]["const"]
                                for d in schema.get("$defs", {}).values()
                                if "schema" in d.get("properties", {})
                            }
                        )
                    )
                title = f"`{kind}` output"
                intro = f"`schema`: {md.code(version)}. JSON Schema: `schemas/{schema_name(kind)}`."
            else:
                title = f"`{kind}` document"
                intro = f"JSON Schema: `schemas/{schema_name(kind)}` (`$id` {md.code(schema.get('$id', ''))})."
            out[f"{folder}/{kind}.md"] = Page(kind, schema).markdown(title, intro)
            summary = " ".join((schema.get("description") or "").split()).split(". ")[0].rstrip(".")
            rows.append((f"{{doc}}`{kind} </reference/generated/{folder}/{kind}>`", md.text(summary)))
        toc = md.toctree([f"/reference/generated/{folder}/{kind}" for kind in kinds], hidden=True)
        out[f"fragments/{folder}.md"] = md.table(["schema", "what it is"], rows) + "\n" + toc
    return out
