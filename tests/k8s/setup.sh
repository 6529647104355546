#!/usr/bin/env bash
# Installs kubernetes-validate (PyPI; it ships the Kubernetes API schemas, so it validates
# offline) in a virtual environment and prints the path of its command (set it as
# TABLERO_KUBERNETES_VALIDATE to validate docker/k8s/*.yaml in tests/shard.rs).
set -euo pipefail
VENV="${1:-${TMPDIR:-/tmp}/tablero-k8s-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q 'kubernetes-validate==1.37.0'
echo "$VENV/bin/kubernetes-validate"
