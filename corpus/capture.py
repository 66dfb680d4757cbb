"""Capture real MCP tool definitions from servers published on PyPI and npm.

This builds the benign "real" corpus: it starts each server in SERVERS over
stdio with the official ``mcp`` Python SDK, asks it for its tools
(``tools/list``, following pagination) and writes every tool as one JSONL
line::

    {"id": "captured:<package>:<tool name>", "label": "benign",
     "class": "real", "server": "<package>", "tool": {<tool as MCP JSON>},
     "expect": "pass", "provenance": "captured:<package>==<installed version>",
     "notes": "captured with mcp==<version> on <YYYY-MM-DD>"}

(an npm server's provenance is ``captured:npm:<package>@<installed version>``).
Lines are sorted by id and keys are sorted, so two runs over the same
installed set give the same bytes.

It is not run in CI and installs nothing.  Each server runs from its own
venv, as ``uvx``/``pipx`` would run it: the servers cannot share one
environment (the official servers need ``mcp>=2.3`` while most third-party
ones still import ``mcp.server.fastmcp`` from ``mcp<2``, and several pin
``mcp``/``fastmcp`` exactly).  The client side (this script) needs only
``mcp``.  corpus/capture-requirements.txt pins the set: the ``mcp==`` line
is the client, every other line one server (its pin, then the mcp/fastmcp
versions its venv resolved).  To set it all up and run (``--venvs``
defaults to /tmp/capvenvs; Python 3.11 is what the pins were resolved on)::

    python3 -m venv /tmp/capvenv
    /tmp/capvenv/bin/pip install mcp==2.3.0
    grep -v -e '^#' -e '^$' -e '^mcp==' corpus/capture-requirements.txt |
    while read -r req deps; do
        python3 -m venv "/tmp/capvenvs/${req%%==*}" &&
        "/tmp/capvenvs/${req%%==*}/bin/pip" install "$req" $deps </dev/null
    done
    /tmp/capvenv/bin/python corpus/capture.py --out corpus/captured.jsonl

The committed files split that output by capture date, both gated with
the corpus: the 2026-11-22 lines are ``corpus/captured.jsonl``, the
2026-11-24 lines ``corpus/captured-2026-11-24.jsonl``::

    grep ' on 2026-11-22"' captured-all.jsonl > corpus/captured.jsonl
    grep ' on 2026-11-24"' captured-all.jsonl > corpus/captured-2026-11-24.jsonl

npm servers (table NPM_SERVERS, pins in corpus/capture-npm.txt, one
``<package>@<version>`` a line) each get their own ``npm install --prefix``
under ``--npm-root`` (default /tmp/capnpm), install scripts off, and run as
``node <prefix>/node_modules/.bin/<bin>`` (Node 20 was used)::

    grep -v -e '^#' -e '^$' corpus/capture-npm.txt |
    while read -r spec; do
        npm install --prefix "/tmp/capnpm/${spec%@*}" --ignore-scripts \
            --no-audit --no-fund "$spec" </dev/null
    done

(``--npm-install-commands`` prints the same commands from the table.)  The
PyPI venvs of the 2026-11-24 batch were made with ``uv venv --python
python3.11`` and ``uv pip install`` of the same requirement line; the pip
loop above does the same.  Where a server's own release breaks on mcp 2.x
(it imports ``mcp.server.fastmcp``), its line pins ``mcp==1.30.0``.
Servers in the shared real-benign collection (../shared/corpora) are not in
the table, so the two sets stay distinct.

Every line's notes carry the date its entry was captured (the ``date`` of
each table entry: 2026-11-22 for the first 29 servers, 2026-11-24 for the
rest), so a run of the whole table over the pinned installs reproduces the
committed captured.jsonl byte for byte; ``--date`` (or ``CAPTURE_DATE``,
``SOURCE_DATE_EPOCH``) puts one date on every line instead.

Options: ``--only PKG`` (repeatable) to capture a subset, ``--registry
pypi|npm`` for one registry's servers, ``--timeout`` for the per-server
limit, ``--date`` for the date in ``notes`` (default: the ``CAPTURE_DATE``
environment variable, then ``SOURCE_DATE_EPOCH``, then each entry's own
date, then today in UTC), ``--workdir`` for the scratch directory,
``--venvs`` for the directory holding one venv per PyPI server,
``--npm-root`` for the one holding one npm prefix per npm server, ``--list``
to print the table with the versions installed.

Servers run one at a time, offline: every server gets a throwaway HOME and
dummy settings (fake credentials pointing at 127.0.0.1, a temp git repo, a
temp SQLite database, a temp directory of files) that the script creates
under ``--workdir`` (wiped at the start).  Servers also get
PYTHONHASHSEED=0, because some join Python sets into descriptions or
defaults.  A server that fails to start, crashes or exceeds its timeout is
reported on stderr (with the tail of its own stderr) and skipped; the exit
status is 0 when at least one server was captured.

Importing this module has no side effects.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------------------
# The servers.
#
# package  -- PyPI distribution name as published; also the ``server`` field,
#             the middle part of each id and the name of its venv directory.
# pin      -- the version this table was captured with (the same pins are in
#             capture-requirements.txt).  The provenance records the version
#             actually installed in the server's venv; a mismatch is reported.
# command  -- argv to start it; "{bin}" is the server venv's bin directory,
#             "{python}" its interpreter.
# args     -- further arguments.
# env      -- extra environment for the server (over BASE_ENV).
# timeout  -- optional, seconds (default DEFAULT_TIMEOUT).
#
# In command, args and env these placeholders are filled in from the scratch
# fixtures: {work} scratch root, {home} fake HOME, {files} a directory with a
# few small files, {repo} a git repository with one commit, {sqlite} a SQLite
# database file, {aws} a directory with a fake AWS config and credentials
# (profile "default"), {venv}, {bin}, {python}.
# Every host in the dummy settings is 127.0.0.1 on a closed port and every
# credential is fake, so nothing leaves the machine even when a server tries
# to connect at start-up.
# ---------------------------------------------------------------------------

SERVERS: list[dict[str, Any]] = [
    # --- reference servers (modelcontextprotocol/servers), mcp>=2 ---
    {
        "package": "mcp-server-fetch",
        "pin": "2026.10.24",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-fetch"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-git",
        "pin": "2026.10.19",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-git"],
        "args": ["--repository", "{repo}"],
        "env": {},
    },
    {
        "package": "mcp-server-sqlite",
        "pin": "2025.4.25",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-sqlite"],
        "args": ["--db-path", "{sqlite}"],
        "env": {},
    },
    {
        "package": "mcp-server-time",
        "pin": "2026.10.19",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-time"],
        "args": ["--local-timezone", "UTC"],
        "env": {},
    },
    # --- AWS Labs servers (AWS credentials in BASE_ENV are dummies) ---
    {
        "package": "awslabs.aws-documentation-mcp-server",
        "pin": "1.2.3",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.aws-documentation-mcp-server"],
        "args": [],
        "env": {"AWS_DOCUMENTATION_PARTITION": "aws"},
    },
    {
        "package": "awslabs.aws-pricing-mcp-server",
        "pin": "1.1.1",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.aws-pricing-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-serverless-mcp-server",
        "pin": "0.2.0",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.aws-serverless-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.cloudwatch-mcp-server",
        "pin": "0.3.1",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.cloudwatch-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.dynamodb-mcp-server",
        "pin": "2.1.8",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.dynamodb-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.eks-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.eks-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.iam-mcp-server",
        "pin": "1.1.2",
        "date": "2026-11-22",
        "command": ["{bin}/awslabs.iam-mcp-server"],
        "args": [],
        "env": {},
    },
    # --- third-party servers ---
    {
        "package": "mcp-atlassian",
        "pin": "0.23.1",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-atlassian"],
        "args": [],
        "env": {
            "JIRA_URL": "http://127.0.0.1:9/jira",
            "JIRA_USERNAME": "capture@example.invalid",
            "JIRA_API_TOKEN": "dummy-token",
            "CONFLUENCE_URL": "http://127.0.0.1:9/wiki",
            "CONFLUENCE_USERNAME": "capture@example.invalid",
            "CONFLUENCE_API_TOKEN": "dummy-token",
            # all toolsets, explicitly (the default is due to narrow)
            "TOOLSETS": "all",
        },
    },
    {
        "package": "mcp-server-motherduck",
        "pin": "1.1.0",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-motherduck"],
        "args": ["--db-path", ":memory:", "--read-write"],
        "env": {},
    },
    {
        "package": "mcp-clickhouse",
        "pin": "0.7.0",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-clickhouse"],
        "args": [],
        "env": {
            "CLICKHOUSE_HOST": "127.0.0.1",
            "CLICKHOUSE_PORT": "9",
            "CLICKHOUSE_USER": "default",
            "CLICKHOUSE_PASSWORD": "dummy",
            "CLICKHOUSE_SECURE": "false",
        },
    },
    {
        "package": "mcp-neo4j-cypher",
        "pin": "0.6.0",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-neo4j-cypher"],
        "args": [],
        "env": {
            "NEO4J_URI": "bolt://127.0.0.1:9",
            "NEO4J_USERNAME": "neo4j",
            "NEO4J_PASSWORD": "dummy",
        },
    },
    {
        "package": "mcp-neo4j-data-modeling",
        "pin": "0.8.2",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-neo4j-data-modeling"],
        "args": [],
        "env": {},
    },
    {
        "package": "excel-mcp-server",
        "pin": "2.2.2",
        "date": "2026-11-22",
        "command": ["{bin}/excel-mcp-server"],
        "args": ["stdio"],
        "env": {"EXCEL_FILES_PATH": "{files}"},
    },
    {
        "package": "arxiv-mcp-server",
        "pin": "0.8.2",
        "date": "2026-11-22",
        "command": ["{bin}/arxiv-mcp-server"],
        "args": ["--storage-path", "{work}/arxiv"],
        "env": {},
    },
    {
        "package": "duckduckgo-mcp-server",
        "pin": "0.7.0",
        "date": "2026-11-22",
        "command": ["{bin}/duckduckgo-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-calculator",
        "pin": "0.2.1",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-calculator"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-obsidian",
        "pin": "0.2.3",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-obsidian"],
        "args": [],
        "env": {
            "OBSIDIAN_API_KEY": "dummy-key",
            "OBSIDIAN_HOST": "127.0.0.1",
            "OBSIDIAN_PORT": "9",
        },
    },
    {
        "package": "mcp-pandoc",
        "pin": "0.11.1",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-pandoc"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-text-editor",
        "pin": "1.0.2",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-text-editor"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-shell-server",
        "pin": "1.1.14",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-shell-server"],
        "args": [],
        "env": {"ALLOW_COMMANDS": "ls,cat,pwd,grep,wc,head,tail"},
    },
    {
        "package": "mcp-server-tree-sitter",
        "pin": "0.7.0",
        "date": "2026-11-22",
        "command": ["{bin}/mcp-server-tree-sitter"],
        "args": [],
        "env": {},
    },
    {
        "package": "zotero-mcp",
        "pin": "0.3.1",
        "date": "2026-11-22",
        "command": ["{bin}/zotero-mcp"],
        "args": [],
        "env": {"ZOTERO_LOCAL": "true"},
    },
    {
        "package": "elasticsearch-mcp-server",
        "pin": "2.1.6",
        "date": "2026-11-22",
        "command": ["{bin}/elasticsearch-mcp-server"],
        "args": [],
        "env": {
            "ELASTICSEARCH_HOSTS": "http://127.0.0.1:9",
            "ELASTICSEARCH_USERNAME": "elastic",
            "ELASTICSEARCH_PASSWORD": "dummy",
        },
    },
    {
        "package": "redis-mcp-server",
        "pin": "0.5.1",
        "date": "2026-11-22",
        "command": ["{bin}/redis-mcp-server"],
        "args": [],
        "env": {"REDIS_HOST": "127.0.0.1", "REDIS_PORT": "9"},
    },
    {
        "package": "wcgw",
        "pin": "5.6.7",
        "date": "2026-11-22",
        "command": ["{bin}/wcgw"],
        "args": [],
        "env": {},
    },
]

# Tried and left out (Python 3.11, offline): on 2026-11-24, 65 more PyPI and
# npm servers that installed but did not list their tools within 60 s after
# one retry (a live account or OAuth flow, a native addon or binary fetched at
# install, an unreachable endpoint at start-up), 48 that did not install
# (Python >= 3.12, install scripts needed), and 15 that listed tools but are
# in the shared real-benign collection.  Earlier:
#   mcp-neo4j-memory 0.4.5      connects to Neo4j before serving and exits without one
#   mcp-server-docker 0.3.0     needs Python >= 3.12
#   basic-memory                needs Python >= 3.12.1

# --- new PyPI servers (2026-11-24) ---
NEW_PYPI_SERVERS: list[dict[str, Any]] = [
    # @@NEW_PYPI@@
    {
        "package": "alpaca-mcp-server",
        "pin": "2.4.0",
        "date": "2026-11-24",
        "command": ["{bin}/alpaca-mcp-server"],
        "args": [],
        "env": {"ALPACA_API_KEY": "capture-dummy-key", "ALPACA_SECRET_KEY": "capture-dummy-secret"},
    },
    {
        "package": "analytics-mcp",
        "pin": "0.8.0",
        "date": "2026-11-24",
        "command": ["{bin}/analytics-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "anki-mcp-server",
        "pin": "0.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/anki-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.amazon-kendra-index-mcp-server",
        "pin": "1.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-kendra-index-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.amazon-keyspaces-mcp-server",
        "pin": "0.0.19",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-keyspaces-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.amazon-mq-mcp-server",
        "pin": "2.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-mq-mcp-server"],
        "args": [],
        "env": {
            "AWS_CONFIG_FILE": "{aws}/config",
            "AWS_SHARED_CREDENTIALS_FILE": "{aws}/credentials",
            "AWS_PROFILE": "default",
        },
    },
    {
        "package": "awslabs.amazon-neptune-mcp-server",
        "pin": "1.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-neptune-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.amazon-qbusiness-anonymous-mcp-server",
        "pin": "0.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-qbusiness-anonymous-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.amazon-sns-sqs-mcp-server",
        "pin": "2.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.amazon-sns-sqs-mcp-server"],
        "args": [],
        "env": {
            "AWS_CONFIG_FILE": "{aws}/config",
            "AWS_SHARED_CREDENTIALS_FILE": "{aws}/credentials",
            "AWS_PROFILE": "default",
        },
    },
    {
        "package": "awslabs.aurora-dsql-mcp-server",
        "pin": "1.1.4",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aurora-dsql-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-appsync-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-appsync-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-bedrock-custom-model-import-mcp-server",
        "pin": "0.0.23",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-bedrock-custom-model-import-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-dataprocessing-mcp-server",
        "pin": "0.2.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-dataprocessing-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-for-sap-management-mcp-server",
        "pin": "0.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-for-sap-management-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-healthomics-mcp-server",
        "pin": "0.1.5",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-healthomics-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-iot-sitewise-mcp-server",
        "pin": "11.0.23",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-iot-sitewise-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-network-mcp-server",
        "pin": "0.0.17",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-network-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-support-mcp-server",
        "pin": "0.1.23",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-support-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-transform-mcp-server",
        "pin": "0.2.3",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.aws-transform-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.cloudtrail-mcp-server",
        "pin": "0.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.cloudtrail-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.cloudwatch-applicationsignals-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.cloudwatch-applicationsignals-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.document-loader-mcp-server",
        "pin": "1.0.23",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.document-loader-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.documentdb-mcp-server",
        "pin": "2.0.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.documentdb-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.ecs-mcp-server",
        "pin": "0.1.37",
        "date": "2026-11-24",
        "command": ["{bin}/ecs-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.elasticache-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.elasticache-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.finch-mcp-server",
        "pin": "0.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.finch-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.healthimaging-mcp-server",
        "pin": "0.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.healthimaging-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.healthlake-mcp-server",
        "pin": "0.0.20",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.healthlake-mcp-server"],
        "args": [],
        "env": {
            "AWS_CONFIG_FILE": "{aws}/config",
            "AWS_SHARED_CREDENTIALS_FILE": "{aws}/credentials",
            "AWS_PROFILE": "default",
        },
    },
    {
        "package": "awslabs.mssql-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.mssql-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.mysql-mcp-server",
        "pin": "1.1.3",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.mysql-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.oracle-mcp-server",
        "pin": "0.2.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.oracle-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.pcap-analyzer-mcp-server",
        "pin": "1.0.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.pcap-analyzer-mcp-server"],
        "args": [],
        "env": {
            "AWS_CONFIG_FILE": "{aws}/config",
            "AWS_SHARED_CREDENTIALS_FILE": "{aws}/credentials",
            "AWS_PROFILE": "default",
        },
    },
    {
        "package": "awslabs.postgres-mcp-server",
        "pin": "1.2.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.postgres-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.redshift-mcp-server",
        "pin": "0.1.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.redshift-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.roda-mcp-server",
        "pin": "0.1.7",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.roda-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.s3-tables-mcp-server",
        "pin": "0.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.s3-tables-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.sagemaker-ai-mcp-server",
        "pin": "1.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.sagemaker-ai-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.security-agent-mcp-server",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.security-agent-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.timestream-for-influxdb-mcp-server",
        "pin": "0.1.2",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.timestream-for-influxdb-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.valkey-mcp-server",
        "pin": "1.1.1",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.valkey-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.well-architected-security-mcp-server",
        "pin": "0.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/awslabs.well-architected-security-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "chronicle-mcp-server",
        "pin": "1.6.2",
        "date": "2026-11-24",
        "command": ["{bin}/chronicle-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "code-index-mcp",
        "pin": "2.17.1",
        "date": "2026-11-24",
        "command": ["{bin}/code-index-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "cubrid-mcp-server",
        "pin": "0.7.0",
        "date": "2026-11-24",
        "command": ["{bin}/cubrid-mcp-server"],
        "args": [],
        "env": {
            "CUBRID_HOST": "127.0.0.1",
            "CUBRID_USER": "capture",
            "CUBRID_PASSWORD": "dummy",
            "CUBRID_DATABASE": "capture",
            "CUBRID_PORT": "9",
        },
    },
    {
        "package": "db-explorer-mcp-server",
        "pin": "0.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/db-explorer-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "flink-mcp-server",
        "pin": "0.4.2",
        "date": "2026-11-24",
        "command": ["{bin}/flink-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "gitea-mcp",
        "pin": "0.5.1",
        "date": "2026-11-24",
        "command": ["{bin}/gitea-mcp"],
        "args": [],
        "env": {"GITEA_URL": "http://127.0.0.1:9", "GITEA_TOKEN": "capture-dummy-token"},
    },
    {
        "package": "glpi-mcp-server",
        "pin": "0.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/glpi-mcp-server"],
        "args": [],
        "env": {
            "GLPI_URL": "http://127.0.0.1:9",
            "GLPI_CLIENT_ID": "capture",
            "GLPI_CLIENT_SECRET": "dummy",
            "GLPI_USERNAME": "capture",
            "GLPI_PASSWORD": "dummy",
        },
    },
    {
        "package": "greptimedb-mcp-server",
        "pin": "0.6.1",
        "date": "2026-11-24",
        "command": ["{bin}/greptimedb-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "ida-pro-mcp",
        "pin": "1.4.0",
        "date": "2026-11-24",
        "command": ["{bin}/ida-pro-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "jmrplens-gitlab-mcp-server",
        "pin": "3.3.0",
        "date": "2026-11-24",
        "command": ["{bin}/jmrplens-gitlab-mcp-server"],
        "args": [],
        "env": {"GITLAB_TOKEN": "capture-dummy-token", "GITLAB_URL": "http://127.0.0.1:9"},
    },
    {
        "package": "kegg-mcp-server",
        "pin": "0.6.0",
        "date": "2026-11-24",
        "command": ["{bin}/kegg-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "langfuse-mcp",
        "pin": "0.14.0",
        "date": "2026-11-24",
        "command": ["{bin}/langfuse-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "linux-mcp-server",
        "pin": "1.7.0",
        "date": "2026-11-24",
        "command": ["{bin}/linux-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "looker-mcp-server",
        "pin": "0.25.0",
        "date": "2026-11-24",
        "command": ["{bin}/looker-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-alchemy",
        "pin": "2026.10.15.202659",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-alchemy"],
        "args": [],
        "env": {"DB_URL": "sqlite:///{sqlite}"},
    },
    {
        "package": "mcp-for-blender",
        "pin": "2.2.4",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-for-blender"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-gitlab",
        "pin": "0.21.2",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-gitlab"],
        "args": [],
        "env": {
            "GITLAB_URL": "http://127.0.0.1:9",
            "GITLAB_TOKEN": "capture-dummy-token",
            "GITLAB_PERSONAL_ACCESS_TOKEN": "capture-dummy-token",
        },
    },
    {
        "package": "mcp-jenkins",
        "pin": "3.6.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-jenkins"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-pdf",
        "pin": "2026.09.22",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-pdf"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-python-interpreter",
        "pin": "1.2.3",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-python-interpreter"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-bitbucket",
        "pin": "0.12.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-bitbucket"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-celery",
        "pin": "0.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-celery"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-jaeger",
        "pin": "0.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-jaeger"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-kicad",
        "pin": "0.21.1",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-kicad"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-mikrotik",
        "pin": "0.26.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-mikrotik"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-openfda",
        "pin": "0.2.1",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-openfda"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-public-transport",
        "pin": "0.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-public-transport"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-rfc",
        "pin": "0.6.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-rfc"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-servicenow",
        "pin": "0.9.2",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-servicenow"],
        "args": [],
        "env": {
            "SERVICENOW_INSTANCE_URL": "http://127.0.0.1:9",
            "SERVICENOW_USERNAME": "capture",
            "SERVICENOW_PASSWORD": "dummy",
        },
    },
    {
        "package": "mcp-server-splunk",
        "pin": "0.3.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-splunk"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-things",
        "pin": "1.12.1",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-things"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-vyos",
        "pin": "0.6.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-server-vyos"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcpforunityserver",
        "pin": "10.3.0",
        "date": "2026-11-24",
        "command": ["{bin}/mcp-for-unity"],
        "args": [],
        "env": {},
    },
    {
        "package": "mfa-servicenow-mcp",
        "pin": "1.25.4",
        "date": "2026-11-24",
        "command": ["{bin}/servicenow-mcp"],
        "args": [],
        "env": {
            "SERVICENOW_INSTANCE_URL": "http://127.0.0.1:9",
            "SERVICENOW_USERNAME": "capture",
            "SERVICENOW_PASSWORD": "dummy",
        },
    },
    {
        "package": "mlflow-mcp",
        "pin": "0.4.1",
        "date": "2026-11-24",
        "command": ["{bin}/mlflow-mcp"],
        "args": [],
        "env": {"MLFLOW_TRACKING_URI": "http://127.0.0.1:9"},
    },
    {
        "package": "mysql-mcp-server",
        "pin": "0.4.4",
        "date": "2026-11-24",
        "command": ["{bin}/mysql_mcp_server"],
        "args": [],
        "env": {},
    },
    {
        "package": "nomad-mcp",
        "pin": "0.2.3",
        "date": "2026-11-24",
        "command": ["{bin}/nomad"],
        "args": [],
        "env": {},
    },
    {
        "package": "pdf-mcp",
        "pin": "3.5.0",
        "date": "2026-11-24",
        "command": ["{bin}/pdf-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "prometheus-mcp-server",
        "pin": "1.6.2",
        "date": "2026-11-24",
        "command": ["{bin}/prometheus-mcp-server"],
        "args": [],
        "env": {"PROMETHEUS_URL": "http://127.0.0.1:9"},
    },
    {
        "package": "serena-agent",
        "pin": "2.1.0",
        "date": "2026-11-24",
        "command": ["{bin}/serena-agent"],
        "args": ["start-mcp-server", "--transport", "stdio", "--project", "{repo}"],
        "env": {},
    },
    {
        "package": "tempo-mcp",
        "pin": "0.2.0",
        "date": "2026-11-24",
        "command": ["{bin}/tempo-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "tilt-mcp",
        "pin": "0.1.3",
        "date": "2026-11-24",
        "command": ["{bin}/tilt-mcp"],
        "args": [],
        "env": {},
    },
    {
        "package": "weaviate-mcp",
        "pin": "0.1.5",
        "date": "2026-11-24",
        "command": ["{bin}/weaviate-mcp"],
        "args": [],
        "env": {},
    },
]

# ---------------------------------------------------------------------------
# npm servers.  The same fields, plus "registry": "npm", each entry written
# with ``_npm(package, pin, bin, args=..., env=...)``.  Each is installed
# with ``npm install --prefix <npm-root>/<package> --ignore-scripts
# <package>@<pin>`` (``--npm-install-commands`` prints them; the pins are also
# in capture-npm.txt) and run as ``node <prefix>/node_modules/.bin/<bin>``:
# {bin} is that ``node_modules/.bin``, {prefix} the install prefix.  Install
# scripts are off, so nothing is downloaded besides the registry packages
# (a server that needs a browser or a binary fetched at install is left out).
# ---------------------------------------------------------------------------

#: The day every npm server of the table was captured.
_NPM_CAPTURE_DATE = "2026-11-24"


def _npm(
    package: str,
    pin: str,
    bin_name: str,
    *,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """One npm server's entry, run as ``node <prefix>/node_modules/.bin/<bin_name>``
    with its own arguments and dummy credentials: only what differs from one
    npm server to the next is written in the table."""
    return {
        "package": package,
        "pin": pin,
        "date": _NPM_CAPTURE_DATE,
        "registry": "npm",
        "command": ["node", f"{{bin}}/{bin_name}"],
        "args": list(args),
        "env": dict(env or {}),
    }


NPM_SERVERS: list[dict[str, Any]] = [
    # @@NEW_NPM@@
    _npm(
        "@aaronsb/jira-cloud-mcp",
        "0.11.3",
        "jira-cloud-mcp",
        env={
            "JIRA_API_TOKEN": "capture-dummy-token",
            "JIRA_EMAIL": "capture@example.invalid",
            "JIRA_HOST": "http://127.0.0.1:9",
        },
    ),
    _npm("@aashari/mcp-server-atlassian-bitbucket", "3.1.0", "mcp-atlassian-bitbucket"),
    _npm("@aashari/mcp-server-atlassian-jira", "3.3.0", "mcp-atlassian-jira"),
    _npm("@agentdeskai/browser-tools-mcp", "2.0.2", "browser-tools-mcp"),
    _npm(
        "@amap/amap-maps-mcp-server",
        "0.0.8",
        "mcp-amap",
        env={"AMAP_MAPS_API_KEY": "capture-dummy-amap-maps-api-key"},
    ),
    _npm("@angiejones/mcp-selenium", "0.2.3", "mcp-selenium"),
    _npm(
        "@berthojoris/mcp-mysql-server",
        "1.43.2",
        "mcp-mysql",
        args=["mysql://capture:dummy@127.0.0.1:9/capture"],
    ),
    _npm(
        "@brave/brave-search-mcp-server",
        "2.1.4",
        "brave-search-mcp-server",
        env={"BRAVE_API_KEY": "capture-dummy-brave-api-key"},
    ),
    _npm("@browsermcp/mcp", "0.1.3", "mcp-server-browsermcp"),
    _npm(
        "@browserstack/mcp-server",
        "1.4.2",
        "browserstack-mcp-server",
        env={"BROWSERSTACK_USERNAME": "capture", "BROWSERSTACK_ACCESS_KEY": "capture-dummy-key"},
    ),
    _npm("@circleci/mcp-server-circleci", "0.20.0", "mcp-server-circleci"),
    _npm(
        "@cloudflare/mcp-server-cloudflare",
        "0.2.0",
        "mcp-server-cloudflare",
        args=["run", "capture-dummy-account"],
        env={"CLOUDFLARE_API_TOKEN": "capture-dummy-token"},
    ),
    _npm(
        "@codacy/codacy-mcp",
        "0.5.9",
        "codacy-mcp-server",
        env={"CODACY_ACCOUNT_TOKEN": "capture-dummy-codacy-account-token"},
    ),
    _npm("@currents/mcp", "2.1.1", "mcp"),
    _npm("@cyanheads/git-mcp-server", "2.15.3", "git-mcp-server"),
    _npm("@cyanheads/pubmed-mcp-server", "2.7.4", "pubmed-mcp-server"),
    _npm("@dangahagan/weather-mcp", "1.23.0", "weather-mcp"),
    _npm(
        "@delorenj/mcp-server-trello",
        "1.8.1",
        "mcp-server-trello",
        env={
            "TRELLO_API_KEY": "capture-dummy-trello-api-key",
            "TRELLO_TOKEN": "capture-dummy-trello-token",
        },
    ),
    _npm("@discourse/mcp", "0.3.1", "discourse-mcp"),
    _npm("@drawio/mcp", "1.6.1", "drawio-mcp"),
    _npm(
        "@easecloudio/mcp-metabase-server",
        "1.3.0",
        "mcp-metabase-server",
        env={"METABASE_URL": "http://127.0.0.1:9", "METABASE_API_KEY": "capture-dummy-key"},
    ),
    _npm(
        "@elastic/mcp-server-elasticsearch",
        "0.3.1",
        "mcp-server-elasticsearch",
        env={"ES_URL": "http://127.0.0.1:9", "ES_API_KEY": "capture-dummy-key"},
    ),
    _npm(
        "@ergut/mcp-bigquery-server",
        "1.0.4",
        "mcp-server-bigquery",
        args=["--project-id", "capture-dummy-project"],
    ),
    _npm("@eslint/mcp", "0.3.13", "mcp"),
    _npm("@floriscornel/teams-mcp", "0.3.2", "teams-mcp"),
    _npm("@gleanwork/local-mcp-server", "0.7.6", "local-mcp-server"),
    _npm("@gongrzhe/server-travelplanner-mcp", "0.1.2", "server-travelplanner-mcp"),
    _npm("@google-cloud/cloud-run-mcp", "1.10.0", "cloud-run-mcp"),
    _npm("@google-cloud/gcloud-mcp", "0.5.3", "gcloud-mcp"),
    _npm("@google-cloud/observability-mcp", "0.2.3", "observability-mcp"),
    _npm("@google-cloud/storage-mcp", "0.6.0", "storage-mcp"),
    _npm("@henkey/postgres-mcp-server", "1.0.7", "postgres-mcp"),
    _npm("@heroui/react-mcp", "1.1.2", "heroui-react-mcp"),
    _npm(
        "@hubspot/mcp-server",
        "0.4.0",
        "mcp-hubspot",
        env={"PRIVATE_APP_ACCESS_TOKEN": "capture-dummy-private-app-access-token"},
    ),
    _npm(
        "@instantdb/mcp",
        "1.0.67",
        "instant-mcp",
        env={"INSTANT_ACCESS_TOKEN": "capture-dummy-instant-access-token"},
    ),
    _npm("@isaacphi/mcp-gdrive", "0.2.0", "mcp-gdrive"),
    _npm("@kazuph/mcp-fetch", "1.6.3", "mcp-fetch"),
    _npm("@kimsungwhee/apple-docs-mcp", "1.0.26", "apple-docs-mcp"),
    _npm("@knip/mcp", "0.0.36", "knip-mcp"),
    _npm(
        "@larksuiteoapi/lark-mcp",
        "0.5.1",
        "lark-mcp",
        args=["mcp", "-a", "cli_capture_dummy", "-s", "capture-dummy-secret"],
    ),
    _npm(
        "@launchdarkly/mcp-server", "0.6.2", "mcp", args=["start", "--api-key", "capture-dummy-key"]
    ),
    _npm(
        "@leval/mcp-grafana",
        "1.1.7",
        "mcp-grafana",
        env={"GRAFANA_URL": "http://127.0.0.1:9", "GRAFANA_API_KEY": "capture-dummy-key"},
    ),
    _npm(
        "@line/line-bot-mcp-server",
        "0.5.0",
        "line-bot-mcp-server",
        env={"CHANNEL_ACCESS_TOKEN": "capture-dummy-channel-access-token"},
    ),
    _npm("@makeplane/plane-mcp-server", "0.1.5", "plane-mcp-server"),
    _npm("@mapbox/mcp-server", "0.14.0", "mcp-server"),
    _npm(
        "@masonator/coolify-mcp",
        "3.5.0",
        "coolify-mcp",
        env={"COOLIFY_ACCESS_TOKEN": "capture-dummy-coolify-access-token"},
    ),
    _npm("@mastra/mcp-docs-server", "1.2.27", "mcp-docs-server"),
    _npm("@mcpfun/mcp-server-ccxt", "1.2.1", "mcp-server-ccxt"),
    _npm("@microsoft/clarity-mcp-server", "2.0.1", "clarity-mcp-server"),
    _npm("@mobilenext/mobile-mcp", "1.0.4", "mcp-server-mobile"),
    _npm("@modelcontextprotocol/server-aws-kb-retrieval", "0.6.2", "mcp-server-aws-kb-retrieval"),
    _npm(
        "@modelcontextprotocol/server-brave-search",
        "0.6.2",
        "mcp-server-brave-search",
        env={"BRAVE_API_KEY": "capture-dummy-brave-api-key"},
    ),
    _npm("@modelcontextprotocol/server-everything", "2026.8.31", "mcp-server-everything"),
    _npm("@modelcontextprotocol/server-github", "2025.4.8", "mcp-server-github"),
    _npm(
        "@modelcontextprotocol/server-google-maps",
        "0.6.2",
        "mcp-server-google-maps",
        env={"GOOGLE_MAPS_API_KEY": "capture-dummy-google-maps-api-key"},
    ),
    _npm("@modelcontextprotocol/server-pdf", "2.0.4", "mcp-pdf-server", args=["--stdio"]),
    _npm(
        "@modelcontextprotocol/server-postgres",
        "0.6.2",
        "mcp-server-postgres",
        args=["postgresql://capture:dummy@127.0.0.1:9/capture"],
    ),
    _npm(
        "@modelcontextprotocol/server-slack",
        "2025.4.25",
        "mcp-server-slack",
        env={
            "SLACK_BOT_TOKEN": "capture-dummy-slack-bot-token",
            "SLACK_TEAM_ID": "capture-dummy-slack-team-id",
        },
    ),
    _npm("@mui/mcp", "0.1.6", "mcp"),
    _npm(
        "@nexus2520/bitbucket-mcp-server",
        "3.0.0",
        "bitbucket-mcp-server",
        env={
            "BITBUCKET_APP_PASSWORD": "capture-dummy-bitbucket-app-password",
            "BITBUCKET_USERNAME": "capture@example.invalid",
            "BITBUCKET_BASE_URL": "http://127.0.0.1:9",
        },
    ),
    _npm(
        "@nexus2520/jira-mcp-server",
        "1.2.0",
        "jira-mcp-server",
        env={
            "JIRA_EMAIL": "capture@example.invalid",
            "JIRA_API_TOKEN": "capture-dummy-token",
            "JIRA_BASE_URL": "http://127.0.0.1:9",
            "JIRA_URL": "http://127.0.0.1:9",
        },
    ),
    _npm(
        "@perplexity-ai/mcp-server",
        "1.2.1",
        "perplexity-mcp",
        env={"PERPLEXITY_API_KEY": "capture-dummy-perplexity-api-key"},
    ),
    _npm("@pinecone-database/mcp", "0.3.0", "pinecone-mcp"),
    _npm("@piotr-agier/google-drive-mcp", "2.10.0", "google-drive-mcp"),
    _npm("@playwright/mcp", "0.0.83", "playwright-mcp"),
    _npm(
        "@postman/postman-mcp-server",
        "2.13.0",
        "postman-mcp-server",
        env={"POSTMAN_API_KEY": "capture-dummy-postman-api-key"},
    ),
    _npm("@primeng/mcp", "22.1.1", "primeng-mcp"),
    _npm("@primevue/mcp", "5.0.1", "primevue-mcp"),
    _npm("@react-aria/mcp", "1.2.1", "mcp"),
    _npm(
        "@rollbar/mcp-server",
        "0.6.0",
        "rollbar-mcp-server",
        env={"ROLLBAR_ACCESS_TOKEN": "capture-dummy-token"},
    ),
    _npm(
        "@roychri/mcp-server-asana",
        "1.8.0",
        "mcp-server-asana",
        env={"ASANA_ACCESS_TOKEN": "capture-dummy-asana-access-token"},
    ),
    _npm("@shopify/dev-mcp", "1.16.0", "shopify-dev-mcp"),
    _npm(
        "@shortcut/mcp",
        "0.25.0",
        "mcp-server-shortcut",
        env={"SHORTCUT_API_TOKEN": "capture-dummy-token"},
    ),
    _npm("@softeria/ms-365-mcp-server", "0.155.0", "ms-365-mcp-server"),
    _npm(
        "@supabase/mcp-server-postgrest",
        "0.2.0",
        "mcp-server-postgrest",
        args=["--apiUrl", "http://127.0.0.1:9", "--schema", "public"],
    ),
    _npm(
        "@tiberriver256/mcp-server-azure-devops",
        "0.1.48",
        "mcp-server-azure-devops",
        env={
            "AZURE_DEVOPS_ORG_URL": "http://127.0.0.1:9/capture",
            "AZURE_DEVOPS_PAT": "capture-dummy-token",
            "AZURE_DEVOPS_AUTH_METHOD": "pat",
        },
    ),
    _npm("@vuetify/mcp", "0.12.1", "mcp"),
    _npm(
        "@winor30/mcp-server-datadog",
        "1.8.0",
        "mcp-server-datadog",
        env={
            "DATADOG_API_KEY": "capture-dummy-datadog-api-key",
            "DATADOG_APP_KEY": "capture-dummy-datadog-app-key",
        },
    ),
    _npm(
        "@zereight/mcp-gitlab",
        "2.1.64",
        "mcp-gitlab",
        env={"GITLAB_PERSONAL_ACCESS_TOKEN": "capture-dummy-gitlab-personal-access-token"},
    ),
    _npm(
        "airtable-mcp-server",
        "1.14.0",
        "airtable-mcp-server",
        env={"AIRTABLE_API_KEY": "capture-dummy-airtable-api-key"},
    ),
    _npm(
        "argocd-mcp",
        "0.9.0",
        "argocd-mcp",
        args=["stdio"],
        env={"ARGOCD_BASE_URL": "http://127.0.0.1:9", "ARGOCD_API_TOKEN": "capture-dummy-token"},
    ),
    _npm(
        "backlog-mcp-server",
        "0.20.4",
        "backlog-mcp-server",
        env={"BACKLOG_DOMAIN": "127.0.0.1", "BACKLOG_API_KEY": "capture-dummy-key"},
    ),
    _npm(
        "bitbucket-mcp",
        "5.0.6",
        "bitbucket-mcp",
        env={"BITBUCKET_TOKEN": "capture-dummy-token", "BITBUCKET_URL": "http://127.0.0.1:9"},
    ),
    _npm("chrome-devtools-mcp", "1.11.0", "chrome-devtools-mcp"),
    _npm(
        "datadog-mcp-server",
        "1.0.9",
        "datadog-mcp-server",
        args=["--apiKey=capture-dummy-key", "--appKey=capture-dummy-key"],
    ),
    _npm("dataforseo-mcp-server", "3.1.1", "dataforseo-mcp-server"),
    _npm("drawio-mcp-server", "2.3.0", "drawio-mcp-server"),
    _npm("exa-mcp-server", "3.4.1", "exa-mcp-server"),
    _npm("fetcher-mcp", "0.3.9", "fetcher-mcp"),
    _npm("figma-console-mcp", "1.40.4", "figma-console-mcp"),
    _npm(
        "figma-developer-mcp",
        "0.13.2",
        "figma-developer-mcp",
        args=["--stdio"],
        env={"FIGMA_API_KEY": "capture-dummy-key"},
    ),
    _npm("firecrawl-mcp", "3.26.0", "firecrawl-mcp"),
    _npm("flightradar-mcp-server", "0.1.2", "flightradar-mcp-server"),
    _npm("gcp-mcp", "1.0.2", "gcp-mcp"),
    _npm("hevy-mcp", "6.1.13", "hevy-mcp", env={"HEVY_API_KEY": "capture-dummy-key"}),
    _npm("hostinger-api-mcp", "1.63.2", "hostinger-api-mcp"),
    _npm("jina-mcp-tools", "1.2.3", "jina-mcp-tools"),
    _npm("mcp-discord", "1.3.4", "mcp-discord"),
    _npm("mcp-hello-world", "1.1.2", "mcp-hello-world"),
    _npm("mcp-mermaid", "0.4.1", "mcp-mermaid"),
    _npm("mcp-searxng", "2.4.0", "mcp-searxng"),
    _npm("mcp-server-code-runner", "0.1.8", "mcp-server-code-runner"),
    _npm("mcp-server-commands", "0.5.0", "mcp-server-commands"),
    _npm("mcp-server-kubernetes", "4.1.7", "mcp-server-kubernetes"),
    _npm("n8n-mcp", "2.87.0", "n8n-mcp"),
    _npm("next-devtools-mcp", "0.4.0", "next-devtools-mcp"),
    _npm("octocode-mcp", "19.1.0", "octocode-mcp"),
    _npm("reddit-mcp-buddy", "1.1.14", "reddit-mcp-buddy"),
    _npm(
        "replicate-mcp",
        "0.9.0",
        "mcp-server",
        env={"REPLICATE_API_TOKEN": "capture-dummy-replicate-api-token"},
    ),
    _npm(
        "serper-search-scrape-mcp-server",
        "0.1.2",
        "serper-mcp",
        env={"SERPER_API_KEY": "capture-dummy-serper-api-key"},
    ),
    _npm("ssh-mcp", "2.11.0", "ssh-mcp"),
    _npm("tailwindcss-mcp-server", "0.1.1", "tailwindcss-server"),
    _npm("tavily-mcp", "0.2.22", "tavily-mcp"),
]

ALL_SERVERS: list[dict[str, Any]] = SERVERS + NEW_PYPI_SERVERS + NPM_SERVERS

# Environment every npm server gets on top of BASE_ENV.
NPM_ENV: dict[str, str] = {
    "NODE_ENV": "production",
    "NODE_OPTIONS": "--no-deprecation",
    "NPM_CONFIG_UPDATE_NOTIFIER": "false",
    "NO_UPDATE_NOTIFIER": "1",
    "CI": "1",
}

# The client's SDK version this table was captured with (first line of
# capture-requirements.txt).
MCP_PIN = "2.3.0"

# Per-server limit in seconds for start-up, initialize and tools/list together.
DEFAULT_TIMEOUT = 60.0

# Environment every server gets (the server's own env goes over it).  The SDK
# adds HOME/PATH/USER/... from os.environ; HOME and PATH are replaced here.
BASE_ENV: dict[str, str] = {
    "HOME": "{home}",
    "XDG_CONFIG_HOME": "{home}/.config",
    "XDG_CACHE_HOME": "{home}/.cache",
    "XDG_DATA_HOME": "{home}/.local/share",
    "TMPDIR": "{work}/tmp",
    "PATH": "{bin}" + os.pathsep + "/usr/local/bin:/usr/bin:/bin",
    "PYTHONUNBUFFERED": "1",
    # Some servers join sets into descriptions/defaults: fix str hashing.
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_LOG_LEVEL": "ERROR",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "capture-dummy-access-key",
    "AWS_SECRET_ACCESS_KEY": "capture-dummy-secret",
    "AWS_EC2_METADATA_DISABLED": "true",
}

DEFAULT_WORKDIR = os.path.join(tempfile.gettempdir(), "mcpscan-capture")
DEFAULT_VENVS = os.path.join(tempfile.gettempdir(), "capvenvs")
DEFAULT_NPM = os.path.join(tempfile.gettempdir(), "capnpm")


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


def make_fixtures(work: Path) -> dict[str, str]:
    """Create the scratch tree under ``work`` (wiped first); return placeholders."""
    if work.exists():
        shutil.rmtree(work)
    home = work / "home"
    files = work / "files"
    repo = work / "repo"
    for d in (
        home / ".config",
        home / ".cache",
        home / ".local" / "share",
        files,
        repo,
        work / "tmp",
        work / "logs",
    ):
        d.mkdir(parents=True, exist_ok=True)

    (files / "README.md").write_text("# Sample\n\nA small file for the capture.\n")
    (files / "notes.txt").write_text("hello\n")
    (files / "data.csv").write_text("id,name\n1,alpha\n2,beta\n")

    (repo / "README.md").write_text("# capture repo\n")
    git_env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "capture",
        "GIT_AUTHOR_EMAIL": "capture@example.invalid",
        "GIT_COMMITTER_NAME": "capture",
        "GIT_COMMITTER_EMAIL": "capture@example.invalid",
        "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    }
    for cmd in (
        ["git", "init", "-q"],
        ["git", "checkout", "-q", "-b", "main"],
        ["git", "add", "README.md"],
        ["git", "commit", "-q", "-m", "initial"],
    ):
        subprocess.run(
            cmd,
            cwd=repo,
            env=git_env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    # A fake AWS profile "default", for servers that open a named profile
    # (their entries point AWS_CONFIG_FILE/AWS_SHARED_CREDENTIALS_FILE here).
    aws = work / "aws"
    aws.mkdir()
    (aws / "config").write_text("[default]\nregion = us-east-1\n")
    (aws / "credentials").write_text(
        "[default]\naws_access_key_id = capture-dummy-access-key\n"
        "aws_secret_access_key = capture-dummy-secret\n"
    )

    db = work / "capture.sqlite"
    con = sqlite3.connect(db)
    try:
        con.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
        con.executemany("INSERT INTO items (name) VALUES (?)", [("alpha",), ("beta",)])
        con.commit()
    finally:
        con.close()

    return {
        "work": str(work),
        "home": str(home),
        "files": str(files),
        "repo": str(repo),
        "sqlite": str(db),
        "aws": str(aws),
    }


def placeholders(fixtures: dict[str, str], venv: Path) -> dict[str, str]:
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    return {
        **fixtures,
        "venv": str(venv),
        "bin": str(bindir),
        "python": str(bindir / ("python.exe" if os.name == "nt" else "python")),
    }


def registry(spec: dict[str, Any]) -> str:
    """``"pypi"`` (the default) or ``"npm"``."""
    return str(spec.get("registry", "pypi"))


def npm_prefix(npm_root: Path, package: str) -> Path:
    """The ``npm install --prefix`` directory of one npm server.

    A scoped name keeps its scope as a directory: ``@scope/name`` is
    ``<npm_root>/@scope/name``.
    """
    return npm_root.joinpath(*package.split("/"))


def npm_placeholders(fixtures: dict[str, str], prefix: Path) -> dict[str, str]:
    """Placeholders for an npm server: {bin} is its ``node_modules/.bin``."""
    return {
        **fixtures,
        "venv": str(prefix),
        "prefix": str(prefix),
        "bin": str(prefix / "node_modules" / ".bin"),
        "node_modules": str(prefix / "node_modules"),
    }


def npm_install_argv(spec: dict[str, Any], npm_root: Path) -> list[str]:
    """The command that installs one npm entry at its pin (scripts off)."""
    return [
        "npm",
        "install",
        "--prefix",
        str(npm_prefix(npm_root, spec["package"])),
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        f"{spec['package']}@{spec['pin']}",
    ]


def npm_version(prefix: Path, package: str) -> str | None:
    """The version of ``package`` installed under ``prefix`` (its package.json)."""
    manifest = prefix.joinpath("node_modules", *package.split("/"), "package.json")
    try:
        version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) and version else None


def server_params(spec: dict[str, Any], ph: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """Return (argv, env) for one table entry with placeholders filled."""
    argv = [a.format(**ph) for a in list(spec["command"]) + list(spec.get("args", []))]
    env = {k: v.format(**ph) for k, v in BASE_ENV.items()}
    if registry(spec) == "npm":
        env.update({k: v.format(**ph) for k, v in NPM_ENV.items()})
    env.update({k: v.format(**ph) for k, v in spec.get("env", {}).items()})
    return argv, env


# ---------------------------------------------------------------------------
# Capture
# ---------------------------------------------------------------------------


def venv_version(python: str, package: str) -> str | None:
    """The version of ``package`` installed for interpreter ``python``."""
    if not os.path.exists(python):
        return None
    code = (
        "import sys, importlib.metadata as m\n"
        "try: print(m.version(sys.argv[1]))\n"
        "except m.PackageNotFoundError: pass\n"
    )
    try:
        out = subprocess.run(
            [python, "-c", code, package],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PATH": os.defpath},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


async def _list_tools(
    argv: list[str], env: dict[str, str], cwd: str, errlog: Any, timeout: float
) -> list[dict[str, Any]]:
    # The SDK is imported here so that importing this module needs no mcp.
    import anyio  # noqa: PLC0415
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415
    from mcp.types import PaginatedRequestParams  # noqa: PLC0415

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=cwd)
    tools: list[dict[str, Any]] = []
    with anyio.fail_after(timeout):
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timeout) as session,
        ):
            await session.initialize()
            cursor: str | None = None
            for _ in range(1000):
                if cursor is None:
                    result = await session.list_tools()
                else:
                    result = await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
                tools.extend(
                    t.model_dump(mode="json", by_alias=True, exclude_none=True)
                    for t in result.tools
                )
                cursor = result.next_cursor
                if not cursor:
                    break
    return tools


def capture_server(
    spec: dict[str, Any], ph: dict[str, str], timeout: float
) -> tuple[list[dict[str, Any]] | None, str]:
    """Start one server and list its tools.  Returns (tools or None, message)."""
    import anyio  # noqa: PLC0415

    package = spec["package"]
    argv, env = server_params(spec, ph)
    safe = package.replace("/", "_")  # an npm scope is no directory here
    logpath = Path(ph["work"]) / "logs" / f"{safe}.stderr"
    cwd = Path(ph["work"]) / "cwd" / safe
    cwd.mkdir(parents=True, exist_ok=True)
    with open(logpath, "w", encoding="utf-8", errors="replace") as errlog:
        try:
            tools = anyio.run(_list_tools, argv, env, str(cwd), errlog, timeout)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # report any failure (groups too) and skip
            msg = _describe(exc)
            tail = _tail(logpath)
            return None, msg + (f"\n    server stderr (tail):\n{tail}" if tail else "")
    return tools, "ok"


def _describe(exc: BaseException) -> str:
    inner = getattr(exc, "exceptions", None)  # an exception group (3.11+)
    if isinstance(inner, (list, tuple)):
        return "; ".join(_describe(e) for e in inner)
    if isinstance(exc, TimeoutError):
        return "timed out"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def _tail(path: Path, lines: int = 8) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").rstrip().splitlines()
    except OSError:
        return ""
    return "\n".join("      " + ln[:200] for ln in text[-lines:])


def capture_date(arg: str | None) -> str:
    """--date, else $CAPTURE_DATE, else $SOURCE_DATE_EPOCH, else today (UTC)."""
    if arg:
        return _dt.date.fromisoformat(arg).isoformat()
    if os.environ.get("CAPTURE_DATE"):
        return _dt.date.fromisoformat(os.environ["CAPTURE_DATE"]).isoformat()
    if os.environ.get("SOURCE_DATE_EPOCH"):
        ts = int(os.environ["SOURCE_DATE_EPOCH"])
        return _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).date().isoformat()
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


def make_record(
    package: str,
    version: str,
    tool: dict[str, Any],
    mcp_version: str,
    date: str,
    *,
    registry: str = "pypi",
) -> dict[str, Any]:
    provenance = (
        f"captured:npm:{package}@{version}"
        if registry == "npm"
        else f"captured:{package}=={version}"
    )
    return {
        "id": f"captured:{package}:{tool['name']}",
        "label": "benign",
        "class": "real",
        "server": package,
        "tool": tool,
        "expect": "pass",
        "provenance": provenance,
        "notes": f"captured with mcp=={mcp_version} on {date}",
    }


def dumps_records(records: list[dict[str, Any]]) -> str:
    records = sorted(records, key=lambda r: r["id"])
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)


def installed(
    spec: dict[str, Any], fixtures: dict[str, str], venvs: Path, npm_root: Path
) -> tuple[dict[str, str], str | None]:
    """(placeholders, installed version or None) for one table entry."""
    package = spec["package"]
    if registry(spec) == "npm":
        prefix = npm_prefix(npm_root, package)
        return npm_placeholders(fixtures, prefix), npm_version(prefix, package)
    ph = placeholders(fixtures, venvs / package)
    return ph, venv_version(ph["python"], package)


def capture_all(
    specs: list[dict[str, Any]],
    fixtures: dict[str, str],
    venvs: Path,
    *,
    timeout_arg: float | None,
    mcp_version: str,
    date: str | None,
    npm_root: Path | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Capture every server in ``specs`` in turn.  Returns (records, failed packages).

    ``date`` (from --date) goes into every line's notes; when it is None an
    entry's own ``date`` (the day its lines were committed) is used, else today.
    """
    records: list[dict[str, Any]] = []
    failed: list[str] = []
    for spec in specs:
        package = spec["package"]
        ph, version = installed(spec, fixtures, venvs, npm_root or Path(DEFAULT_NPM))
        if version is None:
            print(f"capture: SKIP {package}: not installed in {ph['venv']}", file=sys.stderr)
            failed.append(package)
            continue
        if version != spec["pin"]:
            print(
                f"capture: note: {package} installed {version}, table pins {spec['pin']}",
                file=sys.stderr,
            )
        timeout = timeout_arg or float(spec.get("timeout", DEFAULT_TIMEOUT))
        t0 = time.monotonic()
        tools, msg = capture_server(spec, ph, timeout)
        took = time.monotonic() - t0
        if tools is None:
            print(f"capture: SKIP {package}: {msg}", file=sys.stderr)
            failed.append(package)
            continue
        if not tools:
            print(f"capture: SKIP {package}: no tools listed ({took:.1f}s)", file=sys.stderr)
            failed.append(package)
            continue
        seen: set[str] = set()
        for tool in tools:
            if tool["name"] in seen:
                print(
                    f"capture: {package}: duplicate tool name {tool['name']!r} dropped",
                    file=sys.stderr,
                )
                continue
            seen.add(tool["name"])
            day = date or spec.get("date") or capture_date(None)
            records.append(
                make_record(package, version, tool, mcp_version, day, registry=registry(spec))
            )
        print(f"capture: {package}=={version}: {len(seen)} tools ({took:.1f}s)", file=sys.stderr)

    return records, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Capture MCP tool definitions from real servers into JSONL."
    )
    ap.add_argument("--out", default="corpus/captured.jsonl", help="output JSONL path")
    ap.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PKG",
        help="capture only this package (repeatable)",
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        help=f"per-server timeout in seconds (default: the table's, else {DEFAULT_TIMEOUT:g})",
    )
    ap.add_argument("--date", default=None, help="date for notes, YYYY-MM-DD")
    ap.add_argument(
        "--workdir",
        default=DEFAULT_WORKDIR,
        help="scratch directory, wiped first (default %(default)s)",
    )
    ap.add_argument(
        "--venvs",
        default=DEFAULT_VENVS,
        help="directory with one venv per package (default %(default)s)",
    )
    ap.add_argument(
        "--npm-root",
        default=DEFAULT_NPM,
        help="directory with one npm --prefix per npm package (default %(default)s)",
    )
    ap.add_argument(
        "--registry",
        choices=("pypi", "npm"),
        default=None,
        help="capture only the servers from this registry",
    )
    ap.add_argument(
        "--list", action="store_true", help="print the table with installed versions and exit"
    )
    ap.add_argument(
        "--npm-install-commands",
        action="store_true",
        help="print the npm install command of every npm entry and exit",
    )
    ns = ap.parse_args(argv)

    venvs = Path(ns.venvs).resolve()
    npm_root = Path(ns.npm_root).resolve()
    specs = ALL_SERVERS
    if ns.registry:
        specs = [s for s in specs if registry(s) == ns.registry]
    if ns.only:
        known = {s["package"] for s in ALL_SERVERS}
        unknown = [p for p in ns.only if p not in known]
        if unknown:
            print(f"capture: unknown package(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        specs = [s for s in specs if s["package"] in ns.only]

    if ns.npm_install_commands:
        for spec in specs:
            if registry(spec) == "npm":
                print(" ".join(npm_install_argv(spec, npm_root)))
        return 0

    if ns.list:
        for spec in specs:
            _, have = installed(spec, {}, venvs, npm_root)
            print(f"{spec['package']:45} pin {spec['pin']:12} installed {have or '-'}")
        return 0

    try:
        mcp_version = metadata.version("mcp")
    except metadata.PackageNotFoundError:
        print("capture: run this with an interpreter that has the mcp package", file=sys.stderr)
        return 2
    if mcp_version != MCP_PIN:
        print(f"capture: note: client mcp=={mcp_version}, table pins {MCP_PIN}", file=sys.stderr)
    # An explicit date (--date, $CAPTURE_DATE, $SOURCE_DATE_EPOCH) goes on every
    # line; otherwise each entry's own date, the day its lines were committed.
    explicit = ns.date or os.environ.get("CAPTURE_DATE") or os.environ.get("SOURCE_DATE_EPOCH")
    date = capture_date(ns.date) if explicit else None

    fixtures = make_fixtures(Path(ns.workdir).resolve())
    records, failed = capture_all(
        specs,
        fixtures,
        venvs,
        timeout_arg=ns.timeout,
        mcp_version=mcp_version,
        date=date,
        npm_root=npm_root,
    )

    servers = len({r["server"] for r in records})
    print(
        f"capture: {len(records)} tools from {servers} servers; "
        f"{len(failed)} skipped{': ' + ', '.join(failed) if failed else ''}",
        file=sys.stderr,
    )
    if not records:
        return 1
    out = Path(ns.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(dumps_records(records), encoding="utf-8")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
