#!/usr/bin/env bash
# The flood benchmark (bench/flood/flood.py): 64 connections of long counts, refused at once but for
# what the workers can run. Starts its own server from PUZZLED_BIN.
set -euo pipefail
exec python3 "$(dirname "$0")/flood.py"
