#!/usr/bin/env bash
# Builds the C libraries a Linux release links statically, so that its binary needs nothing but
# the C and C++ runtimes every Debian, Ubuntu or Fedora root has (libc, libm, libstdc++, libgcc_s).
#
#   Scripts/static-libraries.sh DIR
#
# Foundation's networking and XML modules name their libraries at link time (-lcurl, -lxml2) and
# GRDB names SQLite's (-lsqlite3). DIR, searched before the system's folders, holds an archive for
# each name, so those names link archives:
#   libcurl.a     curl with HTTP and HTTPS only, OpenSSL's and zlib's archives merged in (-lcurl is
#                 the only name Foundation gives); certificates are looked for where OpenSSL looks
#                 (SSL_CERT_FILE and SSL_CERT_DIR, else Debian's /usr/lib/ssl)
#   libxml2.a     libxml2 without ICU, iconv, zlib, lzma, threads or its network code
#   libsqlite3.a  the system's (Debian's libsqlite3-dev)
#   libz.a        the system's (zlib1g-dev), for packages that link -lz
# curl and libxml2 are built from Debian 12's sources, patches applied, fetched from Debian's
# archive and checked against the SHA-256 sums below. A later run with the same pins reuses DIR.
#
# Needs a C compiler, make, curl or wget, xz, patch, and the -dev packages of OpenSSL, zlib and
# SQLite (libssl-dev zlib1g-dev libsqlite3-dev).
set -euo pipefail

fail() {
    echo "static-libraries: $*" >&2
    exit 1
}
note() { echo "static-libraries: $*" >&2; }

out=${1:?usage: Scripts/static-libraries.sh DIR}
archive_url=${TESTLEDGER_DEBIAN_ARCHIVE:-http://deb.debian.org/debian}

# Debian 12's sources: the upstream tarball and Debian's patches. Debian's archive keeps only
# current versions: when one 404s, take the new version's names and sums from its .dsc
# (`apt-get source --download-only curl`, or packages.debian.org/source/bookworm/curl).
curl_pins="pool/main/c/curl
curl_7.88.1.orig.tar.gz cdb38b72e36bc5d33d5b8810f8018ece1baa29a8f215b4495e495ded82bbf3c7
curl_7.88.1-10+deb12u15.debian.tar.xz 961b78bc48492c5693e4decb352ddd176f343260a8956f48b2887874048ef23b"
libxml2_pins="pool/main/libx/libxml2
libxml2_2.9.14+dfsg.orig.tar.xz 4fe913dec8b1ab89d13b489b419a8203176ea39e931eaa0d25b17eafb9c279e9
libxml2_2.9.14+dfsg-1.3~deb12u6.debian.tar.xz f33a99a0018cbb94aadc3bf26661e401cb90dff856aa170faf7239151ee9b9ac"

system_archive() {
    local found
    found=$(find /usr/lib /usr/lib64 -name "$1" 2>/dev/null | head -n 1 || true)
    [ -n "$found" ] || fail "no $1 to link statically: apt-get install $2"
    printf '%s\n' "$found"
}
ssl=$(system_archive libssl.a libssl-dev)
crypto=$(system_archive libcrypto.a libssl-dev)
zlib=$(system_archive libz.a zlib1g-dev)
sqlite=$(system_archive libsqlite3.a libsqlite3-dev)

mkdir -p "$out"
out=$(cd "$out" && pwd)
stamp="$curl_pins $libxml2_pins $ssl $crypto $zlib"
if [ -f "$out/libcurl.a" ] && [ -f "$out/libxml2.a" ] && [ "$(cat "$out/.pins" 2>/dev/null)" = "$stamp" ]; then
    ln -sf "$sqlite" "$out/libsqlite3.a"
    ln -sf "$zlib" "$out/libz.a"
    note "$out is up to date"
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/testledger-static.XXXXXX")
trap 'rm -rf "$work"' EXIT
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

download() { # URL FILE
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$2" "$1"
    else
        wget -q -O "$2" "$1"
    fi || fail "could not download $1 (Debian's archive keeps current versions only: see this script's pins)"
}

# unpack PINS FOLDER: the upstream tarball into FOLDER with Debian's patches applied.
unpack() {
    local path name sum file patch
    path=$(head -n 1 <<<"$1")
    mkdir -p "$work/$2" "$work/$2.debian"
    while read -r name sum; do
        file="$work/$name"
        download "$archive_url/$path/$name" "$file"
        echo "$sum  $file" | sha256sum -c --quiet - >/dev/null 2>&1 ||
            fail "$name does not match its pinned SHA-256 ($sum)"
        case "$name" in
            *.orig.*) tar -xf "$file" -C "$work/$2" --strip-components 1 ;;
            *.debian.*) tar -xf "$file" -C "$work/$2.debian" ;;
        esac
    done < <(tail -n +2 <<<"$1")
    if [ -f "$work/$2.debian/debian/patches/series" ]; then
        while read -r patch _; do
            case "$patch" in '' | '#'*) continue ;; esac
            patch -d "$work/$2" -p1 --quiet --forward <"$work/$2.debian/debian/patches/$patch" ||
                fail "Debian's patch $patch does not apply to $2"
        done <"$work/$2.debian/debian/patches/series"
    fi
    # Patches touch Makefile.am and configure.ac: keep make from asking for automake.
    find "$work/$2" -name aclocal.m4 -exec touch {} +
    sleep 1
    find "$work/$2" \( -name configure -o -name Makefile.in -o -name '*.h.in' \) -exec touch {} +
}

