"""The built-in checks, one module each, registered as ``mcpscan.checks`` entry points."""
