#!/usr/bin/env python3
"""Builds the libFuzzer targets of Fuzz/ with AddressSanitizer and runs each over a corpus seeded
from the fixtures and the format references.

Usage: Scripts/fuzz.py [--seconds 60] [--only JUnit,TAP]
       Scripts/fuzz.py --ci        (a fixed seed and number of inputs per target: the same every run)
       Scripts/fuzz.py --list      (the targets, from Fuzz/targets.txt, and their --ci inputs)

First every kept regression input (Fuzz/Regressions/<target>/) is run once, then each target
fuzzes for --seconds, or with --ci for a fixed number of inputs from seed 1 and a fresh corpus, so
that CI's verdict does not depend on the machine's speed or luck. It prints each target's executions per second and the coverage reached
(libFuzzer's `cov`, edges, and `ft`, features), keeps what it finds in .build-fuzz/findings/,
and exits 1 when any target crashed, hung, or ran out of memory. A finding, once fixed, belongs in
Fuzz/Regressions/<target>/ so that it runs every time.
"""

import argparse
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


def read_targets(path=os.path.join(ROOT, "Fuzz", "targets.txt")):
    """The fuzzed parsers and the inputs each runs with --ci, from Fuzz/targets.txt: the list
    Fuzz/Package.swift declares its targets from."""
    targets = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            words = line.split()
            if words and not words[0].startswith("#"):
                targets[words[0]] = int(words[1])
    return targets


# Inputs per target for --ci: about 45 s each on a 2-core machine.
CI_RUNS = read_targets()
TARGETS = list(CI_RUNS)


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
        files = glob.glob(os.path.join(formats, "junit-*.xml"))
        texts = code_blocks(os.path.join(notes, "01-junit-xml.md"))
    elif target == "TAP":
        files = glob.glob(os.path.join(formats, "*.tap"))
        texts = code_blocks(os.path.join(notes, "02-tap.md"))
    elif target == "Bacon":
        texts = code_blocks(os.path.join(notes, "03-bacon.md"))
    elif target == "SwiftTesting":
        texts = code_blocks(os.path.join(notes, "04-swift-testing-event-stream.md"))
    elif target == "RSpec":
        files = glob.glob(os.path.join(formats, "rspec.json"))
        texts = code_blocks(os.path.join(notes, "05-rspec.md"))
    elif target == "XCResult":
        files = glob.glob(os.path.join(formats, "xcresult-*.json")) + glob.glob(
            os.path.join(ROOT, "Tests/Fixtures/XCResultBundle/*.json"))
        texts = code_blocks(os.path.join(notes, "06-xcresult.md"))
    elif target == "Gzip":
        # The first byte picks the chunk size the body arrives in.
        for path in glob.glob(os.path.join(formats, "*"))[:6]:
            texts.append(bytes([7]) + gzip.compress(open(path, "rb").read()))
        texts.append(bytes([0]) + gzip.compress(b"a") + gzip.compress(b"b"))
    # Real outputs kept in the repository: a Swift Testing event stream, Bacon's three outputs.
    files += glob.glob(os.path.join(ROOT, "Fuzz", "Seeds", target, "*"))
    return [open(path, "rb").read() for path in files] + [t if isinstance(t, bytes) else t.encode() for t in texts]


def build():
    runtime = sorted(glob.glob("/opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a")
                     + glob.glob(os.path.join(os.path.dirname(shutil.which("swift") or "/"), "..", "lib", "clang",
                                              "*", "lib", "linux", "libclang_rt.fuzzer_no_main-x86_64.a")))
    if not runtime:
        sys.exit("fuzz: libFuzzer's runtime (libclang_rt.fuzzer_no_main) was not found beside the toolchain")
    # The manifest reads Fuzz/targets.txt, which SwiftPM's manifest cache does not watch.
    command = [
        "swift", "build", "--package-path", os.path.join(ROOT, "Fuzz"), "--scratch-path", SCRATCH, "-c", "release",
        "--manifest-cache", "none",
        "-Xswiftc", "-sanitize=address", "-Xswiftc", "-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp",
        "-Xlinker", runtime[0], "-Xlinker", "-lstdc++",
    ]
    started = time.time()
    subprocess.run(command, check=True)
    print(f"fuzz: built in {time.time() - started:.0f} s", flush=True)


def run(target, seconds, ci):
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
    options = ["-timeout=10", "-rss_limit_mb=2048", "-detect_leaks=0", f"-artifact_prefix={findings}"]
    # Leaks are not looked for: Foundation and the Swift runtime keep caches to the end, which
    # LeakSanitizer would report at exit.
    # Swift seeds its hashing randomly per process, which changes what a run explores; CI's runs
    # must be the same every time.
    environment = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", SWIFT_DETERMINISTIC_HASHING="1")
    regressions = sorted(glob.glob(os.path.join(ROOT, "Fuzz", "Regressions", target, "*")))
    if regressions:
        replay = subprocess.run([binary] + options + regressions, capture_output=True, text=True, env=environment)
        if replay.returncode != 0:
            print(replay.stderr[-3000:])
            return False, f"{target}: a kept regression input fails again"
    started = time.time()
    budget = [f"-runs={CI_RUNS[target]}", "-seed=1"] if ci else [f"-max_total_time={seconds}"]
    result = subprocess.run([binary, corpus] + options + budget + ["-print_final_stats=1"],
                            capture_output=True, text=True, env=environment)
    took = time.time() - started
    log = result.stderr
    executed = re.search(r"stat::number_of_executed_units:\s*(\d+)", log)
    coverage = re.findall(r"cov: (\d+) ft: (\d+)", log)
    runs = int(executed.group(1)) if executed else 0
    edges, features = coverage[-1] if coverage else ("?", "?")
    found = [name for name in os.listdir(findings) if not name.startswith(".")]
    summary = (f"{target}: {runs} executions in {took:.0f} s ({runs / max(took, 1):.0f}/s), coverage {edges} edges, "
               f"{features} features, corpus {len(os.listdir(corpus))}, findings {len(found)}")
    if result.returncode != 0 or found:
        print(log[-4000:])
        return False, summary
    return True, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--only", default=",".join(TARGETS))
    parser.add_argument("--ci", action="store_true", help="a fixed seed and number of inputs per target")
    parser.add_argument("--list", action="store_true", help="print the targets and their --ci inputs, build nothing")
    arguments = parser.parse_args()
    unknown = [target for target in arguments.only.split(",") if target not in CI_RUNS]
    if unknown:
        sys.exit(f"fuzz: no target {', '.join(unknown)} in Fuzz/targets.txt (there are {', '.join(TARGETS)})")
    if arguments.list:
        for target in arguments.only.split(","):
            print(f"Fuzz{target}  {CI_RUNS[target]} inputs with --ci")
        return
    build()
    failed = []
    for target in arguments.only.split(","):
        ok, summary = run(target, arguments.seconds, arguments.ci)
        print(("fuzz: " if ok else "fuzz: FAILED ") + summary, flush=True)
        if not ok:
            failed.append(target)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
