#!/usr/bin/env bash
# Installs the `diplomacy` 1.1.2 server for tablero's interoperability test in
# a virtual environment and prints the path of its python (set it as
# TABLERO_DIPLOMACY_PYTHON to run tests/daide_interop.rs).
set -euo pipefail
VENV="${1:-${TMPDIR:-/tmp}/tablero-diplomacy-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q 'diplomacy==1.1.2'
echo "$VENV/bin/python"
