"""A server's prompts, resources and instructions, read as definitions to scan.

Tools are not the only text of an MCP server that reaches a model: clients
show a prompt's description and arguments when a user picks it, list
resources by name and description for the model to choose from, and add
the server's ``instructions`` to the system prompt. The same injections
appear there, so each is turned into the fields of a ``Tool`` (with its
own ``kind``) and scanned by the same checks:

* prompt: ``name``, ``title``, ``description``; its ``arguments`` become
  the properties of an input schema (name, title, description), so every
  check reads them as it reads a tool's parameters;
* resource / resource template: ``name``, ``title``, ``description`` and
  the ``uri`` (``uriTemplate``), which a client may show as well;
* instructions: the text, read as a description.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ._model import ScanError, Tool

__all__ = ["SURFACE_KEYS", "prompt_fields", "resource_fields", "surface_tools"]

#: The keys of a server's listing besides ``tools``, as MCP names them.
SURFACE_KEYS = ("prompts", "resources", "resourceTemplates", "instructions")

_ARGUMENT_TEXT = ("title", "description")


def _mapping(obj: object, what: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise ScanError(what, f"expected an object, got {type(obj).__name__}")
    return obj


def _text(obj: Mapping[str, Any], key: str, where: str = "") -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ScanError(f"{where}{key}", f"expected a string, got {type(value).__name__}")
    return value


def _name(obj: Mapping[str, Any], what: str) -> str:
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise ScanError("name", f"a {what} needs a non-empty string name")
    return name


def _argument_schema(arguments: object) -> Mapping[str, Any] | None:
    """A prompt's arguments as an input schema's ``properties``.

    Two arguments with one name are kept both, the way a JSON text with a
    key given twice is (``JsonObject.duplicates``): a client may show either,
    so the scan reads every description and the structure check reports
    the duplicate.
    """
    if arguments is None:
        return None
    if not isinstance(arguments, Sequence) or isinstance(arguments, str):
        raise ScanError("arguments", f"expected a list, got {type(arguments).__name__}")
    pairs: list[tuple[str, Any]] = []
    required: list[str] = []
    for index, argument in enumerate(arguments):
        where = f"arguments[{index}]."
        entry = _mapping(argument, f"arguments[{index}]")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ScanError(f"{where}name", "an argument needs a non-empty string name")
        pairs.append((name, _argument_text(entry, where)))
        if entry.get("required") is True:
            required.append(name)
    # Imported here: the reader builds on the model's ScanError.
    from ._input import JsonObject  # noqa: PLC0415

    schema: dict[str, Any] = {"type": "object", "properties": JsonObject(pairs)}
    if required:
        schema["required"] = required
    return schema


def _argument_text(entry: Mapping[str, Any], where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key in _ARGUMENT_TEXT:
        value = _text(entry, key, where)
        if value is not None:
            out[key] = value
    return out


def _plain_duplicates(obj: Mapping[str, Any], keys: Sequence[str]) -> list[tuple[str, Any]]:
    """Extra values of keys the JSON text gave twice, among ``keys``."""
    return [(key, value) for key, value in getattr(obj, "duplicates", ()) if key in keys]


def prompt_fields(obj: object) -> dict[str, Any]:
    """The ``Tool`` fields of an MCP prompt (a mapping with MCP's keys)."""
    prompt = _mapping(obj, "prompt")
    duplicates = _plain_duplicates(prompt, ("name", "title", "description"))
    duplicates.extend(
        ("inputSchema", _argument_schema(value))
        for key, value in getattr(prompt, "duplicates", ())
        if key == "arguments"
    )
    return {
        "name": _name(prompt, "prompt"),
        "title": _text(prompt, "title"),
        "description": _text(prompt, "description"),
        "input_schema": _argument_schema(prompt.get("arguments")),
        "duplicates": duplicates,
    }


def resource_fields(obj: object) -> dict[str, Any]:
    """The ``Tool`` fields (and kind) of an MCP resource or resource template."""
    resource = _mapping(obj, "resource")
    template = "uriTemplate" in resource
    key = "uriTemplate" if template else "uri"
    uri = resource.get(key)
    if not isinstance(uri, str) or not uri:
        raise ScanError(key, "a resource needs a non-empty string uri (or uriTemplate)")
    return {
        "name": _name(resource, "resource"),
        "title": _text(resource, "title"),
        "description": _text(resource, "description"),
        "uri": uri,
        "kind": "resource-template" if template else "resource",
        # A URI given twice is scanned as both, like a description given twice.
        "duplicates": [
            ("uri" if k == key else k, v)
            for k, v in _plain_duplicates(resource, ("name", "title", "description", key))
        ],
    }


def surface_tools(
    server: str | None,
    *,
    prompts: Iterable[Any] = (),
    resources: Iterable[Any] = (),
    resource_templates: Iterable[Any] = (),
    instructions: object = None,
    where: str = "",
) -> tuple[Tool, ...]:
    """The scanned forms of a server's prompts, resources, resource templates
    and instructions, in that order; an error names the listing and entry
    (``prompts[2].name``), after ``where`` (the path of the listing)."""
    out: list[Tool] = []
    for key, items, build in (
        ("prompts", prompts, Tool.from_prompt),
        ("resources", resources, Tool.from_resource),
        ("resourceTemplates", resource_templates, Tool.from_resource),
    ):
        for position, obj in enumerate(items):
            try:
                out.append(build(obj, server=server))
            except ScanError as error:
                raise ScanError(f"{where}{key}[{position}].{error.field}", error.problem) from None
    if instructions is not None:
        try:
            out.append(Tool.from_instructions(instructions, server=server))
        except ScanError as error:
            raise ScanError(f"{where}{error.field}", error.problem) from None
    return tuple(out)
