#!/usr/bin/env python3
"""Builds the libFuzzer targets of Fuzz/ with AddressSanitizer and runs each over a corpus seeded
from the fixtures and the format references.

Usage: Scripts/fuzz.py [--seconds 60] [--only JUnit,TAP] [--jobs N]
       Scripts/fuzz.py --ci        (a fixed seed and number of inputs per target: the same every run)
       Scripts/fuzz.py --list      (the targets, from Fuzz/targets.txt, their --ci inputs and floors)

First every kept regression input (Fuzz/Regressions/<target>/) is run once, then each target
fuzzes for --seconds, or with --ci for a fixed number of inputs from seed 1 and a fresh corpus, so
that CI's verdict does not depend on the machine's speed or luck. It prints each target's executions per second
and the coverage reached (libFuzzer's `cov`, edges, and `ft`, features), keeps what it finds in .build-fuzz/findings/,
and exits 1 when any target crashed, hung, or ran out of memory, or did not show that it ran:
- a kept regression input that libFuzzer did not report executing ("Executed <file> in N ms");
- a run that printed no final stats (`stat::number_of_executed_units`) or executed no input;
- with --ci, a run that executed fewer inputs than asked, or whose coverage (libFuzzer's final
  `cov:`, edges) is below the target's floor in Fuzz/targets.txt (without --ci, a warning).
A finding, once fixed, belongs in Fuzz/Regressions/<target>/ so that it runs every time.
"""

import argparse
import concurrent.futures
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
SCRATCH = os.path.join(ROOT, ".build-fuzz")
TARGETS_FILE = os.path.join(ROOT, "Fuzz", "targets.txt")


def read_targets(path=TARGETS_FILE):
    """The fuzzed parsers, the inputs each runs with --ci and the coverage (edges) a --ci run must
    reach, from Fuzz/targets.txt: the list Fuzz/Package.swift declares its targets from."""
    targets = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            words = line.split()
            if words and not words[0].startswith("#"):
                if len(words) != 3 or not all(word.isdigit() for word in words[1:]):
                    sys.exit(
                        f"fuzz: {os.path.relpath(path, ROOT)}:{number}: expected `name  inputs  min-edges`, "
                        f"got {line.strip()!r}"
                    )
                targets[words[0]] = (int(words[1]), int(words[2]))
    if not targets:
        # An empty list would fuzz nothing and pass.
        sys.exit(f"fuzz: {os.path.relpath(path, ROOT)} names no targets")
    return targets


# Per target, the inputs for --ci (about half a minute each on a 2-core machine) and the coverage floor.
CI_TARGETS = read_targets()
CI_RUNS = {target: runs for target, (runs, _) in CI_TARGETS.items()}
MIN_EDGES = {target: edges for target, (_, edges) in CI_TARGETS.items()}
TARGETS = list(CI_TARGETS)
# A floor is set this far below the lower of two --ci runs. --ci is seed 1 with deterministic
# hashing, yet two runs still differ a little (TAP reached 1507, 1458 and 1474 edges), in part
# because ASLR moves the addresses trace-cmp sees compared. A toolchain update may move it too.
FLOOR_MARGIN = 0.04
# libFuzzer's per-input hang limit, in seconds. It was 10 s, but these are AddressSanitizer builds
# with trace-cmp coverage, and CI's machine has 2 shared cores: a slow but legitimate input (the
# slowest in a --ci run took under a second) can stall for many seconds there when the machine is
# busy, and would be reported as a hang. A real hang (a loop that never ends) still trips 60 s.
HANG_TIMEOUT = 60


def code_blocks(markdown):
    """The fenced code blocks of a Markdown file."""
    if not os.path.exists(markdown):
        return []
    return re.findall(r"```[^\n]*\n(.*?)```", open(markdown, encoding="utf-8").read(), re.S)


