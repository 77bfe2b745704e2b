#!/usr/bin/env bash
# Writes the command reference, docs/reference/testledger.md, from the commands themselves:
# swift-argument-parser's generate-docc-reference reads `testledger --experimental-dump-help`.
#
#   Scripts/reference.sh            write it
#   Scripts/reference.sh --check    fail, showing the difference, when it is stale
#
# Builds testledger and the generator in .build (debug) when they are missing or older.
set -euo pipefail
cd "$(dirname "$0")/.."
reference=docs/reference/testledger.md
check=false
case "${1:-}" in
    "") ;;
    --check) check=true ;;
    *) echo "usage: Scripts/reference.sh [--check]" >&2; exit 2 ;;
esac

swift build --product testledger >&2
swift build --product generate-docc-reference >&2
bin=$(swift build --show-bin-path)
work=$(mktemp -d "${TMPDIR:-/tmp}/testledger-reference.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bin/generate-docc-reference" "$bin/testledger" --style github --output-directory "$work" >&2
[ -s "$work/testledger.md" ] || { echo "reference: generate-docc-reference wrote no testledger.md" >&2; exit 1; }

if $check; then
    if ! diff -u "$reference" "$work/testledger.md" >"$work/diff"; then
        head -n 60 "$work/diff" >&2
        echo "reference: $reference is stale: run Scripts/reference.sh and commit it" >&2
        exit 1
    fi
    echo "reference: $reference is up to date" >&2
else
    mkdir -p "$(dirname "$reference")"
    cp "$work/testledger.md" "$reference"
    echo "reference: wrote $reference" >&2
fi
