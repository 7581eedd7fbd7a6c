"""``python -m ui`` is the ``cribbage`` command."""

from __future__ import annotations

import sys

from .cli.entry import main

sys.exit(main())