def seeds(target):
    """What each target starts from: real files, and the examples in the format notes."""
    formats = os.path.join(SHARED, "fixtures", "formats")
    notes = os.path.join(SHARED, "reference", "formats")
    files, texts = [], []
    if target == "LedgerStream":
        texts = code_blocks(os.path.join(ROOT, "Sources/LedgerCore/LedgerCore.docc/EventStream.md"))
    elif target == "JUnit":
        files = sorted(glob.glob(os.path.join(formats, "junit-*.xml")))
        texts = code_blocks(os.path.join(notes, "01-junit-xml.md"))
    elif target == "TAP":
        files = sorted(glob.glob(os.path.join(formats, "*.tap")))
        texts = code_blocks(os.path.join(notes, "02-tap.md"))
    elif target == "Bacon":
        texts = code_blocks(os.path.join(notes, "03-bacon.md"))
    elif target == "SwiftTesting":
        texts = code_blocks(os.path.join(notes, "04-swift-testing-event-stream.md"))
    elif target == "RSpec":
        files = sorted(glob.glob(os.path.join(formats, "rspec.json")))
        texts = code_blocks(os.path.join(notes, "05-rspec.md"))
    elif target == "CTRF":
        # The reports of CTRF's own reporters (and its spec's example); not the schema beside them.
        files = sorted(p for p in glob.glob(os.path.join(ROOT, "Tests/Fixtures/CTRF/*.json")) if "schema" not in p)
    elif target == "XCResult":
        files = sorted(glob.glob(os.path.join(formats, "xcresult-*.json"))) + sorted(
            glob.glob(os.path.join(ROOT, "Tests/Fixtures/XCResultBundle/*.json"))
        )
        texts = code_blocks(os.path.join(notes, "06-xcresult.md"))
    elif target == "Gzip":
        # The first byte picks the chunk size the body arrives in. Sorted, so that the six are the
        # same every run (glob's order is the directory's, which is arbitrary), and stamped with
        # time 0, not the time now, which gzip's header would otherwise hold.
        for path in sorted(glob.glob(os.path.join(formats, "*")))[:6]:
            with open(path, "rb") as sample:
                texts.append(bytes([7]) + gzip.compress(sample.read(), mtime=0))
        texts.append(bytes([0]) + gzip.compress(b"a", mtime=0) + gzip.compress(b"b", mtime=0))
    # Real outputs kept in the repository: a Swift Testing event stream, Bacon's three outputs.
    files += sorted(glob.glob(os.path.join(ROOT, "Fuzz", "Seeds", target, "*")))
    # In a stable order (files sorted, then the notes' examples in the order they appear), so that
    # seed-<n> is the same input, and the corpus the same, on every run.
    return [open(path, "rb").read() for path in files] + [t if isinstance(t, bytes) else t.encode() for t in texts]


def build():
    runtime = sorted(
        glob.glob("/opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a")
        + glob.glob(
            os.path.join(
                os.path.dirname(shutil.which("swift") or "/"),
                "..",
                "lib",
                "clang",
                "*",
                "lib",
                "linux",
                "libclang_rt.fuzzer_no_main-x86_64.a",
            )
        )
    )
    if not runtime:
        sys.exit("fuzz: libFuzzer's runtime (libclang_rt.fuzzer_no_main) was not found beside the toolchain")
    # The manifest reads Fuzz/targets.txt, which SwiftPM's manifest cache does not watch.
    command = [
        "swift",
        "build",
        "--package-path",
        os.path.join(ROOT, "Fuzz"),
        "--scratch-path",
        SCRATCH,
        "-c",
        "release",
        "--manifest-cache",
        "none",
        "-Xswiftc",
        "-sanitize=address",
        "-Xswiftc",
        "-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp",
        "-Xlinker",
        runtime[0],
        "-Xlinker",
        "-lstdc++",
    ]
    started = time.time()
    subprocess.run(command, check=True)
    print(f"fuzz: built in {time.time() - started:.0f} s", flush=True)


