#!/usr/bin/env bash
# Checks a release folder as Scripts/release.sh writes it, without its help:
#
#   Scripts/check-release.sh DIR
#
# - SHA256SUMS holds every archive, the artifact bundle and the gem, and `sha256sum -c` passes;
# - each testledger-VERSION-OS-ARCH.tar.gz holds one folder of that name with bin/testledger
#   (executable; run with --version where it runs here, which must print VERSION), LICENSE, the
#   Bacon formatter, the bash, zsh and fish completions and a man page that renders; its
#   -debug.tar.gz holds the debug information the binary's .gnu_debuglink names; a Linux binary
#   needs no shared library but libc, libm, libstdc++ and libgcc_s;
# - testledger.artifactbundle.zip's info.json parses, is schema 1.0, has a variant for every archive
#   and names only files the zip holds;
# - testledger.rb passes `ruby -c` and carries each archive's URL with that archive's SHA-256 right
#   after it, no placeholder left;
# - the gem is there (where Formatters/bacon has its gemspec), of VERSION, holding the formatter;
# - install.sh is the repository's Scripts/install.sh.
# VERSION is read from DIR/VERSION. Every failure is listed; the exit status is 1 if there was one.
set -euo pipefail

dir=${1:?usage: Scripts/check-release.sh DIR}
[ -d "$dir" ] || { echo "check-release: no folder $dir" >&2; exit 1; }
dir=$(cd "$dir" && pwd)
failures=0
fail() {
    echo "check-release: FAIL: $*" >&2
    failures=$((failures + 1))
}
ok() { echo "check-release: ok: $*"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/testledger-check-release.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -f "$dir/VERSION" ] || { echo "check-release: $dir has no VERSION file" >&2; exit 1; }
version=$(cat "$dir/VERSION")
[ -n "$version" ] || { echo "check-release: $dir/VERSION is empty" >&2; exit 1; }

# ---- Checksums ----

if [ ! -f "$dir/SHA256SUMS" ]; then
    fail "no SHA256SUMS"
elif (cd "$dir" && sha256sum --quiet --strict -c SHA256SUMS); then
    ok "sha256sum -c SHA256SUMS ($(wc -l <"$dir/SHA256SUMS") files)"
else
    fail "sha256sum -c SHA256SUMS"
fi
sum_of() { awk -v name="$1" '$2 == name || $2 == "*" name { print $1 }' "$dir/SHA256SUMS" 2>/dev/null; }
for file in "$dir"/*.tar.gz "$dir"/*.zip "$dir"/*.gem; do
    [ -f "$file" ] || continue
    [ -n "$(sum_of "${file##*/}")" ] || fail "SHA256SUMS has no line for ${file##*/}"
done

# ---- Archives ----

