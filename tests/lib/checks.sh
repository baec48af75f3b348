# Sourced by the shell tests (tests/container, tests/scaleout): counts checks, prints one line each,
# and `N passed, M failed` last (the plain closing line CI reads).
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok    $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1"; }
check() { # description, then a command that must succeed
  local description=$1
  shift
  if "$@"; then pass "$description"; else fail "$description"; fi
}
checks_summary() { echo "$passed passed, $failed failed"; }
