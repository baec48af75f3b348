"""Shared by the Python tests (tests/concurrency, tests/strict_http, tests/fair_share, tests/garbage):
counts checks, prints one line each, and `N passed, M failed` last (the plain closing line CI reads), as
tests/lib/checks.sh does for the shell tests; starts puzzled and reads sanitizer reports; reads one series of /metrics; writes a
field's value as a query string carries it."""
import http.client
import os
import re
import subprocess
import sys
import time

passed = failed = 0


def check(description, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {description}")
    else:
        failed += 1
        print(f"FAIL  {description}{': ' + str(detail) if detail else ''}")
    sys.stdout.flush()


def finish():
    """Prints the closing line and exits 1 when a check failed."""
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# What AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer and ThreadSanitizer print when they
# find something (scripts/test.sh greps the sanitizer ctest log and the tsan stage's logs for the same).
SANITIZER_REPORT = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer")

# PUZZLED_TEST_TIME_SCALE stretches the timeouts that guard hangs, for builds that run many times slower
# (the tsan stage sets it); the checks themselves stay as they are.
TIME_SCALE = float(os.environ.get("PUZZLED_TEST_TIME_SCALE") or 1)


def scaled(seconds):
    """A timeout of `seconds`, stretched by PUZZLED_TEST_TIME_SCALE."""
    return seconds * TIME_SCALE


def sanitizer_reports(text):
    """The lines of `text` that start a sanitizer report."""
    return [line for line in text.splitlines() if SANITIZER_REPORT.search(line)]


def start_puzzled(binary, flags=(), stdout=None, stderr=None, timeout=60):
    """Starts puzzled on a free port of 127.0.0.1 with `flags` and returns (process, port); stdout and
    stderr may be open files (stdout is read through a pipe otherwise). Exits the test when it does not
    say `listening on` within `timeout` seconds, stretched (a sanitizer build loads the dictionaries
    slowly)."""
    log = stdout
    process = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", *flags],
                               stdout=log or subprocess.PIPE, stderr=stderr or subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + scaled(timeout)
    line = ""
    while time.monotonic() < deadline and process.poll() is None:
        if log is None:
            line = process.stdout.readline()
            break
        with open(log.name) as f:
            line = f.readline()
        if line.endswith("\n"):
            break
        time.sleep(0.05)
    if not line.startswith("listening on http://127.0.0.1:"):
        process.kill()
        process.wait()
        sys.exit(f"puzzled did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


def metric(port, series):
    """The value of one series of the server's /metrics (`name` or `name{label="value"}`), or None
    when it is not there."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=scaled(30))
    try:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    finally:
        connection.close()
    found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    return float(found.group(1)) if found else None


def query_value(value):
    """A field's value as GET sends it: booleans as true/false, arrays comma-separated."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(query_value(v) for v in value)
    return str(value)
