#!/usr/bin/env python3
"""Independent counts for the real-world report corpus.

Reads every file under Tests/Fixtures/RealWorld/<producer>/ (JUnit XML, TAP, RSpec JSON, CTRF JSON)
with nothing but the Python standard library and writes what each holds -- tests, failed, skipped,
attempts -- to Tests/Fixtures/RealWorld/expected.json, so the Swift importers are checked against a
second reading rather than against themselves. The counting rules are the ones in SOURCES.md.

    Scripts/realworld-expected.py           rewrite expected.json
    Scripts/realworld-expected.py --check   exit 1, naming the file, when expected.json is stale
"""

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "RealWorld"
EXPECTED = ROOT / "expected.json"

# Producers (directory names under RealWorld/) whose documentation or source says they write each
# retry of a test as another <testcase> with the same classname and name. Edit this set by hand:
# a file from any other producer reads repeated ids as distinct tests.
RETRY_PRODUCERS = {
    "fastlane-trainer",
    "gotestsum",
    "go-junit-report",
    "xcbeautify",
    "xcpretty",
}

FAILING = {"failed", "error"}
SKIP_STATUSES = {"disabled", "skipped", "notrun"}


def local(tag):
    """The element name without any XML namespace."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def children(element, name):
    """Direct children of element called name (namespace ignored)."""
    return [child for child in element if local(child.tag) == name]


def main_outcome(case):
    """The outcome of a <testcase>'s main attempt."""
    if children(case, "failure"):
        return "failed"
    if children(case, "error"):
        return "error"
    skipped = children(case, "skipped")
    if skipped:
        return "expectedFailure" if skipped[0].get("type") == "pytest.xfail" else "skipped"
    if (case.get("status") or "").strip().lower() in SKIP_STATUSES:
        return "skipped"
    if (case.get("result") or "").strip().lower() == "skipped":
        return "skipped"
    return "passed"


FLAKY = {"flakyFailure": "failed", "flakyError": "error"}
RERUN = {"rerunFailure": "failed", "rerunError": "error"}


def case_attempts(case):
    """Every attempt a <testcase> records, in order: flaky ones, the main one, reruns."""
    before = [FLAKY[local(c.tag)] for c in case if local(c.tag) in FLAKY]
    after = [RERUN[local(c.tag)] for c in case if local(c.tag) in RERUN]
    return before + [main_outcome(case)] + after


def junit_entries(root):
    """(id, attempts) for every <testcase> in document order."""
    entries = []

    def walk(element, suite_name):
        name = local(element.tag)
        if name == "testsuite":
            suite_name = element.get("name")
        if name == "testcase":
            entries.append((case_id(element, suite_name), case_attempts(element)))
        for child in element:
            walk(child, suite_name)

    walk(root, None)
    return entries


def case_id(case, suite_name):
    """`classname/name`, falling back to the enclosing suite's name and to placeholders."""
    classname = case.get("classname")
    if not (classname or "").strip():
        classname = suite_name if (suite_name or "").strip() else "(unknown)"
    name = case.get("name")
    if not (name or "").strip():
        name = "(unnamed)"
    return f"{classname}/{name}"


def group_junit(entries, producer):
    """Fold entries into tests: {id: attempts}, and which rule repeated ids were read by."""
    seen = {}
    for ident, _ in entries:
        seen[ident] = seen.get(ident, 0) + 1
    if all(count == 1 for count in seen.values()):
        return {ident: attempts for ident, attempts in entries}, "none"
    tests = {}
    if producer in RETRY_PRODUCERS:
        for ident, attempts in entries:
            tests.setdefault(ident, []).extend(attempts)
        return tests, "retries"
    count = {}
    for ident, attempts in entries:
        count[ident] = count.get(ident, 0) + 1
        key = ident if count[ident] == 1 else f"{ident} ({count[ident]})"
        tests[key] = attempts
    return tests, "tests"


def read_junit(path, producer):
    """Counts for a JUnit XML file."""
    tests, repeats = group_junit(junit_entries(ET.parse(path).getroot()), producer)
    finals = [attempts[-1] for attempts in tests.values()]
    return {
        "repeats": repeats,
        "tests": len(tests),
        "failed": sum(outcome in FAILING for outcome in finals),
        "skipped": sum(outcome == "skipped" for outcome in finals),
        "attempts": sum(len(attempts) for attempts in tests.values()),
    }


POINT = re.compile(r"^((?: {4})*)(not ok|ok)\b(.*)$")
CLOSE = re.compile(r"^((?: {4})*)\}\s*$")
DIRECTIVE = re.compile(r"(?<!\\)#\s*(skip|todo)", re.IGNORECASE)


def tap_outcome(verdict, rest):
    """passed, failed, skipped or expectedFailure for one test point."""
    directive = DIRECTIVE.search(rest)
    kind = directive.group(1).lower() if directive else ""
    if kind == "skip":
        return "skipped"
    if verdict == "not ok":
        return "expectedFailure" if kind == "todo" else "failed"
    return "passed"


