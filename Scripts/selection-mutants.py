#!/usr/bin/env python3
"""Proves `testledger select` by mutation: every test a change breaks must be selected.

On a copy of a Swift package (a fresh git repository, its state committed as `main`), it runs the
suite once with code coverage, records one vouching run (`testledger record --select`), then for
each source target applies mutants to lines its tests execute (a flipped comparison, a changed
integer constant, a removed statement), one at a time and uncommitted. For each mutant it asks
`testledger select --format json` for the selection, runs the whole suite (`swift test
--parallel`, whose xUnit files are read here with Python's own XML parser), and checks that every
test that failed belongs to a selected test target or is a test selection keeps. A mutant that
does not build, or that no test notices, proves nothing and is counted apart.

A test that fails where it should not (in the baseline, or outside the selection of a mutant) is
run again alone, the mutant still applied: one that passes then failed by chance (a loaded
machine), not by the change, and is reported apart as flaky. `--resume` goes on from a run cut
short: the coverage, the vouching run, the baseline and the mutants already in `--json` are kept.

It reports, as JSON and as text: the mutants tried, built and caught, the failing tests and how
many of them were selected (the goal is all, with no exception), and the share of the suite's
test time selection skipped for each single-file change.

With `--in-place` it mutates the package where it is, a git checkout with nothing uncommitted, on
its base branch, and builds in its own `.build` (and `.build-coverage`): what is built already is
not built again. Each mutant is undone with `git checkout` before the next.

Usage: Scripts/selection-mutants.py --package DIR [--in-place] [--testledger PATH] [--per-target N]
           [--seed N] [--targets A,B] [--work DIR] [--json FILE] [--test-arg ARG ...]
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPARISONS = [(" < ", " >= "), (" > ", " <= "), (" <= ", " > "), (" >= ", " < "), (" == ", " != "), (" != ", " == ")]
INTEGER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
# A line that is a whole statement on its own: a call or an assignment, brackets balanced.
STATEMENT = re.compile(r"^\s*(try\s+)?[A-Za-z_][\w.]*(\(.*\)|\s*[-+*/]?=\s*[^=].*)\s*$")
# A line where a comparison decides something, not a type's constraint or a signature.
DECIDES = re.compile(r"\b(if|guard|while|return)\b|&&|\|\||\?\s|[^=!<>]=\s")
NOT_AN_EXPRESSION = re.compile(r"\b(where|func|init|case|subscript)\b|->|@|#")


def run(arguments, cwd, env=None, timeout=None):
    """Runs a command to its end, or kills its whole process group (the test processes too) after
    `timeout` seconds; status 124 then."""
    started = time.monotonic()
    with subprocess.Popen(
        arguments,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    ) as process:
        try:
            output, error = process.communicate(timeout=timeout)
            return process.returncode, output, error, time.monotonic() - started
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, error = process.communicate()
            return 124, output, error, time.monotonic() - started


def copy_package(source, work):
    """The package copied into `work/repo`, committed on `main` in a new repository."""
    repo = os.path.join(work, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    ignored = shutil.ignore_patterns(".build*", ".git", ".swiftpm", ".testledger")
    shutil.copytree(source, repo, ignore=ignored, symlinks=True)
    for command in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=mutants", "-c", "user.email=mutants@localhost", "commit", "-qm", "base"],
    ):
        status, _, error, _ = run(command, repo)
        if status != 0:
            sys.exit(f"selection-mutants: {' '.join(command)} failed in {repo}: {error}")
    exclude(os.path.join(repo, ".git", "info", "exclude"))
    return repo


def checked_in_place(package):
    """The package itself, when it is a git checkout with nothing uncommitted."""
    status, output, error, _ = run(["git", "status", "--porcelain", "--untracked-files=no"], package)
    if status != 0:
        sys.exit(f"selection-mutants: {package} is not a git checkout: {error}")
    if output.strip():
        sys.exit(f"selection-mutants: {package} has uncommitted changes; commit or stash them first")
    _, folder, _, _ = run(["git", "rev-parse", "--git-dir"], package)
    exclude(os.path.join(package, folder.strip(), "info", "exclude"))
    return package


def exclude(path):
    """What the suite writes (executables under coverage write default.profraw) is no change."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a+", encoding="utf-8") as file:
        file.seek(0)
        present = file.read().split("\n")
        missing = [pattern for pattern in (".build*", ".testledger/", "*.profraw") if pattern not in present]
        file.write("".join(f"{pattern}\n" for pattern in missing))


def describe(repo):
    status, output, error, _ = run(["swift", "package", "describe", "--type", "json"], repo)
    if status != 0:
        sys.exit(f"selection-mutants: swift package describe failed in {repo}: {error}")
    return json.loads(output)


