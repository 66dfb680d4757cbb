"""A broken MCP server: it exits with status 3 before answering anything."""

import sys

sys.stderr.write("exits_with_3: missing configuration, giving up\n")
sys.exit(3)
