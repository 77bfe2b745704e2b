#!/bin/sh
# Installs the testledger command from a release, checking the archive's SHA-256 against the
# release's SHA256SUMS before anything in it is unpacked or run. POSIX sh (dash, bash, zsh):
#
#   curl -fsSL https://github.com/OWNER/testledger/releases/latest/download/install.sh | sh
#
# `install.sh --help` lists the variables. Any failure leaves nothing installed and exits 1.
set -eu

usage() {
    cat <<'EOF'
Usage: install.sh [--print-version | --help]

Installs testledger from a release, after checking the archive's SHA-256.

  TESTLEDGER_VERSION       the version to install, such as 1.2.3 (default: the newest release)
  TESTLEDGER_INSTALL_DIR   where the command goes (default: ~/.local/bin)
  TESTLEDGER_REPOSITORY    the GitHub repository that publishes them (default: OWNER/testledger,
                           as the release that attached this script filled it in)
  TESTLEDGER_DOWNLOAD_URL  where the releases are
                           (default: https://github.com/$TESTLEDGER_REPOSITORY/releases/download)

It fetches $TESTLEDGER_DOWNLOAD_URL/vVERSION/testledger-VERSION-OS-ARCH.tar.gz and
$TESTLEDGER_DOWNLOAD_URL/vVERSION/SHA256SUMS; OS-ARCH is linux-x86_64, linux-aarch64 or
macos-universal. The newest release is the one GitHub's releases/latest/download/SHA256SUMS
belongs to (with TESTLEDGER_DOWNLOAD_URL set: $TESTLEDGER_DOWNLOAD_URL/latest/SHA256SUMS);
its version is read from the archive's name there.

  --print-version  print the version that would be installed, and exit
Needs curl or wget, tar, and sha256sum or shasum.
EOF
}

fail() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

print_version=false
case ${1:-} in
'') ;;
--print-version) print_version=true ;;
-h | --help) usage && exit 0 ;;
*) usage >&2 && exit 2 ;;
esac

releases=https://github.com/${TESTLEDGER_REPOSITORY:-OWNER/testledger}/releases
base=${TESTLEDGER_DOWNLOAD_URL:-$releases/download}
base=${base%/}
latest=$releases/latest/download
[ -z "${TESTLEDGER_DOWNLOAD_URL:-}" ] || latest=$base/latest

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=macos ;;
*) fail "no release is built for $(uname -s): build testledger from source (see the README)" ;;
esac
case $os-$(uname -m) in
macos-*) arch=universal ;;
*-x86_64 | *-amd64) arch=x86_64 ;;
*-aarch64 | *-arm64) arch=aarch64 ;;
*) fail "no Linux release is built for $(uname -m): build testledger from source (see the README)" ;;
esac

if command -v curl >/dev/null 2>&1; then
    fetch() { curl -fsSL -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
    # --tries=1: a cut download fails here, as with curl, instead of being resumed in silence.
    fetch() { wget -q --tries=1 -O "$2" "$1"; }
else
    fail "needs curl or wget to download: install either"
fi
if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
    fail "needs sha256sum (coreutils) or shasum (perl) to check the download: install either"
fi
command -v tar >/dev/null 2>&1 || fail "needs tar to unpack the download: install it"

# Every download goes into $work, removed on any exit: a failed, cut or unverified download never
# outlives the script.
work=$(mktemp -d "${TMPDIR:-/tmp}/testledger-install.XXXXXX")
trap 'rm -rf "$work" ${staged:+"$staged"}' EXIT
trap 'exit 1' HUP INT TERM

# Downloads URL to FILE; on failure says why, and what to do.
download() {
    status=0
    fetch "$1" "$2" || status=$?
    [ "$status" = 0 ] && return 0
    case $status in
    22 | 8) why="the server answered with an error (no such file?): check TESTLEDGER_VERSION" ;;
    18) why="the download was cut short; the partial file is deleted: try again" ;;
    4) why="the connection failed or the download was cut short; the partial file is deleted: try again" ;;
    *) why="the download failed (exit $status): check the network and TESTLEDGER_DOWNLOAD_URL" ;;
    esac
    fail "could not download $1: $why"
}

if [ -n "${TESTLEDGER_VERSION:-}" ]; then
    version=${TESTLEDGER_VERSION#v}
else
    download "$latest/SHA256SUMS" "$work/latest"
    version=$(sed -n "s/^[0-9a-fA-F]\{64\} [ *]testledger-\(.*\)-$os-$arch\.tar\.gz\$/\1/p" "$work/latest")
    [ -n "$version" ] || fail "$latest/SHA256SUMS names no $os-$arch archive: set TESTLEDGER_VERSION"
fi
case $version in
'' | *[!A-Za-z0-9._+-]*) fail "'$version' is not a version such as 1.2.3: fix TESTLEDGER_VERSION" ;;
esac
if $print_version; then
    echo "$version"
    exit 0
fi

dir=${TESTLEDGER_INSTALL_DIR:-${HOME:?set HOME or TESTLEDGER_INSTALL_DIR}/.local/bin}
name=testledger-$version-$os-$arch
archive=$work/$name.tar.gz
download "$base/v$version/SHA256SUMS" "$work/SHA256SUMS"
expected=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f { print tolower($1); exit }' "$work/SHA256SUMS")
[ -n "$expected" ] || fail "$base/v$version/SHA256SUMS has no line for $name.tar.gz, so it cannot be checked:" \
    "nothing was downloaded or installed; pick another TESTLEDGER_VERSION, or build from source"
download "$base/v$version/$name.tar.gz" "$archive"
actual=$(sha256 "$archive")
if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $name.tar.gz: SHA256SUMS says $expected, the download is $actual;" \
        "it was deleted and nothing was installed: try again, and report it if it persists"
fi

tar -xzf "$archive" -C "$work" "$name/bin/testledger" || fail "$name.tar.gz holds no $name/bin/testledger"
"$work/$name/bin/testledger" --version >/dev/null 2>&1 ||
    fail "the testledger of $name.tar.gz does not run here ($(uname -s) $(uname -m)): nothing was installed;" \
        "on Linux it needs glibc, libcurl4 and libxml2 (apt-get install -y libcurl4 libxml2), else build from source"
mkdir -p "$dir"
# Copied beside the destination, then renamed over it: a running testledger is never half-written.
staged=$dir/.testledger.$$
cp "$work/$name/bin/testledger" "$staged"
chmod 755 "$staged"
mv -f "$staged" "$dir/testledger"
staged=
echo "installed testledger $version to $dir/testledger"
case :${PATH:-}: in
*:"$dir":*) ;;
*) echo "$dir is not on PATH: add it, e.g. export PATH=\"$dir:\$PATH\" in your shell's profile" >&2 ;;
esac
