#!/usr/bin/env bash
# The cheap-mix benchmark (bench/mix/mix.py): a burst of small work at 32 and 256 connections, the
# share refused and the waits. Starts its own server from PUZZLED_BIN.
set -euo pipefail
exec python3 "$(dirname "$0")/mix.py"