def swift_test(repo, scratch, extra, xunit=None, coverage=False, timeout=3600):
    arguments = ["swift", "test", "--scratch-path", scratch] + extra
    if coverage:
        arguments.append("--enable-code-coverage")
    if xunit:
        arguments += ["--parallel", "--xunit-output", xunit]
    return run(arguments, repo, timeout=timeout)


def xunit_results(path):
    """Each test in the xUnit files SwiftPM wrote (XCTest's and Swift Testing's): id → (failed, seconds)."""
    results = {}
    for name in glob.glob(os.path.splitext(path)[0] + "*.xml"):
        for case in ElementTree.parse(name).getroot().iter("testcase"):
            classname, test = case.get("classname", ""), case.get("name", "")
            identifier = f"{classname}/{test}" if "." in classname else f"{classname}.{test}"
            failed = case.find("failure") is not None or case.find("error") is not None
            seconds = float(case.get("time") or 0)
            earlier = results.get(identifier, (False, 0.0))
            results[identifier] = (earlier[0] or failed, earlier[1] + seconds)
    return results


def confirmed(repo, scratch, extra, tests, xunit):
    """The `tests` that fail again when run alone, without building."""
    for stale in glob.glob(os.path.splitext(xunit)[0] + "*.xml"):
        os.remove(stale)
    # XCTest matches `Module.Class/test`; Swift Testing `Module.Suite.test()/File.swift:3:2`.
    names = [escaped for test in tests for escaped in {swift_regex(test), swift_regex(test.replace("/", "."))}]
    pattern = "^(" + "|".join(names) + ")(/|$)"
    swift_test(repo, scratch, extra + ["--skip-build", "--filter", pattern], xunit=xunit)
    results = xunit_results(xunit)
    return [test for test in tests if results.get(test, (True, 0))[0]]


def swift_regex(text):
    """`text` matched literally by a Swift regular expression."""
    return "".join("\\" + character if character in "\\^$.|?*+()[]{}" else character for character in text)


def module(test):
    return re.split(r"[./]", test, maxsplit=1)[0]


def coverage_path(repo, scratch):
    """Where SwiftPM writes the coverage of the suite built in `scratch`; empty when it cannot say."""
    status, output, _, _ = run(["swift", "test", "--scratch-path", scratch, "--show-codecov-path"], repo)
    return output.strip().splitlines()[-1] if status == 0 and output.strip() else ""


def executed_lines(repo, scratch):
    """Executed lines of each source file, from the coverage SwiftPM wrote: path → sorted lines."""
    path = coverage_path(repo, scratch)
    if not os.path.exists(path):
        sys.exit(f"selection-mutants: no coverage at {path!r}")
    with open(path, encoding="utf-8") as file:
        export = json.load(file)
    lines = {}
    for data in export.get("data", []):
        for entry in data.get("files", []):
            name = os.path.realpath(entry["filename"])
            counted = {segment[0] for segment in entry.get("segments", []) if segment[2] > 0 and segment[3]}
            if counted:
                lines[name] = sorted(counted)
    return lines


def balanced(code):
    return all(code.count(open_) == code.count(close) for open_, close in ("()", "[]"))


def mutants_of(line, following):
    """The mutants of one line of Swift that should still build: (what, new line). `following` is
    the next line, which must not continue this one."""
    code = line.split("//")[0]
    if '"' in code or NOT_AN_EXPRESSION.search(code) or not balanced(code):
        return []
    found = []
    if DECIDES.search(code):
        for old, new in COMPARISONS:
            if old in code:
                found.append((f"`{old.strip()}` → `{new.strip()}`", line.replace(old, new, 1)))
                break
    match = INTEGER.search(code)
    if match:
        number = int(match.group(1))
        found.append((f"{number} → {number + 1}", line[: match.start(1)] + str(number + 1) + line[match.end(1) :]))
    continues = following.strip().startswith((".", "?", ":", "+", "-", "*", "/", "&&", "||", "??"))
    if (
        STATEMENT.match(code)
        and "{" not in code
        and "}" not in code
        and not code.rstrip().endswith(("=", ","))
        and not continues
    ):
        found.append(("statement removed", ""))
    return found