host=$(uname -s)-$(uname -m)
variants=()
for archive in "$dir/testledger-$version-"*.tar.gz; do
    [ -f "$archive" ] || continue
    name=${archive##*/}
    name=${name%.tar.gz}
    case "$name" in *-debug) continue ;; esac
    variant=${name#"testledger-$version-"}
    variants+=("$variant")
    unpacked="$work/$variant"
    mkdir -p "$unpacked"
    if ! tar -xzf "$archive" -C "$unpacked"; then
        fail "$name.tar.gz does not unpack"
        continue
    fi
    tops=$(find "$unpacked" -mindepth 1 -maxdepth 1 | sed "s#^$unpacked/##" | tr '\n' ' ')
    [ "$tops" = "$name " ] || fail "$name.tar.gz holds $tops instead of the one folder $name/"
    top="$unpacked/$name"
    before=$failures
    for file in bin/testledger LICENSE share/testledger/bacon/testledger.rb \
        share/bash-completion/completions/testledger share/zsh/site-functions/_testledger \
        share/fish/vendor_completions.d/testledger.fish share/man/man1/testledger.1; do
        [ -s "$top/$file" ] || fail "$name.tar.gz has no $file (or it is empty)"
    done
    [ -x "$top/bin/testledger" ] || fail "$name.tar.gz: bin/testledger is not executable"

    # Run the binary where it can run: this OS and architecture (a universal binary on macOS).
    runs=false
    case "$variant:$host" in
        linux-x86_64*:Linux-x86_64 | linux-aarch64*:Linux-aarch64 | macos-universal:Darwin-*) runs=true ;;
    esac
    if $runs && [ -x "$top/bin/testledger" ]; then
        printed=$("$top/bin/testledger" --version 2>&1) || fail "$name: bin/testledger --version failed: $printed"
        [ "$printed" = "$version" ] || fail "$name: bin/testledger --version prints '$printed', not $version"
    fi
    case "$variant" in
        linux-*)
            if command -v readelf >/dev/null 2>&1 && [ -f "$top/bin/testledger" ]; then
                readelf -S "$top/bin/testledger" | grep -q '\.debug_info' && fail "$name: bin/testledger is not stripped"
                link=$(readelf --string-dump=.gnu_debuglink "$top/bin/testledger" 2>/dev/null |
                    awk '/\[/ { print $NF; exit }')
                [ "$link" = testledger.debug ] || fail "$name: bin/testledger's .gnu_debuglink names '$link', not testledger.debug"
                # Only the C and C++ runtimes every Linux root has; the musl build needs nothing.
                needed=$(readelf -d "$top/bin/testledger" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
                    grep -Ev '^(libc|libm|libstdc\+\+|libgcc_s)\.so\.[0-9]+$|^ld-linux' | tr '\n' ' ' || true)
                [ -z "$needed" ] || fail "$name: bin/testledger needs $needed(link them statically: Scripts/static-libraries.sh)"
            fi
            debug_file=bin/testledger.debug
            ;;
        *) debug_file=bin/testledger.dSYM ;;
    esac
    if [ ! -f "$dir/$name-debug.tar.gz" ]; then
        fail "no $name-debug.tar.gz"
    else
        mkdir -p "$work/debug-$variant"
        tar -xzf "$dir/$name-debug.tar.gz" -C "$work/debug-$variant" || fail "$name-debug.tar.gz does not unpack"
        [ -e "$work/debug-$variant/$name/$debug_file" ] || fail "$name-debug.tar.gz has no $name/$debug_file"
    fi

    # The completions are scripts of their shells, the formatter is Ruby, the man page renders.
    completions="$top/share/bash-completion/completions/testledger"
    [ ! -f "$completions" ] || bash -n "$completions" || fail "$name: the bash completion script does not parse"
    [ ! -f "$top/share/zsh/site-functions/_testledger" ] ||
        head -n 1 "$top/share/zsh/site-functions/_testledger" | grep -q '^#compdef testledger' ||
        fail "$name: the zsh completion script does not start with #compdef testledger"
    [ ! -f "$top/share/fish/vendor_completions.d/testledger.fish" ] ||
        grep -q "^complete -c '\\{0,1\\}testledger" "$top/share/fish/vendor_completions.d/testledger.fish" ||
        fail "$name: the fish completion script has no \`complete -c testledger\`"
    if command -v ruby >/dev/null 2>&1 && [ -f "$top/share/testledger/bacon/testledger.rb" ]; then
        ruby -c "$top/share/testledger/bacon/testledger.rb" >/dev/null || fail "$name: the Bacon formatter does not parse"
    fi
    page="$top/share/man/man1/testledger.1"
    if [ -f "$page" ]; then
        if command -v groff >/dev/null 2>&1; then
            rendered=$(groff -mandoc -Tutf8 "$page" 2>"$work/groff.err" | col -bx 2>/dev/null || true)
            # generate-manual's pages draw mdoc warnings (an empty line for each blank line of a
            # command's discussion): they are told, not failed.
            [ ! -s "$work/groff.err" ] ||
                echo "check-release: note: $name: groff: $(sort -u "$work/groff.err" | head -n 3 | tr '\n' ';')"
        elif command -v man >/dev/null 2>&1; then
            rendered=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -bx 2>/dev/null || true)
        else
            rendered=$(cat "$page")
        fi
        if ! grep -q 'SYNOPSIS' <<<"$rendered" || ! grep -q 'testledger' <<<"$rendered"; then
            fail "$name: the man page renders without a SYNOPSIS naming testledger"
        fi
    fi
    [ "$failures" -gt "$before" ] || ok "$name.tar.gz ($($runs && echo "runs, --version $version" || echo "not run on $host"))"
