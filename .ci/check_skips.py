"""Fail CI when a GUI or training test was skipped for a reason not stated as allowed.

Usage: ``python .ci/check_skips.py REPORT.xml [--allow TEXT ...]``, REPORT a pytest
``--junitxml`` file. A skip counts as a GUI or training skip when its test module is a GUI one
or its reason names Arcade, a window or display, torch or the training extra; it passes only if
its reason contains one of the ``--allow`` texts (e.g. ``CRIBBAGE_SLOW`` for the long fuzz
runs). Other skips (an agent needing a model path, a play that ended early) are not checked.
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET

#: skip reasons that mean a GUI or training test did not run
WATCHED = re.compile(
    r"arcade|headless|\bGL\b|window|display|x server|xvfb|torch|sb3|training", re.IGNORECASE
)
#: the GUI tests: every module of tests/ui/gui/, and the table game driven through its window
GUI_MODULES = re.compile(r"\btests\.ui\.gui\.|test_trust_game")


def bad_skips(report: str, allowed: list[str]) -> list[str]:
    """``file::test: reason`` of every skip whose reason contains none of ``allowed``."""
    out = []
    for case in ET.parse(report).getroot().iter("testcase"):
        for skip in case.iter("skipped"):
            reason = skip.get("message", "") + " " + (skip.text or "")
            watched = WATCHED.search(reason) or GUI_MODULES.search(case.get("classname", ""))
            if skip.get("type") == "pytest.xfail" or not watched:
                continue
            if any(a in reason for a in allowed):
                continue
            out.append(f"{case.get('classname')}::{case.get('name')}: {reason.strip()[:200]}")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("report")
    p.add_argument("--allow", action="append", default=[], metavar="TEXT")
    args = p.parse_args()
    bad = bad_skips(args.report, args.allow)
    for line in bad:
        print(f"skipped without an allowed reason: {line}", file=sys.stderr)
    print(f"check_skips: {len(bad)} test(s) skipped without an allowed reason in {args.report}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
