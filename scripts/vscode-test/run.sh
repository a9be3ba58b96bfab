#!/usr/bin/env bash
# Runs the compiled integration suite in a real VS Code extension host (see drive.mjs),
# installing code-server on first use. Build and compile the tests first (npm run test:integration).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$HERE/install.sh"
exec node "$HERE/drive.mjs"
