#!/usr/bin/env python3
"""The load benchmark's command: the package ``scripts/loadbench/`` (its ``__init__`` says what the
benchmark does and which part is where).

    .venv/bin/python scripts/loadbench.py [--players 300] [--deployment embedded|scale] [--rounds 3]
"""

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the package beside this file
    from loadbench.__main__ import main

    sys.exit(main())
