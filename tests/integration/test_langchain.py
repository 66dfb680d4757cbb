"""LangChain (langchain-mcp-adapters): poisoned tools never reach the agent."""

from __future__ import annotations

import asyncio
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_mcp_adapters")

from langchain_mcp_adapters.client import MultiServerMCPClient

from mcpscan import Report, ScanError, Verdict
from mcpscan.langchain import get_tools, load_mcp_tools
from mcpscan.mcp import UnsafeToolWarning

pytestmark = pytest.mark.integration

SERVER = str(Path(__file__).with_name("poisoned_server.py"))
CLEAN = {"add", "word_count"}


def _client() -> MultiServerMCPClient:
    def stdio(*args: str) -> Any:
        return {"command": sys.executable, "args": [SERVER, *args], "transport": "stdio"}

    return MultiServerMCPClient({"notes": stdio(), "mail": stdio("--variant", "mail")})


def test_get_tools_leaves_out_poisoned_tools_and_clean_ones_run() -> None:
    async def go() -> tuple[set[str], Any]:
        tools = await get_tools(_client())
        add = next(tool for tool in tools if tool.name == "add")
        return {tool.name for tool in tools}, await add.ainvoke({"a": 2, "b": 3})

    names, result = asyncio.run(go())
    assert names == CLEAN | {"send_email"}
    assert "5" in str(result)


def test_load_mcp_tools_on_a_session_follows_on_review() -> None:
    seen: list[Report] = []

    def ask(report: Report) -> bool:
        seen.append(report)
        return True

    async def go(on_review: Any) -> set[str]:
        client = _client()
        async with client.session("notes") as session:
            tools = await load_mcp_tools(session, server="notes", on_review=on_review)
            if tools:
                # Tools bound to a live session run through it.
                word_count = next(t for t in tools if t.name == "word_count")
                assert "3" in str(await word_count.ainvoke({"text": "one two three"}))
            return {tool.name for tool in tools}

    assert asyncio.run(go("hide")) == CLEAN
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warned = asyncio.run(go("warn"))
    asked = asyncio.run(go(ask))
    review = {r.tool.name for r in seen}
    assert warned == asked == CLEAN | review
    assert all(r.verdict is Verdict.REVIEW for r in seen)
    assert len([w for w in caught if issubclass(w.category, UnsafeToolWarning)]) == len(review)


def test_a_bad_on_review_is_a_scan_error() -> None:
    with pytest.raises(ScanError, match="on_review"):
        asyncio.run(get_tools(_client(), on_review="sometimes"))  # type: ignore[arg-type]
