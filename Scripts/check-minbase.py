#!/usr/bin/env python3
"""Runs a Linux release archive in a bare Debian 12 root: no Swift, curl, libxml2, ICU or SQLite.

Usage: Scripts/check-minbase.py ARCHIVE [--root DIR]

The root is `debootstrap --variant=minbase bookworm`, made once into DIR (default
.build-minbase/bookworm) and reused. As root, through chroot, with /proc mounted for the run:
  - every library the binary names (readelf's NEEDED) is in the root, and the root has none of the
    packages a Swift build links dynamically;
  - --version prints the archive's version;
  - ingest of a JUnit file and of Swift Testing's event stream, then `report flaky --format json`
    and `runs --format json`, read here as JSON;
  - serve and upload on 127.0.0.1: the uploaded run is in the server's ledger; an upload over
    HTTPS (a TLS front with a self-signed certificate) gets through with SSL_CERT_FILE naming it,
    and is refused without;
  - mcp answers initialize and a tools/call;
  - record -- sh -c 'exit 3' exits 3;
then without /proc: --version still reads its arguments, and that record fails, naming /proc.
Fails with the step, the command and what it printed.
"""

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tarfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "fixtures", "formats")
# What a Swift toolchain's binary would otherwise need: none of it may be in the root.
ABSENT_PACKAGES = ("libcurl", "libxml2", "libsqlite3", "libicu", "swiftlang", "libssl")
# Inside the root.
INSTALL = "/opt/testledger"
WORK = "/work"


def fail(message):
    print(f"check-minbase: {message}", file=sys.stderr)
    sys.exit(1)