note "building libxml2 from Debian 12's sources"
unpack "$libxml2_pins" libxml2
(
    cd "$work/libxml2"
    ./configure --quiet --disable-shared --enable-static --with-pic --without-icu --without-iconv \
        --without-zlib --without-lzma --without-python --without-http --without-ftp --without-modules \
        --without-threads --without-debug >"$work/libxml2.log" 2>&1
    make -j"$jobs" libxml2.la >>"$work/libxml2.log" 2>&1
) || { tail -n 30 "$work/libxml2.log" >&2; fail "libxml2 did not build"; }

note "building curl (HTTP and HTTPS only) from Debian 12's sources"
unpack "$curl_pins" curl
(
    cd "$work/curl"
    ./configure --quiet --disable-shared --enable-static --with-pic --with-openssl --with-zlib \
        --without-ca-bundle --without-ca-path --with-ca-fallback \
        --disable-ftp --disable-file --disable-ldap --disable-ldaps --disable-rtsp --disable-dict \
        --disable-telnet --disable-tftp --disable-pop3 --disable-imap --disable-smb --disable-smtp \
        --disable-gopher --disable-mqtt --disable-manual --disable-docs \
        --without-libpsl --without-nghttp2 --without-zstd --without-brotli --without-libidn2 \
        --without-librtmp --without-libssh2 --without-gssapi >"$work/curl.log" 2>&1
    make -j"$jobs" -C lib >>"$work/curl.log" 2>&1
) || { tail -n 30 "$work/curl.log" >&2; fail "curl did not build"; }

# One libcurl.a holding OpenSSL and zlib too: Foundation links -lcurl alone.
printf 'CREATE %s\nADDLIB %s\nADDLIB %s\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' "$work/libcurl.a" \
    "$work/curl/lib/.libs/libcurl.a" "$ssl" "$crypto" "$zlib" | ar -M
ranlib "$work/libcurl.a"
cp "$work/libcurl.a" "$out/libcurl.a"
cp "$work/libxml2/.libs/libxml2.a" "$out/libxml2.a"
ln -sf "$sqlite" "$out/libsqlite3.a"
ln -sf "$zlib" "$out/libz.a"
printf '%s' "$stamp" >"$out/.pins"
note "wrote libcurl.a, libxml2.a, libsqlite3.a and libz.a into $out"
