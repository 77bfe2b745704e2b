#!/usr/bin/env python3
"""Fails when a link in README.md or docs/ does not resolve: a relative link must name a file or
folder of the repository, and its #anchor a heading of that file (GitHub's slugs). Links to other
sites are counted, not fetched (CI has no network to the world).

Usage: Scripts/check-links.py [FILE.md ...]   (default: README.md and every .md under docs/)
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(path):
    """The file's lines outside fenced code blocks, with their numbers."""
    fenced = False
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                yield number, re.sub(r"`[^`]*`", "", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    seen, found = {}, set()
    for _, line in prose(path):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def main(files):
    files = files or [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
    )
    broken, local, external = [], 0, 0
    for path in files:
        for number, line in prose(path):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    external += 1
                    continue
                local += 1
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                where = f"{os.path.relpath(path, ROOT)}:{number}"
                if not os.path.exists(resolved):
                    broken.append(f"{where}: {target}: no such file")
                elif anchor and (not resolved.endswith(".md") or anchor not in anchors(resolved)):
                    broken.append(f"{where}: {target}: no heading #{anchor} there")
    for line in broken:
        print(f"check-links: {line}", file=sys.stderr)
    if local == 0:
        print("check-links: found no relative link to check: is the pattern still right?", file=sys.stderr)
        return 1
    print(
        f"check-links: {len(files)} files, {local} relative links ({len(broken)} broken), "
        f"{external} to other sites not fetched",
        file=sys.stderr,
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
