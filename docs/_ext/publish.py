"""What a page may not carry, and the one filter the lab notebook goes through to become a page.

A reader must be able to reproduce a page: no absolute path of the machine it was written on, no
issue number and no deadline (history lives in git and the changelog). ``benchmarks/RESULTS.md``
and the results files are the lab's notebook, written as the work went; :func:`publish` makes
their machine paths relative (``/tmp/master/head_ex.sqlite`` -> ``master/head_ex.sqlite``, a
checkout's own path -> its path inside the repository, so a command runs from a checkout) and
drops issue references and deadline remarks. :func:`problems` finds what is left: the build
fails on any (``cribbage_docs``), and ``tests/docs/test_docs_clean.py`` checks the pages and the
built site.
"""

from __future__ import annotations

import re

#: The roots of a machine's own files: a checkout (``/work/main``, ``/work/wt/NAME``), the
#: scratch folders and home folders. What follows the root is kept, as a relative path.
_CHECKOUT = r"/work/(?:main|wt/[\w.-]+|ci\d*)/"
_ROOT = r"(?:/work|/tmp|/var/tmp|/root|/home/[\w.-]+|/Users/[\w.-]+)/"
#: An absolute path of a machine (not a URL's path: no ``:/`` or word character before it).
ABSOLUTE = re.compile(rf"(?<![\w.:/~-])(?:{_CHECKOUT}|{_ROOT})(?=[\w.-])")
ISSUE = re.compile(
    r"\b[Ii]ssues? #?\d+(?:\.\d+)?(?:(?:,| and|,? item| round|, leak)\s*\d+(?:\.\d+)?)*"
)
DEADLINE = re.compile(r"\bdeadlines?\b", re.I)

_I = ISSUE.pattern
_SUBS = (
    (re.compile(r",?\s*(?:for|before|at) the deadline"), ""),  # "cut at 20:50 for the deadline"
    (re.compile(rf"\s*\(\s*{_I}\s*\)"), ""),  # "Environments (issue 4): ..."
    (re.compile(rf"\(\s*{_I}\s*[;,:]\s*"), "("),  # "(issue 29; 2026-12-01 19:30 UTC, ..."
    (re.compile(rf"(?:[,;]|\s+in)\s+{_I}\s*(?=\))"), ""),  # "(333 MB at 100k games, issue 15)"
    (re.compile(rf"{_I}(?:'s)?\s*"), ""),  # "the issue 7 table" -> "the table"
)


def publish(text: str) -> str:
    """``text`` with machine paths relative and issue references and deadline remarks dropped.

    >>> publish("--db /work/out/ladder.sqlite (issue 27), cut for the deadline; see /work/main/docs")
    '--db out/ladder.sqlite, cut; see docs'
    >>> publish("Measured (issue 29; 2026-12-01 19:30 UTC, load 2)")
    'Measured (2026-12-01 19:30 UTC, load 2)'
    >>> publish("tests (issue 8.4 and 8.6), in the issue 8 section (333 MB, issue 15)")
    'tests, in the section (333 MB)'
    >>> publish("https://example.org/tmp/x stays")
    'https://example.org/tmp/x stays'
    """
    text = ABSOLUTE.sub("", text)
    for pattern, new in _SUBS:
        text = pattern.sub(new, text)
    return text


def problems(text: str) -> list[str]:
    """Each absolute machine path, issue number or deadline left in ``text`` (with its line).

    >>> problems("ok\\nsee issue 4\\n--db /tmp/x.sqlite")
    ['line 2: issue 4', 'line 3: /tmp/']
    """
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        for pattern in (ISSUE, ABSOLUTE, DEADLINE):
            out += [f"line {no}: {m.group(0)}" for m in pattern.finditer(line)]
    return out
