#!/usr/bin/env python3
"""Fault soaks for testledger: kill -9 at random moments, a full disk, a read-only ledger, and a
server under concurrent uploads, slow clients, a gzip bomb and restarts.

Usage: Scripts/soak.py [--binary .build/debug/testledger] [--kills 20] [--seed N]

Each check prints what it did and the numbers it checked; the script exits 1 when any promise broke:
the ledger passes `PRAGMA integrity_check`, an input is stored whole or not at all, a recorder's
journal is stored by the next opener, a cut run reads `interrupted`, a full or read-only ledger
gets an error naming it while the tests still run, and every upload the server accepted is
counted once. Nothing is mounted: the full disk is a 2 MiB RLIMIT_FSIZE on the child, the read-only
ledger is chmod 0555/0444, and as root the children run without CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
and CAP_FOWNER (through setpriv) so that the permission bits hold. Timings are relative to
measurements made in the same run, never absolute limits. A check that cannot run is printed as
"skipped: why"; with CI set, a skipped check fails the run.
"""

import argparse
import contextlib
import gzip
import http.client
import json
import os
import random
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

FAILURES = []
# What the read-only check takes away from root, so that the permission bits hold for the children.
UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
FILE_SIZE_LIMIT = 2 << 20


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print(f"  FAILED: {what}", flush=True)
    return condition


def skip(what):
    """A promise that could not be checked here: printed, and a broken promise under CI."""
    if os.environ.get("CI"):
        check(False, f"skipped under CI: {what}")
    else:
        print(f"  skipped: {what}", flush=True)


def integrity(db):
    return scalar(db, "PRAGMA integrity_check") == "ok"


def scalar(db, sql, *args):
    # closing(): sqlite3's own context manager commits but leaves the connection open.
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql, args).fetchone()[0]


def stored_results(db, run):
    return scalar(db, "SELECT count(*) FROM result r JOIN run ON run.id = r.runId WHERE run.uuid = ?", run)


def complete_test_ends(path):
    """The whole lines of a journal (ending in a newline) that parse as JSON with type test.end."""
    with open(path, "rb") as journal:
        lines = journal.read().split(b"\n")[:-1]  # what follows the last newline is not a whole line
    count = 0
    for line in lines:
        with contextlib.suppress(ValueError):
            count += json.loads(line).get("type") == "test.end"
    return count


def is_gone(pid):
    """Whether process `pid` has ended: no longer there, or a zombie nobody reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def limit_file_size():
    """In the child: a file may not grow past 2 MiB, and writing past it gets EFBIG, not SIGXFSZ."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


