#!/usr/bin/env python3
"""Fails when a function in Sources/ is longer than 80 lines, and prints the longest.

Usage: Scripts/check-function-length.py [--limit 80] [--top 5] [FOLDER ...]   (default: Sources)

A function is a `func`, `init` or `subscript` declaration with a body: its length counts the
lines from the declaration's first line to its closing brace. Braces inside string literals
(also multi-line and raw ones) and comments are not counted.
"""

import argparse
import os
import re
import sys

from swift_source import split_code

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLARATION = re.compile(r"\b(?:func\s+[^\s(<]+|init[?!]?|subscript)\s*[(<]")
# A line that starts another declaration: the one before had no body (a protocol's requirement).
NEXT_DECLARATION = re.compile(r"\s*(?:func|var|let|init|case|@|public|private|static)\b")


def functions(path):
    with open(path, encoding="utf-8") as file:
        code = split_code(file.read())[0]
    for match in DECLARATION.finditer(code):
        # The body opens at the first `{` at depth 0 of parentheses after the signature.
        depth, j = 0, match.end() - 1
        while j < len(code):
            c = code[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth == 0:
                break
            elif c in ";}" or (c == "\n" and depth == 0 and NEXT_DECLARATION.match(code, j + 1)):
                j = -1
                break
            j += 1
        if j < 0 or j >= len(code):
            continue  # a requirement without a body
        braces, k = 0, j
        while k < len(code):
            if code[k] == "{":
                braces += 1
            elif code[k] == "}":
                braces -= 1
                if braces == 0:
                    break
            k += 1
        first = code.count("\n", 0, match.start()) + 1
        last = code.count("\n", 0, k) + 1
        name = re.sub(r"\s+", " ", code[match.start() : match.end() - 1]).strip()
        yield last - first + 1, f"{os.path.relpath(path, ROOT)}:{first}", name


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=80)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("folders", nargs="*", default=[os.path.join(ROOT, "Sources")])
    options = parser.parse_args()
    found = []
    for folder in options.folders:
        for directory, _, names in os.walk(folder):
            for name in names:
                if name.endswith(".swift"):
                    found.extend(functions(os.path.join(directory, name)))
    if not found:
        print("check-function-length: found no function: is the pattern still right?", file=sys.stderr)
        return 1
    found.sort(reverse=True)
    print(f"check-function-length: {len(found)} functions; the longest:", file=sys.stderr)
    for lines, where, name in found[: options.top]:
        print(f"  {lines:4} lines  {where}  {name}", file=sys.stderr)
    over = [item for item in found if item[0] > options.limit]
    for lines, where, name in over:
        print(
            f"check-function-length: {where}: {name} is {lines} lines, over {options.limit}: split it", file=sys.stderr
        )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
