#!/usr/bin/env python3
"""Fails when `swift test`'s output shows a skipped test or suite that .ci/allowed-skips does not
name: on CI every tool the tests need is installed, so a skip means a check that quietly did
not run.

Usage: swift test 2>&1 | tee test.log; Scripts/check-skips.py test.log
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Swift Testing: `➜ Test name() skipped: "why"`, `➜ Suite Name skipped.`; XCTest:
# `Test Case '-[Suite test]' skipped (0.001 seconds).`
SKIPPED = re.compile(r"^\S+ (?:Test|Suite) (.+?) skipped(?:: (.*)|\.)$|^Test Case '(.+)' skipped")


ALLOWED_SKIPS = os.path.join(ROOT, ".ci", "allowed-skips")


def allowed(path=ALLOWED_SKIPS):
    """The deliberate skips, one name a line, each with the reason in a comment above it."""
    with open(path, encoding="utf-8") as lines:
        return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def skips(log):
    found = []
    for line in log.splitlines():
        match = SKIPPED.match(line.strip())
        if match:
            found.append((match.group(1) or match.group(3), match.group(2) or ""))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        found = skips(log.read())
    permitted = allowed()
    unexpected = [(name, why) for name, why in found if name not in permitted]
    for name, why in unexpected:
        print(f"check-skips: {name} was skipped: {why or 'no reason given'}", file=sys.stderr)
    if unexpected:
        sys.exit(
            f"check-skips: {len(unexpected)} skip(s) not in .ci/allowed-skips: install what they need, "
            "or name them there with the reason"
        )
    print(f"check-skips: {len(found)} skipped, all of them in .ci/allowed-skips ({len(permitted)} allowed)")


if __name__ == "__main__":
    main()
