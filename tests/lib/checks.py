"""Shared by the Python tests (tests/concurrency, tests/strict_http, tests/fair_share): counts checks,
prints one line each, and `N passed, M failed` last (the plain closing line CI reads), as
tests/lib/checks.sh does for the shell tests."""
import sys

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