def plan(repo, package, executed, per_target, seed, only):
    """Up to `per_target` mutants in each source target, each on a line its tests execute."""
    chooser = random.Random(seed)
    planned = []
    root = os.path.realpath(repo)
    for target in sorted(package["targets"], key=lambda target: target["name"]):
        if target["type"] not in ("library", "executable") or target.get("module_type") != "SwiftTarget":
            continue
        if only and target["name"] not in only:
            continue
        folder = os.path.join(root, target["path"])
        sources = [os.path.join(folder, source) for source in target.get("sources", [])]
        # An executable's coverage is not collected (tests run it as a process): all its lines.
        covered = any(os.path.realpath(path) in executed for path in sources)
        candidates = []
        for path in sources:
            with open(path, encoding="utf-8", errors="replace") as file:
                text = file.read().split("\n")
            lines = executed.get(os.path.realpath(path), []) if covered else range(1, len(text) + 1)
            for number in lines:
                if 1 <= number <= len(text):
                    following = text[number] if number < len(text) else ""
                    candidates += [(path, number, what, new) for what, new in mutants_of(text[number - 1], following)]
        chooser.shuffle(candidates)
        planned += [(target["name"],) + candidate for candidate in candidates[:per_target]]
    if only:  # in the order given: the targets that matter most first, should the run be cut short
        planned.sort(key=lambda mutant: only.index(mutant[0]))
    return planned


def apply(path, number, new):
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    lines[number - 1] = new
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))


def selection(testledger, repo, ledger):
    status, output, error, _ = run([testledger, "select", "--db", ledger, "--base", "main", "--format", "json"], repo)
    if status != 0:
        sys.exit(f"selection-mutants: testledger select failed: {error}")
    chosen = json.loads(output)
    modules = {target["module"] for target in chosen["targets"] if target["runs"]}
    kept = {test["test"] for test in chosen["alwaysRun"]}
    return modules, kept, chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", required=True, help="the package to mutate (copied, never changed)")
    parser.add_argument("--in-place", action="store_true", help="mutate the package itself, undoing each mutant")
    parser.add_argument("--testledger", default=os.path.join(ROOT, ".build", "debug", "testledger"))
    parser.add_argument("--per-target", type=int, default=2, help="mutants per source target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", default="", help="only these source targets, comma-separated, in this order")
    parser.add_argument("--work", default="/tmp/selection-mutants")
    parser.add_argument("--json", help="write the report here too")
    parser.add_argument("--test-arg", action="append", default=[], help="an argument for every swift test")
    parser.add_argument("--resume", action="store_true", help="keep what a run cut short measured and found")
    parser.add_argument(
        "--timeout",
        type=float,
        default=900,
        help="seconds a mutant's build and suite may take (a hang is counted apart)",
    )
    options = parser.parse_args()
    testledger = os.path.abspath(options.testledger)
    os.makedirs(options.work, exist_ok=True)
    if options.in_place:
        repo = checked_in_place(os.path.abspath(options.package))
        scratch, coverage_scratch = os.path.join(repo, ".build"), os.path.join(repo, ".build-coverage")
    else:
        repo = copy_package(os.path.abspath(options.package), options.work)
        scratch, coverage_scratch = os.path.join(options.work, "build"), os.path.join(options.work, "build-coverage")
    ledger = os.path.join(options.work, "ledger.sqlite")
    for stale in [] if options.resume else glob.glob(ledger + "*"):
        os.remove(stale)
    package = describe(repo)
    executed, baseline, flaky = prepare(options, repo, scratch, coverage_scratch, ledger, testledger)
    suite_seconds = sum(seconds for _, seconds in baseline.values()) or 1.0

    only = [name for name in options.targets.split(",") if name]
    mutants = plan(repo, package, executed, options.per_target, options.seed, only)
    report = {"package": os.path.basename(os.path.abspath(options.package)), "mutants": [], "flakyInBaseline": flaky}
    if options.resume and options.json and os.path.exists(options.json):
        with open(options.json, encoding="utf-8") as file:
            report["mutants"] = json.load(file).get("mutants", [])
    done = {(mutant["file"], mutant["line"], mutant["mutant"]) for mutant in report["mutants"]}
    for index, (target, path, number, what, new) in enumerate(mutants, 1):
        relative = os.path.relpath(path, repo)
        if (relative, number, what) in done:
            continue
        print(f"selection-mutants: {index}/{len(mutants)} {relative}:{number} {what}", file=sys.stderr)
        apply(path, number, new)
        try:
            modules, kept, chosen = selection(testledger, repo, ledger)
            xunit = os.path.join(options.work, f"mutant-{index}.xml")
            for stale in glob.glob(os.path.splitext(xunit)[0] + "*.xml"):
                os.remove(stale)
            status, _, _, seconds = swift_test(repo, scratch, options.test_arg, xunit=xunit, timeout=options.timeout)
            results = {} if status == 124 else xunit_results(xunit)
            failing = sorted(test for test, (failed, _) in results.items() if failed)
            outside = [test for test in failing if module(test) not in modules and test not in kept]
            again = os.path.join(options.work, f"mutant-{index}-again.xml")
            missed = confirmed(repo, scratch, options.test_arg, outside, again) if outside else []
        finally:
            run(["git", "checkout", "--", relative], repo)
        chance = [test for test in outside if test not in missed]
        failing = [test for test in failing if test not in chance]
        skipped_seconds = sum(
            s for test, (_, s) in baseline.items() if module(test) not in modules and test not in kept
        )
        report["mutants"].append(
            {
                "target": target,
                "file": relative,
                "line": number,
                "mutant": what,
                "built": bool(results),
                "hung": status == 124,
                "failing": failing,
                "missed": missed,
                "failedByChance": chance,
                "selectedTargets": sorted(modules),
                "everything": chosen.get("everything"),
                "skippedShare": skipped_seconds / suite_seconds,
            }
        )
        if missed:
            print(f"selection-mutants: MISSED {missed}", file=sys.stderr)
        if options.json:  # as it goes, so that a run cut short still tells what it found
            summarise(report, len(baseline), quiet=True)
            with open(options.json, "w", encoding="utf-8") as file:
                json.dump(report, file, indent=2)
    summarise(report, len(baseline))
    if options.json:
        with open(options.json, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=2)
    print(json.dumps(report["summary"], indent=2))
    return 1 if report["summary"]["missedTests"] else 0


