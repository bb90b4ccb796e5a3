"""JSON Schemas of `epigames play GAME --json`, made from the types that write the lines.

A transcript is JSON lines; the schema of a game describes one line: the line types of
`epigames.games.transcript` (`MatchLine` …, typed dicts) and one event line per event
class the game declares (`Game.event_types`), each with its fields, their JSON types and
the descriptions of the classes' docstrings (`Attributes:`). Nothing is written by hand,
so a field added to an event is in the schema, and a field left undescribed is found by
`undescribed` (the tests ask it of every game).

Python types map to JSON as `Event.to_dict` writes them: `int` an integer, `bool` a
boolean, tuples and sets arrays, value objects (cards, suits, rolls) their `str()`.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, NotRequired, TypeVar, Union

from epigames.games.core import Game, game_class, registered_games
from epigames.games.events import Event, GroupObservation
from epigames.games.transcript import FORMAT, LINE_TYPES, EventLine

__all__ = [
    "DIALECT",
    "all_schemas",
    "event_schema",
    "field_docs",
    "schema_markdown",
    "transcript_schema",
    "undescribed",
]

#: The JSON Schema version the schemas declare (`$schema`).
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: What the keys every event line has mean (the event's fields follow them).
_COMMON = {
    "kind": "the event's kind: which event it is (one kind per event class of the game)",
    "public": "whether every seat observes it (a public announcement)",
    "text": "the event in one human sentence, seats by their display names",
    "facts": (
        "the formula-ready facts, in the order they happen, each in its positional form: "
        "its name, then its fields (holders as codes: seats first, then the piles of the "
        'header\'s holder_labels), e.g. ["holds", 2, "8♥"] or ["moved", "8♥", 0, 4]'
    ),
}

_ATTRIBUTE = re.compile(r"^(\s*)(\w+)(?: \([^)]*\))?: (.*)$")


def _attributes(doc: str | None) -> dict[str, str]:
    """The `Attributes:` section of a Google-style docstring: name → description."""
    found: dict[str, str] = {}
    lines = inspect.cleandoc(doc or "").splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Attributes:")
    except StopIteration:
        return found
    indent: int | None = None
    name = ""
    for line in lines[start + 1 :]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        match = _ATTRIBUTE.match(line)
        if indent is None and match:
            indent = depth
        if indent is None or depth < indent:
            break
        if depth == indent and match:
            name = match.group(2)
            found[name] = match.group(3).strip()
        elif depth > indent and name:
            found[name] += " " + line.strip()
        else:
            break
    return found


def field_docs(cls: type) -> dict[str, str]:
    """Each documented field of `cls` and its bases: name → description (the nearest
    class's wins)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        docs.update(_attributes(klass.__doc__))
    return docs


def _type_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a value of Python type `hint`, as JSON writes it."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is NotRequired:
        return _type_schema(args[0])
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_type_schema(a) for a in args]}
    if hint is type(None):
        return {"type": "null"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if hint is str:
        return {"type": "string"}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _type_schema(args[0])}
        return {
            "type": "array",
            "prefixItems": [_type_schema(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin in (list, frozenset, set):
        schema = {"type": "array", "items": _type_schema(args[0])}
        return schema if origin is list else {**schema, "uniqueItems": True}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type_schema(args[1])}
    if isinstance(hint, TypeVar):
        return {"type": "string", "description": "a card, as its text"}
    if isinstance(hint, type):
        # A value object (a card, a suit, a roll): `to_jsonable` writes its `str()`.
        return {"type": "string", "description": f"a {hint.__name__}, as its text"}
    raise TypeError(f"no JSON Schema for the type {hint!r}")


def _described(schema: dict[str, Any], description: str | None) -> dict[str, Any]:
    if description is None:
        return schema
    kind = schema.pop("description", None)
    text = f"{description.rstrip('.')} ({kind})." if kind else description
    return {"description": text, **schema}


def _object(properties: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _line_schema(line: type) -> dict[str, Any]:
    """A transcript line type (a typed dict) as a schema: its keys, all but the
    `NotRequired` ones required."""
    hints = typing.get_type_hints(line, include_extras=True)
    docs = field_docs(line)
    properties = {key: _described(_type_schema(hint), docs.get(key)) for key, hint in hints.items()}
    # Read from the hints: under postponed annotations Python 3.11's `__required_keys__`
    # misses `NotRequired`.
    required = [key for key, hint in hints.items() if typing.get_origin(hint) is not NotRequired]
    schema = {
        "title": line.__name__,
        "description": _summary(line),
        **_object(properties, required),
    }
    if line.__name__ == "MatchLine":
        schema["properties"]["format"]["const"] = FORMAT
    return schema


def _summary(cls: type) -> str:
    """The first paragraph of a class's docstring, on one line."""
    doc = inspect.cleandoc(cls.__doc__ or "")
    return " ".join(doc.split("\n\n")[0].split())


def _event_fields(cls: type[Event]) -> Iterator[tuple[str, Any]]:
    """The event's JSON keys from its fields, in `Event.to_dict` order, with their types."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.name != "names":
            yield f.name, hints[f.name]


def event_schema(cls: type[Event]) -> dict[str, Any]:
    """The schema of the transcript line of one event class: `type` and `step`
    (`EventLine`), `kind` and `public` (constants of the class), its fields, `text`,
    `facts`."""
    docs = {**_COMMON, **field_docs(cls)}
    head = _line_schema(EventLine)["properties"]
    properties: dict[str, dict[str, Any]] = {
        **head,
        "kind": _described({"const": cls.kind}, docs["kind"]),
        "public": _described({"const": cls.public}, docs["public"]),
    }
    for name, hint in _event_fields(cls):
        schema = _type_schema(hint)
        if issubclass(cls, GroupObservation) and name == "seats":
            schema = {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}
        properties[name] = _described(schema, docs.get(name))
    properties["text"] = _described({"type": "string"}, docs["text"])
    facts = {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}]}}
    properties["facts"] = _described(facts, docs["facts"])
    return {
        "title": f"{cls.__name__} ({cls.kind})",
        "description": _summary(cls),
        **_object(properties, list(properties)),
    }


def transcript_schema(game: str | Game | type[Game]) -> dict[str, Any]:
    """The JSON Schema of a line of `epigames play GAME --json`, for a game name, string,
    instance or class: any line type, an event line of one of the game's events.

    Raises:
        InputError: an unknown game name.
    """
    cls = game if isinstance(game, type) else type(game) if isinstance(game, Game) else None
    if cls is None:
        cls = game_class(str(game).split("(", 1)[0].strip())
    lines = {line.__name__: _line_schema(line) for line in LINE_TYPES if line is not EventLine}
    events = {event.__name__: event_schema(event) for event in cls.event_types}
    order = [*list(lines)[:3], *events, *list(lines)[3:]]
    return {
        "$schema": DIALECT,
        "$id": f"epigames-play-{cls.name}.schema.json",
        "title": f"A line of `epigames play {cls.name} --json` (transcript format {FORMAT})",
        "description": (
            "One JSON object a line: the match header first, then per step its chance or "
            "decision line and the events it caused (and, when asked, a knowledge line), "
            "then the result. Lines are told apart by `type`, event lines by `kind`."
        ),
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in order],
        "$defs": {name: {**lines, **events}[name] for name in order},
    }


def undescribed(game: str | Game | type[Game]) -> list[str]:
    """Every property of the game's schema without a description, as `Title.key`."""
    missing: list[str] = []
    for name, line in transcript_schema(game)["$defs"].items():
        for key, schema in line["properties"].items():
            if not schema.get("description"):
                missing.append(f"{name}.{key}")
    return missing


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every registered game's schema, by game name."""
    return {name: transcript_schema(name) for name in registered_games()}


def _json_type(schema: dict[str, Any]) -> str:
    """A property's JSON type in a few characters: `integer`, `[string]`, `"match"`."""
    if "const" in schema:
        return f"`{json.dumps(schema['const'], ensure_ascii=False)}`"
    if "anyOf" in schema:
        return " or ".join(_json_type(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema and "items" not in schema:
            more = "" if "maxItems" in schema else ", …"
            return "[" + ", ".join(_json_type(s) for s in schema["prefixItems"]) + more + "]"
        return f"[{_json_type(schema['items'])}]"
    if kind == "object":
        return "{string: " + _json_type(schema["additionalProperties"]) + "}"
    return str(kind)


def schema_markdown(game: str | Game | type[Game]) -> str:
    """The game's schema as a Markdown page: per line type and per event, a table of its
    keys, their JSON types and what they mean."""
    schema = transcript_schema(game)
    name = schema["$id"].removeprefix("epigames-play-").removesuffix(".schema.json")
    out = [
        f"# The lines of `epigames play {name} --json`",
        "",
        f"Made by `epigames schema {name} --markdown` from the types that write the lines "
        f"(transcript format {FORMAT}); the JSON Schema is [{name}.schema.json]"
        f"({name}.schema.json). [events.md](../events.md#transcripts) tells how "
        "to read a transcript.",
    ]
    for title, line in schema["$defs"].items():
        props = line["properties"]
        kind = props.get("kind", {}).get("const")
        heading = f"`{kind}`: {title}" if kind else f"`{props['type']['const']}`: {title}"
        out += ["", f"## {heading}", "", line["description"], ""]
        out += ["| key | JSON | meaning |", "|---|---|---|"]
        for key, prop in props.items():
            note = "" if key in line["required"] else " (only when present)"
            text = prop.get("description", "").replace("|", "\\|")
            out.append(f"| `{key}` | {_json_type(prop)} | {text}{note} |")
    return "\n".join(out) + "\n"
