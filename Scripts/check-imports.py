#!/usr/bin/env python3
"""Fails when a target imports a module that Package.swift does not declare for it.

Usage: Scripts/check-imports.py [--verbose] [PACKAGE_DIR ...]   (the repository's package and Fuzz/ by default)

For every target of the package (read from `swift package dump-package`), lists the modules its
Swift sources import (`import X`, `@testable import X`, `import struct X.Y`,
`@_implementationOnly import X`, `internal import X`, `package import X`, ...) and fails, naming
the target, the file and the module, when a module is neither one of the target's declared
dependencies (a target of the package, or one of the modules a declared product exposes) nor a
module of the toolchain or the system.

Why: SwiftPM lets a target import any module that something else in the build happens to bring
in (NIOCore through Hummingbird, say). Such an import builds today and breaks the day the other
dependency changes, or when the target is built alone. Imports inside multi-line string
literals and block comments (such as the packages the tests write) are not imports and are
ignored.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the platforms: never declared in Package.swift.
SYSTEM_MODULES = {
    "Swift",
    "_Concurrency",
    "_StringProcessing",
    "RegexBuilder",
    "Observation",
    "Distributed",
    "Synchronization",
    "Cxx",
    "CxxStdlib",
    "Foundation",
    "FoundationEssentials",
    "FoundationInternationalization",
    "FoundationNetworking",
    "FoundationXML",
    "CoreFoundation",
    "Dispatch",
    "Glibc",
    "Musl",
    "Android",
    "Bionic",
    "WASILibc",
    "WinSDK",
    "ucrt",
    "CRT",
    "Darwin",
    "os",
    "ObjectiveC",
    "Combine",
    "Security",
    "Network",
    "CoreGraphics",
    "CoreServices",
    "AppKit",
    "UIKit",
    "SwiftUI",
    "XCUIAutomation",
    "XCTest",
    "Testing",
    "PackageDescription",
    "PackagePlugin",
    "SQLite3",
    "CSQLite",
}

# The modules a product exposes, where they are not the one module of the product's name
# (PostgresNIO, AsyncHTTPClient, NIOCore, Crypto, Hummingbird, GRDB, ...): read from the
# dependencies' manifests.
PRODUCT_MODULES = {
    ("grdb.swift", "GRDB-dynamic"): {"GRDB"},
    ("swift-nio", "_NIOFileSystem"): {"_NIOFileSystem", "NIOFileSystem"},
    ("swift-distributed-tracing", "Instrumentation"): {"Instrumentation", "ServiceContextModule"},
    ("swift-service-context", "ServiceContextModule"): {"ServiceContextModuleCompatibility"},
}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)"
)


def dump_package(package_path):
    """The package's manifest, as `swift package dump-package` prints it."""
    out = subprocess.run(
        ["swift", "package", "--package-path", package_path, "dump-package"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def declared_modules(target):
    """The modules `target`'s declared dependencies let it import."""
    modules = set()
    for dependency in target.get("dependencies", []):
        for kind, value in dependency.items():
            if kind in ("byName", "target"):
                modules.add(value[0])
            elif kind == "product":
                name, package = value[0], (value[1] or "").lower()
                modules |= PRODUCT_MODULES.get((package, name), {name})
    return modules


def target_directory(package_path, target):
    """Where the target's sources are: its `path`, else the conventional folder for its type."""
    if target.get("path"):
        return os.path.join(package_path, target["path"])
    folder = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return os.path.join(package_path, folder, target["name"])


def swift_files(directory, excluded):
    """The `.swift` files under `directory`, outside the excluded paths."""
    excluded = [os.path.normpath(os.path.join(directory, e)) for e in excluded]
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if os.path.normpath(os.path.join(root, d)) not in excluded)
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.endswith(".swift") and os.path.normpath(path) not in excluded:
                yield path


def imports(path):
    """(line number, module) for each import in a Swift file, outside strings and block comments."""
    in_string = False
    comment_depth = 0
    with open(path, encoding="utf-8", errors="replace") as source:
        for number, line in enumerate(source, 1):
            if not in_string and comment_depth == 0:
                match = IMPORT.match(line)
                if match:
                    yield number, match.group(1)
            code = line.split("//", 1)[0] if not in_string and comment_depth == 0 else line
            comment_depth = max(0, comment_depth + code.count("/*") - code.count("*/"))
            if comment_depth == 0 and code.count('"""') % 2 == 1:
                in_string = not in_string


def check(package_path, verbose=False):
    """The problems found, one line per target and module, naming the first file that imports it."""
    manifest = dump_package(package_path)
    own_targets = {t["name"] for t in manifest["targets"]}
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary"):
            continue
        allowed = declared_modules(target) | SYSTEM_MODULES | {target["name"]}
        directory = target_directory(package_path, target)
        seen = set()
        undeclared = {}
        files = list(swift_files(directory, target.get("exclude", [])))
        if not files and not any(
            name.endswith((".c", ".m", ".cpp")) for _, _, names in os.walk(directory) for name in names
        ):
            # A folder guessed wrong would pass having read nothing.
            problems.append(f"{target['name']}: no sources found in {os.path.relpath(directory, package_path)}")
        for path in files:
            relative = os.path.relpath(path, package_path)
            for number, module in imports(path):
                seen.add(module)
                if module not in allowed:
                    undeclared.setdefault(module, []).append(f"{relative}:{number}")
        for module, places in sorted(undeclared.items()):
            kind = "target" if module in own_targets else "product"
            more = f" and {len(places) - 1} more" if len(places) > 1 else ""
            problems.append(
                f"{target['name']}: {places[0]}{more} imports {module}, "
                f"which the target does not declare (add the {kind} {module} to its dependencies)"
            )
        if verbose:
            print(f"{target['name']}: {', '.join(sorted(seen)) or '(none)'}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument(
        "packages",
        nargs="*",
        default=[root, os.path.join(root, "Fuzz")],
        help="package folders; the repository's and Fuzz/ by default",
    )
    parser.add_argument("--verbose", action="store_true", help="list every target's imports")
    args = parser.parse_args()
    problems = []
    for package in args.packages:
        problems += [
            f"{os.path.relpath(package, root)}: {problem}" if os.path.abspath(package) != root else problem
            for problem in check(package, args.verbose)
        ]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} undeclared import(s) in Package.swift", file=sys.stderr)
        return 1
    print("every import is declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