class TapReader:
    """Walks TAP lines, keeping how many points each depth has seen since its parent's last point."""

    def __init__(self):
        self.points = {}
        self.pending = {}
        self.outcomes = []
        self.in_yaml = False

    def close(self, depth, outcome):
        """A point at depth ends: it is a test unless points one level deeper preceded it."""
        is_suite = self.points.get(depth + 1, 0) > 0
        for deeper in [d for d in self.points if d > depth]:
            del self.points[deeper]
        self.points[depth] = self.points.get(depth, 0) + 1
        if not is_suite:
            self.outcomes.append(outcome)

    def line(self, text):
        """Read one line; False once a top-level Bail out! ends the stream."""
        if self.in_yaml:
            self.in_yaml = text.strip() != "..."
            return True
        if text.startswith("Bail out!"):
            return False
        if text.strip() == "---":
            self.in_yaml = True
            return True
        self.point_or_close(text)
        return True

    def point_or_close(self, text):
        """Handle a test point, a buffered subtest's `{` point, or its closing `}`."""
        closing = CLOSE.match(text)
        if closing:
            depth = len(closing.group(1)) // 4
            if depth in self.pending:
                self.close(depth, self.pending.pop(depth))
            return
        point = POINT.match(text)
        if not point:
            return
        depth = len(point.group(1)) // 4
        outcome = tap_outcome(point.group(2), point.group(3))
        if point.group(3).rstrip().endswith("{"):
            for deeper in [d for d in self.points if d > depth]:
                del self.points[deeper]
            self.pending[depth] = outcome
        else:
            self.close(depth, outcome)


def read_tap(path, _producer):
    """Counts for a TAP stream."""
    reader = TapReader()
    for text in path.read_text(encoding="utf-8").splitlines():
        if not reader.line(text):
            break
    outcomes = reader.outcomes
    return {
        "repeats": "none",
        "tests": len(outcomes),
        "failed": outcomes.count("failed"),
        "skipped": outcomes.count("skipped"),
        "attempts": len(outcomes),
    }


def first_object(path):
    """The first complete JSON object in a file, ignoring whatever follows it."""
    text = path.read_text(encoding="utf-8")
    value, _ = json.JSONDecoder().raw_decode(text, text.index("{"))
    return value


def read_rspec(path, _producer):
    """Counts for `rspec --format json` output."""
    statuses = [example.get("status") for example in first_object(path)["examples"]]
    return {
        "repeats": "none",
        "tests": len(statuses),
        "failed": statuses.count("failed"),
        "skipped": statuses.count("pending"),
        "attempts": len(statuses),
    }


def ctrf_runs(test):
    """1 plus the retries a CTRF test records."""
    retries = test.get("retries")
    if isinstance(retries, int) and not isinstance(retries, bool):
        return 1 + retries
    return 1 + len(test.get("retryAttempts") or [])


def read_ctrf(path, _producer):
    """Counts for a CTRF report."""
    tests = first_object(path)["results"]["tests"]
    statuses = [test.get("status") for test in tests]
    # CTRF has no error status: `other` (a test neither passed, failed nor skipped) is not a pass.
    return {
        "repeats": "none",
        "tests": len(tests),
        "failed": sum(status in ("failed", "other") for status in statuses),
        "skipped": sum(status in ("skipped", "pending") for status in statuses),
        "attempts": sum(ctrf_runs(test) for test in tests),
    }


READERS = {"junit": read_junit, "tap": read_tap, "rspec-json": read_rspec, "ctrf": read_ctrf}


def file_format(path):
    """junit, tap, rspec-json or ctrf, from the extension and, for JSON, the top-level keys."""
    suffix = path.suffix.lower()
    if suffix == ".xml":
        return "junit"
    if suffix == ".tap":
        return "tap"
    if suffix == ".json":
        return "ctrf" if "results" in first_object(path) else "rspec-json"
    return None


def corpus():
    """Every corpus file, keyed by its path relative to RealWorld/."""
    files = {}
    for path in sorted(ROOT.glob("*/*")):
        if path.is_file() and file_format(path):
            files[path.relative_to(ROOT).as_posix()] = path
    return files


def expected():
    """What expected.json should say."""
    result = {}
    for key, path in corpus().items():
        fmt = file_format(path)
        producer = path.parent.name
        counts = READERS[fmt](path, producer)
        result[key] = {"format": fmt, "producer": producer, **counts}
    return result


def render(result):
    """expected.json's text."""
    return json.dumps(result, indent=2, sort_keys=True) + "\n"


def check(result):
    """0 when expected.json matches the files, else 1 after naming every file that differs."""
    try:
        recorded = json.loads(EXPECTED.read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        print(f"{EXPECTED}: unreadable ({problem})", file=sys.stderr)
        return 1
    stale = sorted(key for key in set(result) | set(recorded) if result.get(key) != recorded.get(key))
    for key in stale:
        print(f"{key}: expected.json says {recorded.get(key)}, the file gives {result.get(key)}", file=sys.stderr)
    if not stale and render(recorded) != EXPECTED.read_text(encoding="utf-8"):
        print(f"{EXPECTED}: not in canonical form; rerun without --check", file=sys.stderr)
        return 1
    return 1 if stale else 0


def main(argv):
    """Write expected.json, or with --check compare it."""
    result = expected()
    if argv[1:] == ["--check"]:
        return check(result)
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    EXPECTED.write_text(render(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