def replay(target, binary, options, environment, say):
    """Runs every input kept in Fuzz/Regressions/<target>/ once, and checks from libFuzzer's output
    ("Running: <file>", then "Executed <file> in N ms", for each) that each one was executed.
    Returns (ok, message); what else it has to say goes to `say`."""
    regressions = os.path.join(ROOT, "Fuzz", "Regressions")
    # Without the folder (moved, not checked out) nothing would be replayed and every target pass.
    if not any(os.path.isfile(path) for path in glob.glob(os.path.join(regressions, "*", "*"))):
        return False, f"{target}: {os.path.relpath(regressions, ROOT)} holds no kept inputs: is it checked out?"
    folder = os.path.join(regressions, target)
    kept = sorted(glob.glob(os.path.join(folder, "*")))
    if not kept:
        return True, f"{target}: no kept regression inputs"
    # Only files: given a directory, libFuzzer would fuzz it as a corpus instead of replaying it,
    # so one is left unreplayed, and the count below fails.
    files = [path for path in kept if os.path.isfile(path)]
    log, status = "", 0
    if files:  # (with none, libFuzzer would fuzz from nothing, for ever)
        result = subprocess.run(
            [binary] + options + files, capture_output=True, text=True, env=environment, check=False
        )
        log, status = result.stderr, result.returncode
    started = set(re.findall(r"^Running: (.+)$", log, re.M))
    executed = set(re.findall(r"^Executed (.+) in \d+ ms$", log, re.M))
    replayed = [path for path in kept if path in executed]
    if status != 0:
        say(log[-3000:])
        return False, f"{target}: a kept regression input fails again (libFuzzer exited {status})"
    if len(replayed) != len(kept):
        missing = [
            os.path.relpath(path, ROOT)
            + ("" if os.path.isfile(path) else " (not a file)")
            + (" (started, never finished)" if path in started else "")
            for path in kept
            if path not in executed
        ]
        if log:
            say(log[-3000:])
        return False, (
            f"{target}: {len(replayed)} of {len(kept)} kept regression inputs replayed; "
            f"not executed: {', '.join(missing)}"
        )
    return True, f"{target}: {len(replayed)} kept regression inputs replayed"


