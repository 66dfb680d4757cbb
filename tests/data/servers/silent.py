"""A broken MCP server: it reads its input and never answers."""

import sys

sys.stdin.read()