def prepare(options, repo, scratch, coverage_scratch, ledger, testledger):
    """The lines the suite executes, the vouching run and the baseline: each test's result and
    time, and the tests that failed in it only by chance. Resuming, each is measured again only
    when it is missing: remove the ledger to record the vouching run again (after a commit, whose
    files every hash covers)."""
    resuming = options.resume
    if not (resuming and os.path.exists(coverage_path(repo, coverage_scratch))):
        print("selection-mutants: measuring coverage", file=sys.stderr)
        status, _, error, _ = swift_test(repo, coverage_scratch, options.test_arg, coverage=True)
        if status != 0:
            sys.exit(f"selection-mutants: the suite fails before any mutant:\n{error[-2000:]}")
    executed = executed_lines(repo, coverage_scratch)
    if not (resuming and os.path.exists(ledger)):
        print("selection-mutants: recording the vouching run", file=sys.stderr)
        status, _, error, _ = run(
            [testledger, "record", "--db", ledger, "--select", "--", "swift", "test", "--scratch-path", scratch]
            + options.test_arg,
            repo,
        )
        if status != 0:
            sys.exit(f"selection-mutants: the vouching run failed:\n{error[-2000:]}")
    xunit = os.path.join(options.work, "baseline.xml")
    if not (resuming and xunit_results(xunit)):
        print("selection-mutants: running the baseline", file=sys.stderr)
        swift_test(repo, scratch, options.test_arg, xunit=xunit)
    baseline = xunit_results(xunit)
    failed = sorted(test for test, (failing, _) in baseline.items() if failing)
    again = os.path.join(options.work, "baseline-again.xml")
    if not baseline or (failed and confirmed(repo, scratch, options.test_arg, failed, again)):
        sys.exit(f"selection-mutants: the baseline suite does not pass: {failed}")
    return executed, baseline, failed


def summarise(report, tests, quiet=False):
    mutants = report["mutants"]
    built = [mutant for mutant in mutants if mutant["built"]]
    caught = [mutant for mutant in built if mutant["failing"]]
    failing = sum(len(mutant["failing"]) for mutant in caught)
    missed = sum(len(mutant["missed"]) for mutant in caught)
    shares = [mutant["skippedShare"] for mutant in built]
    report["summary"] = {
        "tests": tests,
        "mutants": len(mutants),
        "built": len(built),
        "caught": len(caught),
        "failingTests": failing,
        "selectedTests": failing - missed,
        "missedTests": missed,
        "selectedShare": (failing - missed) / failing if failing else None,
        "meanSkippedTimeShare": sum(shares) / len(shares) if shares else None,
        "everythingRuns": sum(1 for mutant in built if mutant["everything"]),
        "hung": sum(1 for mutant in mutants if mutant.get("hung")),
        "failedByChance": sum(len(mutant.get("failedByChance", [])) for mutant in mutants),
        "flakyInBaseline": report.get("flakyInBaseline", []),
    }
    for mutant in [] if quiet else mutants:
        state = (
            "hung (timed out)"
            if mutant.get("hung")
            else "no build"
            if not mutant["built"]
            else (f"{len(mutant['failing'])} failing" if mutant["failing"] else "not caught")
        )
        print(
            f"{mutant['file']}:{mutant['line']} {mutant['mutant']}: {state}, "
            f"{len(mutant['missed'])} missed, {mutant['skippedShare']:.0%} of the test time skipped",
            file=sys.stderr,
        )


if __name__ == "__main__":
    sys.exit(main())
