"""``python -m ui`` is the ``cribbage`` command."""

from __future__ import annotations

import sys

try:
    from .cli.cli import main
except KeyboardInterrupt:  # Ctrl-C in the first instants: an interruption, not a traceback
    print("cribbage: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