class Soak:
    def __init__(self, binary, kills, folder):
        self.binary = binary
        self.kills = kills
        self.folder = folder
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith("TESTLEDGER_")}
        self.environment["TESTLEDGER_PROGRESS"] = "never"
        # A killed `record` leaves its scratch folder behind: in the soak's folder, not in /tmp.
        self.environment["TMPDIR"] = os.path.join(folder, "tmp")
        os.makedirs(self.environment["TMPDIR"])

    def run(self, arguments, prefix=(), **options):
        return subprocess.run(
            list(prefix) + [self.binary] + arguments,
            env=self.environment,
            capture_output=True,
            text=True,
            check=False,
            **options,
        )

    @staticmethod
    def ledger_events(run, tests):
        """A Ledger event stream of one run with `tests` results, as text."""
        lines = [
            json.dumps({"v": 1, "type": "run.start", "run": run, "at": 1.7e9, "project": "Soak", "source": "soak"})
        ]
        for index in range(tests):
            test = f"Soak.Suite/test{index}"
            lines.append(
                json.dumps({"v": 1, "type": "test.start", "run": run, "at": 1.7e9, "test": test, "attempt": 1})
            )
            lines.append(
                json.dumps(
                    {
                        "v": 1,
                        "type": "test.end",
                        "run": run,
                        "at": 1.7e9 + 1,
                        "test": test,
                        "attempt": 1,
                        "outcome": "passed",
                        "duration": 0.5,
                    }
                )
            )
        lines.append(json.dumps({"v": 1, "type": "run.end", "run": run, "at": 1.7e9 + 2}))
        return "".join(line + "\n" for line in lines)

    def ledger_stream(self, name, tests, template=None):
        """Writes a stream of a fresh run (from `template`, whose run id is @RUN@, when given); returns
        its path and run id."""
        run = str(uuid.uuid4())
        path = os.path.join(self.folder, name)
        with open(path, "w") as out:
            out.write(template.replace("@RUN@", run) if template else self.ledger_events(run, tests))
        return path, run

    def kill_at_random(self, arguments, low, high, **options):
        """Starts the command in its own process group and kill -9s the group after a random delay;
        returns whether it was still running then."""
        process = subprocess.Popen(
            [self.binary] + arguments,
            env=self.environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            **options,
        )
        time.sleep(random.uniform(low, high))
        running = process.poll() is None
        if running:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return running

    def whole_ingest_time(self, template):
        """Seconds one whole ingest of the stream takes, into a ledger of its own, measured as the kills are."""
        db = os.path.join(self.folder, "ingest-calibration.sqlite")
        self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")])
        path, run = self.ledger_stream("calibration.ndjson", 0, template)
        started = time.monotonic()
        whole = subprocess.run(
            [self.binary, "ingest", "--db", db, path],
            env=self.environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        took = time.monotonic() - started
        check(
            whole.returncode == 0 and stored_results(db, run) > 0,
            f"ingest: the calibrating ingest failed: {whole.stderr.strip()}",
        )
        os.remove(path)
        return took

    # kill -9 during `ingest`: each input is stored whole or not at all.
    def ingest_kills(self):
        db = os.path.join(self.folder, "ingest.sqlite")
        tests = 60_000
        template = self.ledger_events("@RUN@", tests)
        whole = self.whole_ingest_time(template)
        self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")])
        mid = stored_whole = whole_or_absent = intact = 0
        for _ in range(self.kills):
            path, run = self.ledger_stream("ingest.ndjson", tests, template)  # a new run each round
            running = self.kill_at_random(["ingest", "--db", db, path], 0.05 * whole, 0.9 * whole)
            stored = stored_results(db, run)
            intact += check(integrity(db), "ingest: integrity_check after kill -9")
            whole_or_absent += check(
                stored in (0, tests), f"ingest: the run is whole or absent, not {stored} of {tests} results"
            )
            mid += running and stored == 0
            stored_whole += stored == tests
        check(mid > self.kills / 2, f"ingest: most kills landed mid-ingest, not {mid} of {self.kills}")
        for _ in range(2):  # stored, then read again: once
            final = self.run(["ingest", "--db", db, path])
            stored = stored_results(db, run)
            check(final.returncode == 0 and stored == tests, f"ingest: stored once afterwards ({stored})")
        print(
            f"ingest: a whole ingest of {tests} results takes {whole:.2f} s; {self.kills} kill -9s at 5-90% of it, "
            f"{mid} mid-ingest (running, run absent), {stored_whole} after the run was whole, "
            f"{self.kills - mid - stored_whole} ended unstored; {whole_or_absent} runs whole or absent; ingested "
            f"twice afterwards, stored once ({stored}); integrity ok after {intact}"
        )

    @staticmethod
    def end_journal_writers(pending):
        """Kill -9s the test processes that outlive a killed `record` (a job that is cut ends them too), waits
        until they are gone, and reads what their journals hold: complete test.end lines per run id."""
        names = os.listdir(pending) if os.path.isdir(pending) else []
        pids = []
        for name in names:
            try:
                pids.append(int(name.rsplit("-", 1)[1].split(".")[0]))
            except ValueError:
                continue
            try:  # each test command leads a process group of its own: its `sleep`s go with it
                os.killpg(pids[-1], signal.SIGKILL)
            except ProcessLookupError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pids[-1], signal.SIGKILL)
        for pid in pids:
            while not is_gone(pid):
                time.sleep(0.01)
        held = {}
        for name in names:
            run = name.rsplit("-", 1)[0]
            held[run] = held.get(run, 0) + complete_test_ends(os.path.join(pending, name))
        return held

    # kill -9 of `record`: the test process's journal is stored by the next opener, the run interrupted.
    def record_kills(self):
        db = os.path.join(self.folder, "record.sqlite")
        pending = db + ".pending"
        journal_lines = 50
        script = (
            'mkdir -p "$TESTLEDGER_DB.pending"; j="$TESTLEDGER_DB.pending/$TESTLEDGER_RUN-$$.ndjson"; '
            f"i=0; while [ $i -lt {journal_lines} ]; do "
            'printf \'{"v":1,"type":"test.start","run":"%s","at":1700000000,"test":"Rec/t%s","attempt":1}\\n'
            '{"v":1,"type":"test.end","run":"%s","at":1700000001,"test":"Rec/t%s","attempt":1,'
            '"outcome":"passed","duration":1}\\n\' "$TESTLEDGER_RUN" $i "$TESTLEDGER_RUN" $i >> "$j"; '
            "i=$((i+1)); sleep 0.01; done; sleep 30"
        )
        cut = recovered = partial = runs = interrupted = exact = intact = left_over = 0
        for _ in range(self.kills):
            before = set(r["id"] for r in self.runs(db, "record"))
            cut += self.kill_at_random(["record", "--db", db, "--project", "Soak", "--", "sh", "-c", script], 0.1, 0.9)
            held = self.end_journal_writers(pending)
            after = self.runs(db, "record")  # the next opener stores what the recorder left
            new = {r["id"]: r for r in after if r["id"] not in before}
            left = os.listdir(pending) if os.path.isdir(pending) else []
            intact += check(integrity(db), "record: integrity_check after kill -9")
            left_over += len(left)
            check(not left, f"record: journals left after the next opener: {left}")
            check(set(held) <= set(new), f"record: journals of runs the opener did not list: {set(held) - set(new)}")
            for r in new.values():
                journal = held.get(r["id"], 0)
                interrupted += check(
                    r["status"] == "interrupted", f"record: a cut run reads {r['status']}, not interrupted"
                )
                exact += check(
                    r["tests"] == journal,
                    f"record: run {r['id']} stored {r['tests']} tests, its journal held {journal} whole test.end lines",
                )
                recovered += journal > 0 and r["tests"] == journal
                partial += 0 < journal < journal_lines
            runs += len(new)
        check(recovered > 0, "record: no journal with tests was recovered")
        print(
            f"record: {self.kills} kill -9s ({cut} while record ran), {runs} new runs, {interrupted} interrupted, "
            f"{exact} storing exactly their journal's whole test.end lines; {recovered} journals with tests "
            f"recovered by the next opener ({partial} cut mid-journal), {left_over} left; integrity ok after "
            f"{intact}"
        )

    def runs(self, db, what):
        listed = self.run(["runs", "--db", db, "--format", "json", "--limit", "1000"])
        if not check(
            listed.returncode == 0, f"{what}: testledger runs exited {listed.returncode}: {listed.stderr.strip()}"
        ):
            return []
        try:
            return json.loads(listed.stdout)
        except ValueError:
            check(False, f"{what}: testledger runs printed no JSON: {listed.stdout[:200]!r}")
            return []

    def stream_and_kill(self, db, lines):
        """Streams TAP lines into `format` until a random moment after it stored its run, then kill -9s it.
        Returns whether it started (echoed the first two lines, so the run was stored) and whether the kill
        landed mid-stream (running, with lines still to come)."""
        process = subprocess.Popen(
            [self.binary, "format", "--db", db, "--project", "Soak", "--from", "tap"],
            env=self.environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
        )
        echoed = []
        reader = threading.Thread(target=lambda: echoed.extend(process.stdout))
        reader.start()
        started = False
        written = 0
        try:
            for line in lines:
                process.stdin.write(line + "\n")
                process.stdin.flush()
                written += 1
                if written == 2:  # the first line's store comes before the second line's echo
                    while len(echoed) < 2 and process.poll() is None:
                        time.sleep(0.01)
                    started = len(echoed) >= 2
                    deadline = time.monotonic() + random.uniform(0.05, 0.8)
                elif written > 2:
                    time.sleep(0.001)
                    if time.monotonic() > deadline:
                        break
        except BrokenPipeError:
            pass
        cut = process.poll() is None and written < len(lines)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        reader.join()
        return started, cut

    # kill -9 of `format` while a runner's output streams in: what was stored is complete and the
    # run interrupted.
    def format_kills(self):
        db = os.path.join(self.folder, "format.sqlite")
        lines = ["TAP version 13", "1..400"] + [f"ok {i} - spec {i}" for i in range(1, 401)]
        started = cut = intact = 0
        for _ in range(self.kills):
            began, landed = self.stream_and_kill(db, lines)
            started += began
            cut += landed
            intact += check(integrity(db), "format: integrity_check after kill -9")
        runs = self.runs(db, "format")
        check(len(runs) >= started, f"format: {len(runs)} runs stored for {started} started")
        check(cut > 0, "format: no kill landed mid-stream")
        incomplete = scalar(db, "SELECT count(*) FROM result WHERE outcome IS NULL")
        check(incomplete == 0, f"format: {incomplete} results without an outcome")
        ended = [r for r in runs if r["status"] != "interrupted"]
        check(not ended, f"format: every cut run reads interrupted, not {[r['status'] for r in ended]}")
        print(
            f"format: {self.kills} kill -9s while 400 TAP lines streamed, {started} after format started, "
            f"{cut} mid-stream; {len(runs)} runs, {len(runs) - len(ended)} interrupted; {incomplete} results "
            f"without an outcome; integrity ok after {intact}"
        )

    def start_server(self, db):
        process = subprocess.Popen(
            [self.binary, "serve", "--db", db, "--port", "0"],
            env=self.environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        line = process.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        return process, f"http://127.0.0.1:{port}"

    @staticmethod
    def post(base, token, body, headers=None, timeout=60):
        """The answer's status; "cut" when the connection broke mid-request (reset, closed, no answer),
        "refused" when nothing listened (the server was already gone), "failed" otherwise."""
        request = urllib.request.Request(base + "/api/v1/events", data=body, method="POST")
        request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            reason = error.reason if isinstance(error, urllib.error.URLError) else error
            if isinstance(reason, ConnectionRefusedError):
                return "refused"
            if isinstance(
                reason,
                (
                    ConnectionResetError,
                    ConnectionAbortedError,
                    BrokenPipeError,
                    http.client.BadStatusLine,
                    http.client.IncompleteRead,
                ),
            ):
                return "cut"  # RemoteDisconnected is a ConnectionResetError and a BadStatusLine
            return "failed"

    def upload(self, index, tests=20):
        run = str(uuid.UUID(int=index + 1))
        events = [{"v": 1, "type": "run.start", "run": run, "at": 1.7e9 + index, "project": "Soak", "source": "soak"}]
        for t in range(tests):
            events += [
                {"v": 1, "type": "test.start", "run": run, "at": 1.7e9 + index, "test": f"Up/t{t}", "attempt": 1},
                {
                    "v": 1,
                    "type": "test.end",
                    "run": run,
                    "at": 1.7e9 + index,
                    "test": f"Up/t{t}",
                    "attempt": 1,
                    "outcome": "passed",
                    "duration": 0.1,
                },
            ]
        events.append({"v": 1, "type": "run.end", "run": run, "at": 1.7e9 + index + 1})
        return "".join(json.dumps(e) + "\n" for e in events).encode()

    # kill -9 of `serve` in the middle of uploads, restarted: every accepted upload counted once.
    def serve_kills(self):
        db = os.path.join(self.folder, "serve.sqlite")
        token = self.run(["token", "create", "--db", db, "--project", "Soak", "--scope", "write"]).stdout.strip()
        uploads, per = 100, 20
        pending = list(range(uploads))
        accepted = resent = 0
        restarts = kills = cuts = intact = 0
        while (pending or restarts < self.kills) and restarts <= self.kills + 5:
            process, base = self.start_server(db)
            killing = restarts < self.kills
            fired = threading.Event()

            def kill(p=process, fired=fired):
                fired.set()
                os.killpg(p.pid, signal.SIGKILL)

            killer = threading.Timer(random.uniform(0.2, 0.8), kill)
            if killing:
                killer.start()
            queue, failed = list(pending), []
            cut = False
            # A start that is killed keeps uploading fresh runs until the kill, so that it lands mid-upload.
            while queue or (killing and not fired.is_set()):
                if queue:
                    index = queue.pop(0)
                else:
                    index, uploads = uploads, uploads + 1
                status = self.post(base, token, self.upload(index, per))
                if status == 201:
                    accepted += 1
                    if random.random() < 0.1:  # a client that did not hear the answer sends again
                        resent += 1
                        failed.append(index)
                    continue
                failed.append(index)
                cut |= status == "cut"
                if status == "refused":  # the server is gone: the rest wait for the next start
                    failed += queue
                    break
            killer.cancel()
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            restarts += 1
            kills += fired.is_set()
            cuts += fired.is_set() and cut
            intact += check(integrity(db), "serve: integrity_check after kill -9")
            pending = failed
        stored = scalar(db, "SELECT count(*) FROM result")
        runs = scalar(db, "SELECT count(*) FROM run")
        check(not pending, f"serve: {len(pending)} uploads never accepted")
        check(cuts > self.kills / 2, f"serve: an upload was cut by only {cuts} of {self.kills} kills")
        check(
            stored == uploads * per and runs == uploads,
            f"serve: {stored} results in {runs} runs, expected {uploads * per} in {uploads}",
        )
        print(
            f"serve: {restarts} starts, {kills} kill -9s fired, {cuts} of them cut an upload in flight; "
            f"{accepted} uploads accepted ({resent} sent again on purpose), {len(pending)} never; {stored} results "
            f"in {runs} runs of {uploads}; integrity ok after {intact} of {restarts}"
        )

    @staticmethod
    def healthz_times(base, count, before_each=lambda: None):
        """Seconds each of `count` /healthz requests took, 0.2 s apart; None for one not answered 200."""
        times = []
        for _ in range(count):
            before_each()
            started = time.monotonic()
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=60) as answer:
                    ok = answer.status == 200
            except (urllib.error.URLError, OSError, http.client.HTTPException):
                ok = False
            times.append(time.monotonic() - started if ok else None)
            time.sleep(0.2)
        return times

    # The server under 50 concurrent uploads, slow clients and a gzip bomb.
    def serve_load(self):
        db = os.path.join(self.folder, "load.sqlite")
        token = self.run(["token", "create", "--db", db, "--project", "Soak", "--scope", "write"]).stdout.strip()
        process, base = self.start_server(db)
        try:
            statuses = []
            threads = [
                threading.Thread(target=lambda i=i: statuses.append(self.post(base, token, self.upload(1000 + i))))
                for i in range(50)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            check(statuses.count(201) == 50, f"load: 50 concurrent uploads, {statuses.count(201)} accepted")
            check(scalar(db, "SELECT count(*) FROM run") == 50, "load: 50 runs stored")

            # Slow clients: 100 connections trickling a request's headers, while /healthz answers about as
            # fast as it did before they came.
            requests = 15
            unloaded = self.healthz_times(base, requests)
            host, port = base.rsplit(":", 1)[0].split("//")[1], int(base.rsplit(":", 1)[1])
            slow = []
            for _ in range(100):
                connection = socket.create_connection((host, port))
                connection.sendall(b"POST /api/v1/events HTTP/1.1\r\nHost: x\r\n")
                slow.append(connection)

            def trickle():
                for connection in slow:
                    with contextlib.suppress(OSError):
                        connection.sendall(b"X-Slow: 1\r\n")

            loaded = self.healthz_times(base, requests, trickle)
            for connection in slow:
                connection.close()
            answered = [t for t in unloaded if t is not None], [t for t in loaded if t is not None]
            check(len(answered[0]) == requests, f"load: /healthz answered {len(answered[0])} of {requests} alone")
            check(
                len(answered[1]) == requests,
                f"load: /healthz answered {len(answered[1])} of {requests} with 100 slow clients",
            )
            before = statistics.median(answered[0]) if answered[0] else float("nan")
            during = statistics.median(answered[1]) if answered[1] else float("nan")
            check(
                during <= 10 * before + 0.005,
                f"load: /healthz median {during * 1000:.1f} ms with 100 slow clients, over 10x its "
                f"{before * 1000:.1f} ms alone (+5 ms)",
            )

            # A gzip bomb: 1 GiB of zeros in about 1 MiB, refused at the limit without being held.
            bomb = gzip.compress(b"\0" * (256 << 20), compresslevel=9) * 4
            started = time.monotonic()
            status = self.post(base, token, bomb, {"Content-Encoding": "gzip"})
            took = time.monotonic() - started
            check(status == 413, f"load: a gzip bomb got {status}, not 413")
            # Refused at the limit as it inflates, not after: seconds on a loaded machine, not the
            # minutes a whole gibibyte would take.
            check(took < 10, f"load: the gzip bomb was refused after {took:.1f} s, over 10 s: was it inflated whole?")
            check(process.poll() is None, "load: the server survived the bomb")
            print(
                f"load: 50 concurrent uploads, {statuses.count(201)} accepted; /healthz answered "
                f"{len(answered[0])}+{len(answered[1])} of {requests}+{requests}, median {before * 1000:.1f} ms "
                f"alone and {during * 1000:.1f} ms with 100 slow clients (limit 10x + 5 ms, worst "
                f"{max(answered[1], default=float('nan')) * 1000:.0f} ms); a {len(bomb) >> 10} KiB gzip bomb "
                f"(1 GiB inside) got {status} in {took:.2f} s, the server lives"
            )
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()

    # A full disk and a read-only ledger: a clear error naming the path, the ledger intact, and the
    # tests under `record` still run.
    def disk_faults(self):
        folder = os.path.join(self.folder, "disk")
        os.makedirs(folder)
        db = os.path.join(folder, "ledger.sqlite")
        check(
            self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")]).returncode == 0,
            "disk: the first ingest",
        )
        self.full_disk(db)
        self.read_only(folder, db)

    def full_disk(self, db):
        big, _ = self.ledger_stream("big.ndjson", 40_000)
        limited = {"preexec_fn": limit_file_size, "restore_signals": False}  # else SIGXFSZ kills, not EFBIG
        full = self.run(["ingest", "--db", db, big], **limited)
        check(full.returncode != 0, "disk: a full disk exits non-zero")
        check(db in full.stderr, f"disk: the error names the ledger: {full.stderr.strip()}")
        results = scalar(db, "SELECT count(*) FROM result")
        check(integrity(db) and results == 1, f"disk: the ledger is intact ({results} results)")
        ran = self.run(
            ["record", "--db", db, "--junit", big, "--", "sh", "-c", "echo the tests ran; exit 0"], **limited
        )
        check("the tests ran" in ran.stdout, "disk: the tests under record ran")
        check(ran.returncode != 0 and db in ran.stderr, f"disk: record says it could not store: {ran.stderr.strip()}")
        results, intact = scalar(db, "SELECT count(*) FROM result"), integrity(db)
        check(intact and results == 1, f"disk: the ledger is intact after record ({results} results)")
        named = sum(db in answer.stderr for answer in (full, ran))
        print(
            f"disk: a full disk ({FILE_SIZE_LIMIT >> 20} MiB RLIMIT_FSIZE): ingest exit {full.returncode}, record "
            f"exit {ran.returncode}, {named} of 2 naming the ledger; the tests under record ran: "
            f"{'the tests ran' in ran.stdout}; integrity {'ok' if intact else 'broken'}, {results} result"
        )

    def unprivileged_prefix(self, folder):
        """What makes the children obey permission bits: nothing unless root, else setpriv without the
        capabilities that override them; None (skipped) when that is not possible here."""
        if os.geteuid() != 0:
            return []
        if not shutil.which(UNPRIVILEGED[0]):
            skip("read-only ledger: root ignores permission bits, and setpriv is missing")
            return None
        probe = subprocess.run(
            UNPRIVILEGED + ["touch", os.path.join(folder, "probe")], capture_output=True, text=True, check=False
        )
        if probe.returncode == 0:
            skip(f"read-only ledger: root still writes a read-only folder under setpriv {UNPRIVILEGED[1]}")
            return None
        return UNPRIVILEGED

    def read_only(self, folder, db):
        files = [path for path in (db, db + "-wal", db + "-shm") if os.path.exists(path)]
        for path in files:
            os.chmod(path, 0o444)
        os.chmod(folder, 0o555)
        try:
            prefix = self.unprivileged_prefix(folder)
            if prefix is None:
                return
            readonly = self.run(["ingest", "--db", db, os.path.join(self.folder, "warm.xml")], prefix)
            check(readonly.returncode != 0, "disk: a read-only ledger exits non-zero")
            check(db in readonly.stderr, f"disk: read-only is named: {readonly.stderr.strip()}")
            ran = self.run(["record", "--db", db, "--", "sh", "-c", "echo the tests ran; exit 3"], prefix)
            check(
                "the tests ran" in ran.stdout and ran.returncode == 3,
                f"disk: on a read-only ledger, record runs the tests and keeps their status, not {ran.returncode}",
            )
            check(db in ran.stderr, f"disk: record names the read-only ledger: {ran.stderr.strip()}")
        finally:
            os.chmod(folder, 0o755)
            for path in files:
                os.chmod(path, 0o644)
        results, intact = scalar(db, "SELECT count(*) FROM result"), integrity(db)
        check(intact and results == 1, f"disk: the read-only ledger is intact ({results} results)")
        how = ", setpriv without DAC capabilities" if prefix else ""
        named = sum(db in answer.stderr for answer in (readonly, ran))
        print(
            f"disk: a read-only ledger (0555 folder, 0444 file{how}): ingest exit {readonly.returncode}, record "
            f"exit {ran.returncode} (its tests': 3), {named} of 2 naming the ledger; integrity "
            f"{'ok' if intact else 'broken'}, {results} result"
        )


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
        started = time.monotonic()
        for step in (
            soak.ingest_kills,
            soak.record_kills,
            soak.format_kills,
            soak.serve_kills,
            soak.serve_load,
            soak.disk_faults,
        ):
            step()
            sys.stdout.flush()
        print(f"soak: {time.monotonic() - started:.0f} s, {len(FAILURES)} broken promise(s)")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
