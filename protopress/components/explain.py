"""Schema errors rewritten for people: what was found and what was expected."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from protopress.components.jsonpos import pointer_of, shown_token
from protopress.components.schemas import schema_documents
from protopress.components.suggest import did_you_mean

if TYPE_CHECKING:
    import jsonschema

_TYPE_NAMES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


@dataclass(frozen=True)
class Located:
    """One problem at a JSON pointer; at_key locates the key rather than the value."""

    pointer: str
    message: str
    at_key: bool = False


class LocatedError(ValueError):
    """A problem a game finds in a document given to it, at a JSON pointer: the
    command line names the document's line and column for it."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.located = Located(pointer, message)


_Handler: TypeAlias = "Callable[[jsonschema.ValidationError, str], list[Located]]"


def explain(error: jsonschema.ValidationError) -> list[Located]:
    pointer = pointer_of(error.absolute_path)
    handler = _HANDLERS.get(error.validator)
    if handler is not None:
        return handler(error, pointer)
    return [Located(pointer, error.message)]


def describe(schema: object) -> str:
    """A short phrase for what a schema accepts."""
    if not isinstance(schema, dict):
        return "anything" if schema else "nothing"
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema:
        if len(schema["enum"]) > MAX_LISTED and "description" in schema:
            return _phrase(schema["description"])  # 148 colour names are not read
        return _one_of(schema["enum"])
    if "anyOf" in schema:
        options = [describe(option) for option in schema["anyOf"]]
        if "description" in schema and not all(options):  # a reference not followed here
            return _phrase(schema["description"])
        return " or ".join(options)
    if "refersTo" in schema:
        kind = schema["refersTo"]
        return f"the id of {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    if "$ref" in schema and "type" not in schema:
        return _describe_reference(schema["$ref"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(_type_name(name) for name in kind)
    if kind not in _TYPE_NAMES:
        return ""
    phrase = _TYPE_NAMES[kind]
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        phrase += f" from {low} to {high}"
    elif low is not None:
        phrase += f" of at least {low}"
    elif high is not None:
        phrase += f" of at most {high}"
    return phrase


MAX_LISTED = 12  # values of an enum written out in a message


def _phrase(description: str) -> str:
    """A schema's description as a phrase inside a message: "A length, ..." -> "a length, ..."."""
    text = description.strip().removesuffix(".")
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text


def _type_name(kind: str) -> str:
    return _TYPE_NAMES.get(kind, kind)


def _describe_reference(ref: str) -> str:
    file, _, fragment = ref.partition("#")
    if not file:
        return ""
    target = schema_documents().get(file)
    for token in fragment.strip("/").split("/") if fragment else ():
        target = target.get(token) if isinstance(target, dict) else None
    if not fragment:
        return "a " + file.removesuffix(".schema.json")
    return describe(target) if target is not None else ""


def _one_of(values: Iterable[object]) -> str:
    shown = [repr(v) for v in values]
    if len(shown) == 1:
        return shown[0]
    return "one of " + ", ".join(shown)


def _short(instance: object) -> str:
    """repr(instance), cut to 40 characters; a long value is not written out whole first."""
    text = _BOUNDED.repr(instance)
    return text if len(text) <= 40 else text[:37] + "..."


# Its first 37 characters are repr's: every limit lets more than that through.
_BOUNDED = reprlib.Repr()
_BOUNDED.maxlevel = _BOUNDED.maxlist = _BOUNDED.maxtuple = _BOUNDED.maxdict = 40
_BOUNDED.maxset = _BOUNDED.maxfrozenset = _BOUNDED.maxdeque = _BOUNDED.maxarray = 40
_BOUNDED.maxstring = _BOUNDED.maxlong = _BOUNDED.maxother = 80


def _additional(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    schema = error.schema
    allowed = set(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    findings = []
    for key in error.instance:
        if key in allowed or any(p.search(key) for p in patterns):
            continue
        hint = did_you_mean(key, allowed)
        expected = f"; expected {_one_of(sorted(allowed))}" if allowed and not hint else ""
        findings.append(
            Located(
                f"{pointer}/{shown_token(key)}",
                f"unknown property {_short(key)}{hint}{expected}",
                True,
            )
        )
    return findings or [Located(pointer, error.message)]


def _required(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    missing = error.message.split("'")[1] if error.message.count("'") >= 2 else error.message
    expected = error.schema.get("properties", {}).get(missing)
    phrase = describe(expected) if isinstance(expected, dict) and expected else ""
    what = f" ({phrase})" if phrase else ""
    return [Located(pointer, f"missing required property {missing!r}{what}")]


def _enum(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    hint = (
        did_you_mean(error.instance, map(str, error.validator_value))
        if isinstance(error.instance, str)
        else ""
    )
    return [
        Located(pointer, f"{_short(error.instance)} is not {_one_of(error.validator_value)}{hint}")
    ]


def _const(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    return [Located(pointer, f"{_short(error.instance)} is not {error.validator_value!r}")]


def _type(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    return [Located(pointer, f"expected {describe(error.schema)}, found {_short(error.instance)}")]


def _any_of(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    hint = ""
    if isinstance(error.instance, str):
        hint = did_you_mean(error.instance, _enum_names(error))
    found = f"expected {describe(error.schema)}, found {_short(error.instance)}"
    return [Located(pointer, found + hint)]


def _enum_names(error: jsonschema.ValidationError) -> list[str]:
    """The names an anyOf's options accept, through references and nested anyOfs
    (a colour: #rrggbb, a CSS colour name or a {field})."""
    names: list[str] = []
    stack = list(error.context or ())
    while stack:
        sub = stack.pop()
        if sub.validator == "enum":
            names.extend(str(name) for name in sub.validator_value)
        stack.extend(sub.context or ())
    return names


def _not(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    if error.validator_value == {}:
        key = error.absolute_path[-1] if error.absolute_path else "this value"
        return [Located(pointer, f"{key!r} is not allowed here", True)]
    return [Located(pointer, error.message)]


def _pattern(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    description = error.schema.get("description")
    if description:
        return [Located(pointer, f"{_short(error.instance)} is not valid: {description}")]
    return [Located(pointer, f"{_short(error.instance)} does not match {error.validator_value!r}")]


def _count_bound(noun: str) -> _Handler:
    def handler(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
        bound = error.validator_value
        relation = "at least" if error.validator.startswith("min") else "at most"
        plural = (
            noun if bound == 1 else noun.removesuffix("y") + ("ies" if noun.endswith("y") else "s")
        )
        return [
            Located(pointer, f"expected {relation} {bound} {plural}, found {len(error.instance)}")
        ]

    return handler


def _number_bound(error: jsonschema.ValidationError, pointer: str) -> list[Located]:
    relation = "at least" if error.validator.startswith("min") else "at most"
    return [
        Located(pointer, f"expected {relation} {error.validator_value}, found {error.instance}")
    ]


_HANDLERS: dict[str, _Handler] = {
    "additionalProperties": _additional,
    "required": _required,
    "enum": _enum,
    "const": _const,
    "type": _type,
    "anyOf": _any_of,
    "not": _not,
    "pattern": _pattern,
    "minItems": _count_bound("item"),
    "maxItems": _count_bound("item"),
    "minProperties": _count_bound("property"),
    "maxProperties": _count_bound("property"),
    "minimum": _number_bound,
    "maximum": _number_bound,
}
