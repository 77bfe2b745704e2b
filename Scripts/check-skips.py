#!/usr/bin/env python3
"""Fails when `swift test`'s output shows a skipped test or suite that .ci/allowed-skips does not
name: on CI every tool the tests need is installed, so a skip means a check that quietly did
not run. It also fails when it cannot see the canary (a test that always skips, named in
.ci/allowed-skips), which means it no longer reads swift test's skips, and when Swift Testing
ran fewer tests than the floor (.ci/test-floor, or --at-least N): a gate that drops tests
without a skip shows there.

Usage: swift test 2>&1 | tee test.log; Scripts/check-skips.py [--at-least N] test.log
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Swift Testing: `➜ Test name() skipped: "why"`, `➜ Suite Name skipped.`; XCTest:
# `Test Case '-[Suite test]' skipped (0.001 seconds).`
CANARY = "canary()"
# Swift Testing's last line: `✔ Test run with 825 tests in 174 suites passed after 284.0 seconds.`
RAN = re.compile(r"^\S+ Test run with (\d+) tests? ")
SKIPPED = re.compile(r"^\S+ (?:Test|Suite) (.+?) skipped(?:: (.*)|\.)$|^Test Case '(.+)' skipped")


ALLOWED_SKIPS = os.path.join(ROOT, ".ci", "allowed-skips")
TEST_FLOOR = os.path.join(ROOT, ".ci", "test-floor")


def allowed(path=ALLOWED_SKIPS):
    """The deliberate skips, one name a line, each with the reason in a comment above it."""
    with open(path, encoding="utf-8") as lines:
        return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_floor(path=TEST_FLOOR):
    """The fewest tests CI must see run: the file's one number, under its comments."""
    with open(path, encoding="utf-8") as lines:
        numbers = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if len(numbers) != 1 or not numbers[0].isdigit():
        sys.exit(f"check-skips: {path} must hold one number under its comments, not {numbers}")
    return int(numbers[0])


def skips(log):
    found = []
    for line in log.splitlines():
        match = SKIPPED.match(line.strip())
        if match:
            found.append((match.group(1) or match.group(3), match.group(2) or ""))
    return found


def tests_run(log):
    """How many tests Swift Testing says it ran; `None` without its summary line."""
    counts = [int(match.group(1)) for match in map(RAN.match, log.splitlines()) if match]
    return counts[-1] if counts else None


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--at-least"] and len(arguments) > 1 and arguments[1].isdigit():
        floor, arguments = int(arguments[1]), arguments[2:]
    else:
        floor = test_floor()
    if len(arguments) != 1:
        sys.exit(__doc__.strip())
    with open(arguments[0], encoding="utf-8", errors="replace") as file:
        log = file.read()
    found = skips(log)
    ran = tests_run(log)
    if ran is None:
        sys.exit("check-skips: the log has no `Test run with N tests` line: did swift test run Swift Testing?")
    if ran < floor:
        sys.exit(f"check-skips: Swift Testing ran {ran} tests, fewer than the floor {floor}: tests went missing")
    if CANARY not in {name for name, _ in found}:
        sys.exit(
            f"check-skips: the canary {CANARY} was not seen skipped: the log's skips are not being read "
            "(has swift test's output changed?)"
        )
    permitted = allowed()
    unexpected = [(name, why) for name, why in found if name not in permitted]
    for name, why in unexpected:
        print(f"check-skips: {name} was skipped: {why or 'no reason given'}", file=sys.stderr)
    if unexpected:
        sys.exit(
            f"check-skips: {len(unexpected)} skip(s) not in .ci/allowed-skips: install what they need, "
            "or name them there with the reason"
        )
    print(
        f"check-skips: {ran} tests ran; {len(found)} skipped, the canary among them, all of them in "
        f".ci/allowed-skips ({len(permitted)} allowed)"
    )


if __name__ == "__main__":
    main()
