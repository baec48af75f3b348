#!/usr/bin/env bash
# The abandoned-clients benchmark (bench/abandoned/abandoned.py): clients that start long listings and
# leave, on --workers 1, then a count right after. Starts its own server from PUZZLED_BIN.
set -euo pipefail
exec python3 "$(dirname "$0")/abandoned.py"
