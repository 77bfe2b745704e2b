#!/usr/bin/env bash
# Checks that docker/Dockerfile's runtime stage installs every shared library the server links.
#
#   Scripts/check-image-libraries.sh BINARY [DOCKERFILE]
#
# BINARY is a `testledger` built on Debian 12, like the runtime stage: a debug or a release build
# links the same system libraries (only the Swift runtime differs, and the image's build links it
# statically). The libraries are the ones the binary and the Swift runtime's libraries need
# directly (`readelf -d`, resolved by `ldd`); what those need in turn comes with their Debian
# packages' dependencies. Each library's package (`dpkg -S`) must be in the runtime base image or
# named in the runtime stage's `apt-get install`; the check fails naming the packages that are not.
set -euo pipefail

binary=${1:?usage: Scripts/check-image-libraries.sh BINARY [DOCKERFILE]}
dockerfile=${2:-"$(dirname "$0")/../docker/Dockerfile"}
[ -x "$binary" ] || { echo "check-image-libraries: $binary is not an executable" >&2; exit 1; }
[ -f "$dockerfile" ] || { echo "check-image-libraries: no $dockerfile" >&2; exit 1; }

# The runtime base image's packages, from
# `docker run --rm debian:bookworm-slim dpkg-query -W -f '${Package}\n'`.
base_image=debian:bookworm-slim
base_packages=" adduser apt base-files base-passwd bash bsdutils coreutils dash debconf
debian-archive-keyring debianutils diffutils dpkg e2fsprogs findutils gcc-12-base gpgv grep gzip
hostname init-system-helpers libacl1 libapt-pkg6.0 libattr1 libaudit-common libaudit1 libblkid1
libbz2-1.0 libc-bin libc6 libcap-ng0 libcap2 libcom-err2 libcrypt1 libdb5.3 libdebconfclient0
libext2fs2 libffi8 libgcc-s1 libgcrypt20 libgmp10 libgnutls30 libgpg-error0 libhogweed6 libidn2-0
liblz4-1 liblzma5 libmd0 libmount1 libnettle8 libp11-kit0 libpam-modules libpam-modules-bin
libpam-runtime libpam0g libpcre2-8-0 libseccomp2 libselinux1 libsemanage-common libsemanage2
libsepol2 libsmartcols1 libss2 libstdc++6 libsystemd0 libtasn1-6 libtinfo6 libudev1 libunistring2
libuuid1 libxxhash0 libzstd1 login logsave mawk mount ncurses-base ncurses-bin passwd perl-base sed
sysvinit-utils tar tzdata usr-is-merged util-linux util-linux-extra zlib1g "
base_packages=" $(echo $base_packages) "

# The runtime stage: everything after the last FROM.
runtime=$(awk '/^FROM[[:space:]]/ { stage = "" } { stage = stage $0 "\n" } END { printf "%s", stage }' "$dockerfile")
from=$(printf '%s' "$runtime" | awk '/^FROM[[:space:]]/ { print $2; exit }')
if [ "$from" != "$base_image" ]; then
    echo "check-image-libraries: the runtime stage starts FROM $from, but this script lists the packages" \
        "of $base_image: update its base_packages" >&2
    exit 1
fi
# The packages its `apt-get install` lines name (continuation lines joined; options left out).
installed=" $(printf '%s' "$runtime" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
    grep -o 'apt-get install[^&;]*' | sed 's/apt-get install//' | tr ' \t' '\n\n' |
    grep -v '^-' | grep -v '^$' | tr '\n' ' ' || true) "

# Every library the loader finds for the binary, as "NAME PATH"; a library it cannot find fails.
resolved=$(ldd "$binary")
if grep -q 'not found' <<<"$resolved"; then
    echo "check-image-libraries: ldd cannot find libraries of $binary:" >&2
    grep 'not found' <<<"$resolved" >&2
    exit 1
fi
map=$(awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 } $1 ~ /^\// { n = split($1, parts, "/"); print parts[n], $1 }' \
    <<<"$resolved")

# Which Debian package owns each library's file, asked of dpkg once (with merged /usr, dpkg may
# know a file under /usr only).
candidates() { printf '%s\n' "$1" "$(readlink -f "$1")" "/usr$1" "/usr$(readlink -f "$1")"; }
owned=$(while read -r _ path; do candidates "$path"; done <<<"$map" | sort -u | xargs dpkg -S 2>/dev/null || true)
owner() {
    local candidate found
    for candidate in $(candidates "$1"); do
        found=$(awk -v path="$candidate" 'index($0, ": " path) && substr($0, index($0, ": ") + 2) == path {
            print substr($0, 1, index($0, ": ") - 1); exit }' <<<"$owned")
        [ -n "$found" ] && { found=${found%%,*}; echo "${found%%:*}"; return 0; }
    done
    return 1
}

# The binary and the Swift runtime's libraries (no Debian package owns them; the image links
# them statically), whose direct needs are what the image must provide.
objects=("$binary")
while read -r _ path; do
    owner "$path" >/dev/null || objects+=("$path")
done <<<"$map"

needed=$(for object in "${objects[@]}"; do
    readelf -d "$object" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
done | sort -u)

missing=()
report=()
while read -r library; do
    [ -n "$library" ] || continue
    path=$(awk -v name="$library" '$1 == name { print $2; exit }' <<<"$map")
    [ -n "$path" ] || { echo "check-image-libraries: ldd does not resolve $library" >&2; exit 1; }
    package=$(owner "$path") || continue # the Swift runtime itself
    case "$installed" in *" $package "*) report+=("$library ($package, installed)"); continue ;; esac
    case "$base_packages" in *" $package "*) report+=("$library ($package, in $base_image)"); continue ;; esac
    missing+=("$package")
done <<<"$needed"

# Every dynamic binary links libc: a run that placed none of its libraries in a package (no
# NEEDED entries read, dpkg unable to name an owner) checked nothing, and fails.
case " ${report[*]:-} ${missing[*]:-} " in
    *libc6*) ;;
    *)
        echo "check-image-libraries: no library of $(basename "$binary") was traced to a Debian package" \
            "(libc6 at least): readelf -d or dpkg -S found nothing to check" >&2
        exit 1
        ;;
esac
printf '%s\n' "${report[@]}"
if [ ${#missing[@]} -gt 0 ]; then
    missing_list=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
    echo "check-image-libraries: $(basename "$binary") links libraries of packages that $dockerfile's runtime" \
        "stage does not install: ${missing_list% }; add them to its apt-get install line" >&2
    exit 1
fi
echo "check-image-libraries: every library $(basename "$binary") links is in $base_image or installed"
