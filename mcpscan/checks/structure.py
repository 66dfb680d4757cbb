"""structure: a definition whose JSON means different things to different parsers.

A key given twice in one JSON object (``{"description": "<attack>",
"description": "Adds two numbers."}``) is read as its last value by
Python's ``json`` and most JavaScript, and as its first by other parsers.
An attacker puts the attack where the victim's client looks and the
harmless text where the scanner looks. No legitimate generator writes a
duplicate key (JSON Schema and MCP both call for unique names), so the
duplicate itself is a HARD signal, whatever its values say.

The walk scans every value of a duplicated key at the key's path, so the
other checks judge the hidden value too; this check reports the duplicate.
Duplicates are only known when the JSON text was read by mcpscan
(``mcpscan.Tool.from_json``, the command line, ``mcpscan.jsonrpc.parse``):
a mapping built by ``json.loads`` has already lost them.

Rule id: ``structure.duplicate_key`` (threat ``parser-differential``).
"""

from __future__ import annotations

from collections.abc import Iterator

from .._check import Context
from .._model import Signal, Tier, Tool

__all__ = ["CHECK", "StructureCheck"]

_THREAT = "parser-differential"
_CONFIDENCE = 0.95


class StructureCheck:
    """Report object keys the JSON text gave more than once."""

    id = "structure"
    version = "1"
    surfaces = ("definition", "output", "arguments")

    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:  # noqa: ARG002
        for location in context.view.duplicate_keys:
            yield Signal(
                check_id=self.id,
                rule_id="structure.duplicate_key",
                tier=Tier.HARD,
                threat=_THREAT,
                confidence=_CONFIDENCE,
                evidence=f"the key at {location} is given more than once; "
                "parsers disagree on which value counts",
                location=location,
            )


CHECK = StructureCheck()
