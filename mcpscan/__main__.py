"""``python -m mcpscan``: the same command line as ``mcpscan``."""

import sys

from .cli import main

sys.exit(main())