done
[ ${#variants[@]} -gt 0 ] || fail "no testledger-$version-OS-ARCH.tar.gz in $dir"

# ---- Artifact bundle ----

zip="$dir/testledger.artifactbundle.zip"
if [ ! -f "$zip" ]; then
    fail "no testledger.artifactbundle.zip"
else
    before=$failures
    mkdir -p "$work/bundle"
    unzip -q "$zip" -d "$work/bundle" || fail "testledger.artifactbundle.zip does not unzip"
    info="$work/bundle/testledger.artifactbundle/info.json"
    if [ ! -f "$info" ]; then
        fail "the artifact bundle has no testledger.artifactbundle/info.json"
    elif ! python3 -m json.tool "$info" >/dev/null; then
        fail "the artifact bundle's info.json does not parse"
    else
        # "schemaVersion", then one "PATH TRIPLE…" line per variant.
        listing=$(python3 - "$info" "$version" <<'EOF'
import json, sys
info = json.load(open(sys.argv[1]))
print(info.get("schemaVersion"))
artifact = info.get("artifacts", {}).get("testledger", {})
if artifact.get("type") != "executable" or artifact.get("version") != sys.argv[2]:
    print("artifact testledger is not an executable of version " + sys.argv[2])
for variant in artifact.get("variants", []):
    print(variant.get("path"), " ".join(variant.get("supportedTriples", [])))
EOF
        )
        [ "$(head -n 1 <<<"$listing")" = "1.0" ] || fail "info.json's schemaVersion is not \"1.0\""
        grep -q '^artifact ' <<<"$listing" && fail "info.json: $(grep '^artifact ' <<<"$listing")"
        while read -r path triples; do
            [ -n "$path" ] || continue
            [ "$path" != artifact ] || continue
            [ -n "$triples" ] || fail "info.json: $path has no supportedTriples"
            [ -x "$work/bundle/testledger.artifactbundle/$path" ] ||
                fail "info.json names $path, which the zip does not hold (executable)"
        done < <(tail -n +2 <<<"$listing")
        for variant in "${variants[@]}"; do
            grep -q "^testledger-$version-$variant/" <<<"$(tail -n +2 <<<"$listing")" ||
                fail "info.json has no variant for testledger-$version-$variant"
        done
    fi
    [ "$failures" -gt "$before" ] || ok "testledger.artifactbundle.zip ($(($(wc -l <<<"$listing") - 1)) variants)"
fi

# ---- Homebrew formula ----

formula="$dir/testledger.rb"
if [ ! -f "$formula" ]; then
    fail "no testledger.rb"
else
    before=$failures
    if command -v ruby >/dev/null 2>&1; then
        ruby -c "$formula" >/dev/null || fail "testledger.rb does not pass ruby -c"
    else
        echo "check-release: note: no ruby here: testledger.rb's syntax is not checked" >&2
    fi
    grep -q "version \"$version\"" "$formula" || fail "testledger.rb does not say version \"$version\""
    for variant in "${variants[@]}"; do
        case "$variant" in *-musl) continue ;; esac # the formula takes the glibc builds
        asset="testledger-$version-$variant.tar.gz"
        grep -q "/releases/download/v$version/$asset\"" "$formula" || fail "testledger.rb has no URL for $asset"
        sum=$(sum_of "$asset")
        # The SHA-256 on the line after the archive's URL: two checksums swapped would each be found.
        beside=$(awk -v asset="/$asset\"" 'index($0, asset) { getline; print; exit }' "$formula")
        if [ -z "$sum" ] || [ "$(echo "$beside" | tr -d ' ')" != "sha256\"$sum\"" ]; then
            fail "testledger.rb does not carry $asset's SHA-256 after its URL (found: ${beside:-nothing})"
        fi
    done
    ! grep -q '@REPOSITORY@\|@VERSION@' "$formula" || fail "testledger.rb keeps @REPOSITORY@ or @VERSION@"
    # A variant built elsewhere (the release workflow's other jobs) keeps its placeholder here.
    left=$(grep -o '@SHA256:[^@]*@' "$formula" | sort -u | tr '\n' ' ' || true)
    [ -z "$left" ] || echo "check-release: note: testledger.rb keeps $left(no such archive in $dir)"
    [ "$failures" -gt "$before" ] || ok "testledger.rb"
fi

# ---- The gem and the install script ----

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -f "$root/Formatters/bacon/testledger-bacon.gemspec" ] && command -v gem >/dev/null 2>&1; then
    gems=("$dir"/testledger-bacon-*.gem)
    if [ ! -f "${gems[0]}" ]; then
        fail "no testledger-bacon gem"
    else
        spec=$(gem spec "${gems[0]}" 2>/dev/null || true)
        gem_version=$(echo "$spec" | awk '/^version:/ { getline; print $2; exit }')
        expected=$(echo "$version" | sed 's/-/.pre./')
        if [ "$gem_version" != "$expected" ]; then
            fail "${gems[0]##*/} is version ${gem_version:-unreadable}, not $expected"
        elif ! echo "$spec" | grep -q "testledger.rb"; then
            fail "${gems[0]##*/} holds no Bacon formatter (testledger.rb)"
        else
            ok "${gems[0]##*/}"
        fi
    fi
fi
if ! cmp -s "$dir/install.sh" "$root/Scripts/install.sh"; then
    fail "install.sh is not the repository's Scripts/install.sh"
else
    ok "install.sh"
fi

if [ "$failures" -gt 0 ]; then
    echo "check-release: $failures failure(s) in $dir" >&2
    exit 1
fi
echo "check-release: $dir is a complete release of $version"