def make_root(root):
    if os.path.exists(os.path.join(root, "etc", "debian_version")):
        return
    if not shutil.which("debootstrap"):
        fail("no debootstrap to make the Debian 12 root: apt-get install debootstrap")
    partial = root + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(os.path.dirname(root), exist_ok=True)
    started = time.monotonic()
    subprocess.run(
        ["debootstrap", "--variant=minbase", "bookworm", partial, "http://deb.debian.org/debian"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    os.rename(partial, root)
    print(f"check-minbase: made {root} in {time.monotonic() - started:.0f} s", file=sys.stderr)


class Chroot:
    def __init__(self, root, binary):
        self.root = root
        self.binary = binary

    def command(self, *arguments, environment=()):
        return [
            "chroot",
            self.root,
            "/usr/bin/env",
            "-i",
            f"--chdir={WORK}",
            "PATH=/usr/bin:/bin",
            "HOME=/root",
            *environment,
            self.binary,
            *arguments,
        ]

    def run(self, step, *arguments, status=0, stdin=None, environment=()):
        started = time.monotonic()
        done = subprocess.run(
            self.command(*arguments, environment=environment),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != status:
            fail(
                f"{step}: `testledger {' '.join(arguments)}` exited {done.returncode}, not {status}\n"
                f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
            )
        print(f"check-minbase: {step}: ok ({(time.monotonic() - started) * 1000:.0f} ms)", file=sys.stderr)
        return done.stdout

    def json(self, step, *arguments):
        out = self.run(step, *arguments)
        try:
            return json.loads(out)
        except json.JSONDecodeError as error:
            fail(f"{step}: `testledger {' '.join(arguments)}` printed no JSON ({error}): {out[:500]}")


def needed_libraries(path):
    dynamic = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\).*\[(.+)\]", dynamic)


def check_libraries(root, binary):
    packages = subprocess.run(
        ["chroot", root, "dpkg-query", "-W", "-f", "${Package}\n"], capture_output=True, text=True, check=True
    ).stdout.split()
    present = [name for name in packages if name.startswith(ABSENT_PACKAGES)]
    if present:
        fail(f"the root is not bare: it has {', '.join(present)}")
    needed = needed_libraries(os.path.join(root, binary.lstrip("/")))
    if not needed:
        fail(f"readelf found no NEEDED entries in {binary}: not a dynamic executable?")
    folders = (
        "lib",
        "lib64",
        "usr/lib",
        "lib/x86_64-linux-gnu",
        "usr/lib/x86_64-linux-gnu",
        "lib/aarch64-linux-gnu",
        "usr/lib/aarch64-linux-gnu",
    )
    for library in needed:
        if not any(os.path.exists(os.path.join(root, folder, library)) for folder in folders):
            fail(f"{binary} needs {library}, which a minbase Debian 12 does not have")
    print(f"check-minbase: needs only {' '.join(needed)}: all in the root", file=sys.stderr)


def check_serve_and_upload(chroot, junit, https_junit):
    token = chroot.run(
        "token", "token", "create", "--project", "demo", "--scope", "write", "--db", "server.sqlite"
    ).strip()
    server = subprocess.Popen(
        chroot.command("serve", "--port", "0", "--db", "server.sqlite"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        address = None
        started = time.monotonic()
        while address is None and time.monotonic() - started < 60:
            line = server.stdout.readline()
            if not line:
                break
            found = re.search(r"http://127\.0\.0\.1:\d+", line)
            address = found.group(0) if found else None
        if address is None:
            fail("serve: printed no http://127.0.0.1:PORT address")
        upload = ["upload", "--token", token, "--project", "demo", "--spool-dir", "spool", "--retries", "0"]
        chroot.run("upload", *upload, "--url", address, junit)
        check_https_upload(chroot, int(address.rsplit(":", 1)[1]), upload, https_junit)
    finally:
        server.terminate()
        server.wait(timeout=30)
    runs = chroot.json("the server's ledger", "runs", "--db", "server.sqlite", "--format", "json")
    if len(runs) != 2:
        fail(f"serve and upload: the server's ledger holds {len(runs)} runs, not the two uploaded: {runs}")


def tls_front(root, port):
    """A TLS front on 127.0.0.1 for the HTTP server on `port`, with a self-signed certificate for
    127.0.0.1 written into the root's work folder (ca.pem). Returns its port and how to stop it."""
    folder = os.path.join(root, WORK.lstrip("/"))
    cert, key = os.path.join(folder, "ca.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))

    def pump(source, destination):
        try:
            while data := source.recv(65536):
                destination.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, destination):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def relay(raw):
        try:
            secure = context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()  # a client that does not trust the certificate
            return
        upstream = socket.create_connection(("127.0.0.1", port))
        threading.Thread(target=pump, args=(upstream, secure), daemon=True).start()
        pump(secure, upstream)

    def serve():
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=relay, args=(raw,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1], listener.close


def check_https_upload(chroot, port, upload, junit):
    """The release's curl speaks TLS: an upload over HTTPS to a server whose certificate
    SSL_CERT_FILE names gets through; without it, the certificate is refused and nothing is stored
    (the root has no CA certificates of its own)."""
    https, stop = tls_front(chroot.root, port)
    try:
        address = f"https://127.0.0.1:{https}"
        chroot.run("upload over HTTPS", *upload, "--url", address, junit, environment=[f"SSL_CERT_FILE={WORK}/ca.pem"])
        refused = subprocess.run(
            chroot.command(*upload, "--url", address, "events.jsonl"),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        said = refused.stdout + refused.stderr
        if not re.search(r"certificate|SSL|TLS", said, re.I):
            status = refused.returncode
            fail(f"upload over HTTPS without SSL_CERT_FILE: no refusal said (exit {status}): {said[-2000:]}")
        print("check-minbase: upload over HTTPS: trusted with SSL_CERT_FILE, refused without", file=sys.stderr)
    finally:
        stop()


def check_mcp(chroot):
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "check-minbase", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "flaky_tests", "arguments": {}}},
    ]
    process = subprocess.Popen(
        chroot.command("mcp"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    answers = {}
    try:
        for request in requests:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            if "id" not in request:
                continue
            line = process.stdout.readline()
            if not line:
                fail(f"mcp: no answer to {request['method']}; stderr: {process.stderr.read()[-2000:]}")
            answers[request["id"]] = json.loads(line)
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    server = answers[1].get("result", {}).get("serverInfo", {})
    if not server.get("name"):
        fail(f"mcp: initialize answered without serverInfo: {answers[1]}")
    content = answers[2].get("result", {}).get("content", [])
    if answers[2].get("result", {}).get("isError") or not content or "text" not in content[0]:
        fail(f"mcp: flaky_tests answered no text: {answers[2]}")
    json.loads(content[0]["text"])
    print(f"check-minbase: mcp: ok ({server['name']})", file=sys.stderr)


def check_without_proc(chroot, version):
    """A bare chroot has no /proc: the binary still reads its arguments (Swift's runtime looks for
    them through /proc/self/maps), and `record` of a command it cannot start fails the job, saying
    why: a CI job must never pass having run nothing."""
    printed = chroot.run("--version without /proc", "--version").strip()
    if printed != version:
        fail(f"without /proc, --version printed {printed!r}, not {version!r}: the arguments were lost")
    done = subprocess.run(
        chroot.command("record", "--", "sh", "-c", "exit 3"), capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode == 0 or "/proc" not in done.stderr:
        fail(
            f"without /proc, `testledger record -- sh -c 'exit 3'` exited {done.returncode}; it must fail and "
            f"name /proc\nstdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
        )
    print(f"check-minbase: without /proc: record exited {done.returncode}, naming /proc", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--root", default=os.path.join(ROOT, ".build-minbase", "bookworm"))
    options = parser.parse_args()
    if os.geteuid() != 0:
        fail("chroot and debootstrap need root")
    archive = os.path.abspath(options.archive)
    name = os.path.basename(archive).removesuffix(".tar.gz")
    version = re.match(r"testledger-(.+)-linux-[^-]+$", name)
    if not version:
        fail(f"{archive} is not a Linux release archive (testledger-VERSION-linux-ARCH.tar.gz)")
    root = os.path.abspath(options.root)
    make_root(root)

    shutil.rmtree(os.path.join(root, INSTALL.lstrip("/")), ignore_errors=True)
    shutil.rmtree(os.path.join(root, WORK.lstrip("/")), ignore_errors=True)
    os.makedirs(os.path.join(root, INSTALL.lstrip("/")))
    os.makedirs(os.path.join(root, WORK.lstrip("/")))
    with tarfile.open(archive) as tar:
        tar.extractall(os.path.join(root, INSTALL.lstrip("/")), filter="data")
    binary = f"{INSTALL}/{name}/bin/testledger"
    check_libraries(root, binary)
    for source, target in [
        (os.path.join(SHARED, "junit-surefire-flaky.xml"), "flaky.xml"),
        (os.path.join(SHARED, "junit-swiftpm-xctest.xml"), "swiftpm.xml"),
        (os.path.join(ROOT, "Fuzz", "Seeds", "SwiftTesting", "sample-event-stream-v0.jsonl"), "events.jsonl"),
    ]:
        shutil.copy(source, os.path.join(root, WORK.lstrip("/"), target))

    proc = os.path.join(root, "proc")
    subprocess.run(["mount", "-t", "proc", "proc", proc], check=True)
    try:
        chroot = Chroot(root, binary)
        printed = chroot.run("--version", "--version").strip()
        if printed != version.group(1):
            fail(f"--version printed {printed!r}, not {version.group(1)!r}")
        chroot.run("ingest JUnit", "ingest", "flaky.xml")
        chroot.run("ingest an event stream", "ingest", "--format", "swift-testing", "events.jsonl")
        runs = chroot.json("runs", "runs", "--format", "json")
        if len(runs) != 2:
            fail(f"runs: {len(runs)} runs after two ingests: {runs}")
        chroot.json("report flaky", "report", "flaky", "--format", "json")
        check_serve_and_upload(chroot, "swiftpm.xml", "flaky.xml")
        check_mcp(chroot)
        chroot.run("record", "record", "--", "sh", "-c", "exit 3", status=3)
    finally:
        subprocess.run(["umount", proc], check=False)
    check_without_proc(Chroot(root, binary), version.group(1))
    print(f"check-minbase: {name} runs in a bare Debian 12 root", file=sys.stderr)


if __name__ == "__main__":
    main()