def run(target, seconds, ci, say):
    """Replays the target's kept inputs, then fuzzes it; returns (ok, summary). What it says on the
    way goes to `say`, so that targets fuzzed side by side keep their lines apart."""
    binary = os.path.join(SCRATCH, "release", "Fuzz" + target)
    corpus = os.path.join(SCRATCH, "ci-corpus" if ci else "corpus", target)
    if ci:
        shutil.rmtree(corpus, ignore_errors=True)
    findings = os.path.join(SCRATCH, "findings", target) + os.sep
    shutil.rmtree(findings, ignore_errors=True)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(findings, exist_ok=True)
    for index, seed in enumerate(seeds(target)):
        with open(os.path.join(corpus, f"seed-{index}"), "wb") as out:
            out.write(seed)
    options = [f"-timeout={HANG_TIMEOUT}", "-rss_limit_mb=2048", "-detect_leaks=0", f"-artifact_prefix={findings}"]
    # Leaks are not looked for: Foundation and the Swift runtime keep caches to the end, which
    # LeakSanitizer would report at exit.
    # Swift seeds its hashing randomly per process, which changes what a run explores; CI's runs
    # must be the same every time.
    environment = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", SWIFT_DETERMINISTIC_HASHING="1")
    ok, replayed = replay(target, binary, options, environment, say)
    if not ok:
        return False, replayed
    say("fuzz: " + replayed)
    started = time.time()
    budget = [f"-runs={CI_RUNS[target]}", "-seed=1"] if ci else [f"-max_total_time={seconds}"]
    result = subprocess.run(
        [binary, corpus] + options + budget + ["-print_final_stats=1"],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    took = time.time() - started
    log = result.stderr
    executed = re.search(r"^stat::number_of_executed_units:\s*(\d+)", log, re.M)
    slowest = re.search(r"^stat::slowest_unit_time_sec:\s*(\d+)", log, re.M)
    coverage = re.findall(r"\bcov: (\d+) ft: (\d+)", log)
    runs = int(executed.group(1)) if executed else 0
    edges, features = (int(coverage[-1][0]), int(coverage[-1][1])) if coverage else (None, None)
    floor = MIN_EDGES[target]
    found = [name for name in os.listdir(findings) if not name.startswith(".")]
    summary = (
        f"{target}: {runs} executions"
        + (f" (of {CI_RUNS[target]})" if ci else "")
        + f" in {took:.0f} s ({runs / max(took, 1):.0f}/s), coverage {edges if coverage else '?'} edges "
        f"(floor {floor}), {features if coverage else '?'} features, corpus {len(os.listdir(corpus))}, "
        f"findings {len(found)}" + (f", slowest input {slowest.group(1)} s" if slowest else "")
    )
    # Why the run does not count, if it does not: each names the target, the figure and the floor.
    problems = []
    if result.returncode != 0 or found:
        problems.append(
            f"libFuzzer exited {result.returncode} with {len(found)} findings in {os.path.relpath(findings, ROOT)}"
        )
    if not executed:
        problems.append(
            f"{target} printed no final stats (stat::number_of_executed_units): the fuzzer did not run "
            f"to its end (exit status {result.returncode})"
        )
    elif runs == 0:
        problems.append(f"{target} executed 0 inputs")
    elif ci and runs < CI_RUNS[target]:
        problems.append(f"{target} executed {runs} inputs, fewer than the {CI_RUNS[target]} asked for")
    warnings = []
    suggested = int(edges * (1 - FLOOR_MARGIN)) if coverage else None
    new_floor = (
        f"{target}'s min-edges in Fuzz/targets.txt to {suggested} (what this --ci run reached, less {FLOOR_MARGIN:.0%})"
    )
    if executed and runs > 0 and not coverage:
        problems.append(f"{target} printed no coverage (libFuzzer's `cov:`)")
    elif coverage and edges < floor:
        below = (
            f"{target}'s coverage is {edges} edges, below its floor of {floor}: a change left the fuzzer "
            f"unable to reach code it did (a seed lost, an input rejected earlier), or a target that no longer "
            f"exercises its parser"
        )
        if ci:
            problems.append(f"{below}; if that is intended, lower {new_floor}")
        else:
            warnings.append(below + " (a time-bound, random run: the floor is for --ci's)")
    elif ci and coverage and floor and suggested > floor * 1.05:
        warnings.append(
            f"{target}'s coverage rose to {edges} edges, well above its floor of {floor}: to keep "
            f"the gain, raise {new_floor}"
        )
    if ci and floor == 0 and coverage:
        problems.append(f"{target} has no coverage floor (min-edges 0): set {new_floor}")
    for warning in warnings:
        say(f"fuzz: warning: {warning}")
    if problems:
        if result.returncode != 0 or found or not executed:
            say(log[-4000:])  # what libFuzzer said, for a crash, a hang or a run cut short
        for problem in problems:
            say(f"fuzz: {problem}")
        return False, summary
    return True, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--only", default=",".join(TARGETS))
    parser.add_argument("--ci", action="store_true", help="a fixed seed and number of inputs per target")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="targets fuzzed at once (one per core)")
    parser.add_argument(
        "--list", action="store_true", help="print the targets, their --ci inputs and coverage floors, build nothing"
    )
    arguments = parser.parse_args()
    unknown = [target for target in arguments.only.split(",") if target not in CI_RUNS]
    if unknown:
        sys.exit(f"fuzz: no target {', '.join(unknown)} in Fuzz/targets.txt (there are {', '.join(TARGETS)})")
    if arguments.list:
        for target in arguments.only.split(","):
            print(f"Fuzz{target}  {CI_RUNS[target]} inputs with --ci, coverage at least {MIN_EDGES[target]} edges")
        return
    build()
    failed = []
    targets = arguments.only.split(",")

    def fuzz(target):
        lines = []
        ok, summary = run(target, arguments.seconds, arguments.ci, lines.append)
        return ok, summary, lines

    # Each libFuzzer process uses one core: the targets run side by side, one per core, and what
    # each says is printed together, in the list's order. A --ci run's inputs are its seed's,
    # whatever runs beside it.
    with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        for target, (ok, summary, lines) in zip(targets, pool.map(fuzz, targets), strict=True):
            for line in lines:
                print(line, flush=True)
            print(("fuzz: " if ok else "fuzz: FAILED ") + summary, flush=True)
            if not ok:
                failed.append(target)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
