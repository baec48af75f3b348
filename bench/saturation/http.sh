#!/usr/bin/env bash
# The saturation benchmark (bench/saturation/saturation.py): cheap requests while the workers are
# busy and the queue is full, against the same server idle. Starts its own server from PUZZLED_BIN.
set -euo pipefail
exec python3 "$(dirname "$0")/saturation.py"
