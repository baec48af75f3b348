#!/usr/bin/env bash
# Installs the contract test's pinned npm tools into tests/contract/node_modules unless exactly those
# versions are there already. Used by run.sh here and by tests/garbage/run.py.
exec "$(dirname "$0")/../lib/npm_install.sh" contract "$(dirname "$0")"
