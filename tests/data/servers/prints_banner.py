"""A broken MCP server: it prints a banner on stdout (where only JSON-RPC may go)."""

import sys

print("Welcome to Example MCP v1.2 (debug mode)")
sys.stdout.flush()
# Then it never answers: it waits for its input to end, as a hung server would.
sys.stdin.read()
