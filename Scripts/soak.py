#!/usr/bin/env python3
"""Fault soaks for testledger: kill -9 at random moments, a full disk, a read-only ledger, and a
server under concurrent uploads, slow clients, a gzip bomb and restarts.

Usage: Scripts/soak.py [--binary .build/debug/testledger] [--kills 20] [--seed N]

Each check prints what it did and what it found; the script exits 1 when any promise broke:
the ledger passes `PRAGMA integrity_check`, an input is stored whole or not at all, a recorder's
journal is stored by the next opener, a cut run reads `interrupted`, a full or read-only ledger
gets an error naming it while the tests still run, and every upload the server accepted is
counted once. The full-disk and read-only checks mount a small tmpfs, so they need root; without
it they say so and are skipped.
"""

import argparse
import contextlib
import gzip
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print(f"  FAILED: {what}", flush=True)
    return condition


def integrity(db):
    return scalar(db, "PRAGMA integrity_check") == "ok"


def scalar(db, sql, *args):
    # closing(): sqlite3's own context manager commits but leaves the connection open.
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql, args).fetchone()[0]


class Soak:
    def __init__(self, binary, kills, folder):
        self.binary = binary
        self.kills = kills
        self.folder = folder
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith("TESTLEDGER_")}
        self.environment["TESTLEDGER_PROGRESS"] = "never"

    def run(self, arguments, **options):
        return subprocess.run([self.binary] + arguments, env=self.environment, capture_output=True, text=True,
                              **options)

    def ledger_stream(self, name, tests):
        """A Ledger event stream of one run with `tests` results; returns its path and run id."""
        run = str(uuid.uuid4())
        path = os.path.join(self.folder, name)
        with open(path, "w") as out:
            out.write(json.dumps({"v": 1, "type": "run.start", "run": run, "at": 1.7e9, "project": "Soak",
                                  "source": "soak"}) + "\n")
            for index in range(tests):
                test = f"Soak.Suite/test{index}"
                out.write(json.dumps({"v": 1, "type": "test.start", "run": run, "at": 1.7e9, "test": test,
                                      "attempt": 1}) + "\n")
                out.write(json.dumps({"v": 1, "type": "test.end", "run": run, "at": 1.7e9 + 1, "test": test,
                                      "attempt": 1, "outcome": "passed", "duration": 0.5}) + "\n")
            out.write(json.dumps({"v": 1, "type": "run.end", "run": run, "at": 1.7e9 + 2}) + "\n")
        return path, run

    def kill_at_random(self, arguments, low, high, **options):
        """Starts the command in its own process group and kill -9s the group after a random delay;
        returns whether it was still running then."""
        process = subprocess.Popen([self.binary] + arguments, env=self.environment, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True, **options)
        time.sleep(random.uniform(low, high))
        running = process.poll() is None
        if running:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return running

    # kill -9 during `ingest`: each input is stored whole or not at all.
    def ingest_kills(self):
        db = os.path.join(self.folder, "ingest.sqlite")
        tests = 60_000
        path, run = self.ledger_stream("ingest.ndjson", tests)
        self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")])
        cut = 0
        for _ in range(self.kills):
            cut += self.kill_at_random(["ingest", "--db", db, path], 0.05, 1.2)
            stored = scalar(db, "SELECT count(*) FROM result r JOIN run ON run.id = r.runId WHERE run.uuid = ?", run)
            check(integrity(db), "ingest: integrity_check after kill -9")
            check(stored in (0, tests), f"ingest: the run is whole or absent, not {stored} of {tests} results")
        final = self.run(["ingest", "--db", db, path])
        stored = scalar(db, "SELECT count(*) FROM result r JOIN run ON run.id = r.runId WHERE run.uuid = ?", run)
        check(final.returncode == 0 and stored == tests, f"ingest: stored once afterwards ({stored})")
        print(f"ingest: {self.kills} kill -9s, {cut} mid-ingest; every time whole or absent; integrity ok")

    # kill -9 of `record`: the test process's journal is stored by the next opener, the run interrupted.
    def record_kills(self):
        db = os.path.join(self.folder, "record.sqlite")
        journal_lines = 50
        script = (
            'mkdir -p "$TESTLEDGER_DB.pending"; j="$TESTLEDGER_DB.pending/$TESTLEDGER_RUN-$$.ndjson"; '
            f'i=0; while [ $i -lt {journal_lines} ]; do '
            'printf \'{"v":1,"type":"test.start","run":"%s","at":1700000000,"test":"Rec/t%s","attempt":1}\\n'
            '{"v":1,"type":"test.end","run":"%s","at":1700000001,"test":"Rec/t%s","attempt":1,'
            '"outcome":"passed","duration":1}\\n\' "$TESTLEDGER_RUN" $i "$TESTLEDGER_RUN" $i >> "$j"; '
            'i=$((i+1)); done; sleep 30'
        )
        cut = recovered = 0
        for _ in range(self.kills):
            before = set(r["id"] for r in self.runs(db))
            cut += self.kill_at_random(["record", "--db", db, "--project", "Soak", "--", "sh", "-c", script],
                                       0.1, 0.9)
            # The test processes outlive a killed `record` (each is in a process group of its own); a
            # job that is cut ends them too.
            pending = os.path.join(db + ".pending")
            for name in os.listdir(pending) if os.path.isdir(pending) else []:
                try:
                    os.kill(int(name.rsplit("-", 1)[1].split(".")[0]), signal.SIGKILL)
                except (ValueError, ProcessLookupError):
                    pass
            time.sleep(0.05)
            after = self.runs(db)  # the next opener stores what the recorder left
            new = [r for r in after if r["id"] not in before]
            left = os.listdir(pending) if os.path.isdir(pending) else []
            check(integrity(db), "record: integrity_check after kill -9")
            check(not left, f"record: journals left after the next opener: {left}")
            for r in new:
                check(r["status"] == "interrupted", f"record: a cut run reads {r['status']}, not interrupted")
                check(r["tests"] in (0, journal_lines) or r["tests"] <= journal_lines,
                      f"record: {r['tests']} tests from a journal of {journal_lines}")
                recovered += r["tests"] > 0
        print(f"record: {self.kills} kill -9s ({cut} while the tests ran); {recovered} journals recovered by the "
              f"next opener; every cut run interrupted; integrity ok")

    def runs(self, db):
        listed = self.run(["runs", "--db", db, "--format", "json", "--limit", "1000"])
        return json.loads(listed.stdout) if listed.returncode == 0 else []

    # kill -9 of `format` while a runner's output streams in: what was stored is complete and the
    # run interrupted.
    def format_kills(self):
        db = os.path.join(self.folder, "format.sqlite")
        lines = ["TAP version 13", "1..400"] + [f"ok {i} - spec {i}" for i in range(1, 401)]
        cut = 0
        for _ in range(self.kills):
            process = subprocess.Popen([self.binary, "format", "--db", db, "--project", "Soak", "--from", "tap"],
                                       env=self.environment, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True, text=True)
            deadline = time.time() + random.uniform(0.1, 0.8)
            try:
                for line in lines:
                    process.stdin.write(line + "\n")
                    process.stdin.flush()
                    time.sleep(0.001)
                    if time.time() > deadline:
                        break
            except BrokenPipeError:
                pass
            cut += process.poll() is None
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            check(integrity(db), "format: integrity_check after kill -9")
        runs = self.runs(db)
        unended = [r for r in runs if r["status"] not in ("interrupted", "passed", "failed", "finished")]
        check(not unended, f"format: runs neither ended nor interrupted: {unended}")
        incomplete = scalar(db, "SELECT count(*) FROM result WHERE outcome IS NULL")
        check(all(r["status"] == "interrupted" for r in runs), "format: every cut run reads interrupted")
        print(f"format: {self.kills} kill -9s while 400 TAP lines streamed ({cut} mid-stream); {len(runs)} runs, "
              f"all interrupted, {incomplete} attempts left running; integrity ok")

    def start_server(self, db):
        process = subprocess.Popen([self.binary, "serve", "--db", db, "--port", "0"], env=self.environment,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                   start_new_session=True)
        line = process.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        return process, f"http://127.0.0.1:{port}"

    @staticmethod
    def post(base, token, body, headers=None, timeout=30):
        request = urllib.request.Request(base + "/api/v1/events", data=body, method="POST")
        request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, ConnectionError, socket.timeout, OSError):
            return 0

    def upload(self, index, tests=20):
        run = str(uuid.UUID(int=index + 1))
        events = [{"v": 1, "type": "run.start", "run": run, "at": 1.7e9 + index, "project": "Soak",
                   "source": "soak"}]
        for t in range(tests):
            events += [{"v": 1, "type": "test.start", "run": run, "at": 1.7e9 + index, "test": f"Up/t{t}",
                        "attempt": 1},
                       {"v": 1, "type": "test.end", "run": run, "at": 1.7e9 + index, "test": f"Up/t{t}",
                        "attempt": 1, "outcome": "passed", "duration": 0.1}]
        events.append({"v": 1, "type": "run.end", "run": run, "at": 1.7e9 + index + 1})
        return "".join(json.dumps(e) + "\n" for e in events).encode()

    # kill -9 of `serve` in the middle of uploads, restarted: every accepted upload counted once.
    def serve_kills(self):
        db = os.path.join(self.folder, "serve.sqlite")
        token = self.run(["token", "create", "--db", db, "--project", "Soak", "--scope", "write"]).stdout.strip()
        uploads, per = 100, 20
        pending = list(range(uploads))
        accepted = resent = 0
        restarts = 0
        while (pending or restarts < self.kills) and restarts <= self.kills + 5:
            if restarts < self.kills:  # fresh uploads for each start, so that every kill lands mid-upload
                pending += list(range(uploads, uploads + 20))
                uploads += 20
            process, base = self.start_server(db)
            killer = threading.Timer(random.uniform(0.2, 0.8), lambda p=process: os.killpg(p.pid, signal.SIGKILL))
            if restarts < self.kills:
                killer.start()
            failed = []
            for index in pending:
                status = self.post(base, token, self.upload(index, per), timeout=5)
                if status == 201:
                    accepted += 1
                    if random.random() < 0.1:  # a client that did not hear the answer sends again
                        resent += 1
                        failed.append(index)
                else:
                    failed.append(index)
            killer.cancel()
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            restarts += 1
            check(integrity(db), "serve: integrity_check after kill -9")
            pending = failed
        stored = scalar(db, "SELECT count(*) FROM result")
        runs = scalar(db, "SELECT count(*) FROM run")
        check(not pending, f"serve: {len(pending)} uploads never accepted")
        check(stored == uploads * per and runs == uploads,
              f"serve: {stored} results in {runs} runs, expected {uploads * per} in {uploads}")
        print(f"serve: {restarts} starts, {min(restarts, self.kills)} kill -9s mid-upload; {accepted} uploads "
              f"accepted ({resent} sent again on purpose); {stored} results in {runs} runs: each counted once")

    # The server under 50 concurrent uploads, slow clients and a gzip bomb.
    def serve_load(self):
        db = os.path.join(self.folder, "load.sqlite")
        token = self.run(["token", "create", "--db", db, "--project", "Soak", "--scope", "write"]).stdout.strip()
        process, base = self.start_server(db)
        try:
            statuses = []
            threads = [threading.Thread(target=lambda i=i: statuses.append(self.post(base, token,
                                                                                    self.upload(1000 + i))))
                       for i in range(50)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            check(statuses.count(201) == 50, f"load: 50 concurrent uploads, {statuses.count(201)} accepted")
            check(scalar(db, "SELECT count(*) FROM run") == 50, "load: 50 runs stored")

            # Slow clients: 100 connections trickling a request's headers, while /healthz answers.
            host, port = base.rsplit(":", 1)[0].split("//")[1], int(base.rsplit(":", 1)[1])
            slow = []
            for _ in range(100):
                connection = socket.create_connection((host, port))
                connection.sendall(b"POST /api/v1/events HTTP/1.1\r\nHost: x\r\n")
                slow.append(connection)
            worst = 0.0
            until = time.time() + 3
            while time.time() < until:
                for connection in slow:
                    try:
                        connection.sendall(b"X-Slow: 1\r\n")
                    except OSError:
                        pass
                started = time.time()
                with urllib.request.urlopen(base + "/healthz", timeout=10) as answer:
                    check(answer.status == 200, "load: /healthz while slow clients trickle")
                worst = max(worst, time.time() - started)
                time.sleep(0.2)
            for connection in slow:
                connection.close()
            check(worst < 1.0, f"load: /healthz took {worst:.3f} s with 100 slow clients")

            # A gzip bomb: 1 GiB of zeros in about 1 MiB, refused at the limit without being held.
            bomb = gzip.compress(b"\0" * (256 << 20), compresslevel=9) * 4
            started = time.time()
            status = self.post(base, token, bomb, {"Content-Encoding": "gzip"})
            took = time.time() - started
            check(status == 413, f"load: a gzip bomb got {status}, not 413")
            check(process.poll() is None, "load: the server survived the bomb")
            print(f"load: 50 concurrent uploads all accepted; /healthz at most {worst * 1000:.0f} ms with 100 slow "
                  f"clients; a {len(bomb) >> 10} KiB gzip bomb (1 GiB inside) got {status} in {took:.2f} s")
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()

    # A full disk and a read-only ledger: a clear error naming the path, the ledger intact, and the
    # tests under `record` still run.
    def disk_faults(self):
        mount = os.path.join(self.folder, "small")
        os.makedirs(mount)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount],
                          capture_output=True).returncode != 0:
            print("disk: skipped, mounting a small tmpfs needs root")
            return
        try:
            db = os.path.join(mount, "ledger.sqlite")
            check(self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")]).returncode == 0,
                  "disk: the first ingest fits")
            big, _ = self.ledger_stream("big.ndjson", 40_000)
            full = self.run(["ingest", "--db", db, big])
            check(full.returncode != 0, "disk: a full disk exits non-zero")
            check(db in full.stderr and "disk is full" in full.stderr, f"disk: the error names the path: {full.stderr}")
            check(integrity(db) and scalar(db, "SELECT count(*) FROM result") == 1, "disk: the ledger is intact")
            ran = self.run(["record", "--db", db, "--junit", big, "--", "sh", "-c", "echo the tests ran; exit 0"])
            check("the tests ran" in ran.stdout, "disk: the tests under record ran")
            check(ran.returncode != 0 and db in ran.stderr, f"disk: record says it could not store: {ran.stderr}")

            remount = subprocess.run(["mount", "-o", "remount,ro", mount], capture_output=True, text=True)
            if not check(remount.returncode == 0, f"disk: remount read-only: {remount.stderr.strip()}"):
                return
            readonly = self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")])
            check(readonly.returncode != 0 and db in readonly.stderr, f"disk: read-only is named: {readonly.stderr}")
            ran = self.run(["record", "--db", db, "--", "sh", "-c", "echo the tests ran; exit 3"])
            check("the tests ran" in ran.stdout and ran.returncode == 3,
                  "disk: on a read-only ledger, record runs the tests and keeps their status")
            print("disk: a full 2 MiB disk and a read-only ledger both get an error naming the file, exit non-zero, "
                  "leave the ledger intact, and let the tests under record run")
        finally:
            subprocess.run(["umount", mount], capture_output=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/debug/testledger")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    arguments = parser.parse_args()
    random.seed(arguments.seed)
    print(f"soak: seed {arguments.seed}, {arguments.kills} kills per command", flush=True)
    with tempfile.TemporaryDirectory(prefix="testledger-soak-") as folder:
        with open(os.path.join(folder, "warm.xml"), "w") as out:
            out.write('<testsuite name="s"><testcase classname="Warm.A" name="b"/></testsuite>')
        soak = Soak(os.path.abspath(arguments.binary), arguments.kills, folder)
        started = time.time()
        for step in (soak.ingest_kills, soak.record_kills, soak.format_kills, soak.serve_kills, soak.serve_load,
                     soak.disk_faults):
            step()
            sys.stdout.flush()
        print(f"soak: {time.time() - started:.0f} s, {len(FAILURES)} broken promise(s)")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
