#!/usr/bin/env bash
# Runs the shop's StoreKit tests on Linux, as CI does: starts `storekeeper serve --dev`
# (the purchase server and the App Store emulator on one port) on a free 127.0.0.1 port
# with its own temporary data, points StoreKit for Linux at it with the three
# STOREKEEPER_STOREKIT_* variables, runs `swift test` on this package, stops the server.
#
#   STOREKEEPER_BINARY=/path/to/storekeeper Examples/StoreKitShop/run-tests.sh [swift test options]
#
# The binary defaults to ../../.build/debug/storekeeper (`swift build --product storekeeper`
# at the repository's root). Extra arguments go to `swift test` (e.g. --filter refund).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="${STOREKEEPER_BINARY:-$here/../../.build/debug/storekeeper}"
if [ ! -x "$binary" ]; then
  echo "run-tests.sh: no storekeeper binary at $binary (build it, or set STOREKEEPER_BINARY)" >&2
  exit 2
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"  # the server runs elsewhere

work="$(mktemp -d "${TMPDIR:-/tmp}/storekit-shop.XXXXXX")"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Start the server; another process may take the port between the probe and the bind,
# so a server that exits before answering is started again on another port.
for attempt in 1 2 3; do
  port="$(free_port)"
  (cd "$work" && exec "$binary" serve --dev --port "$port" --dev-data-dir "$work/dev" \
    --database "sqlite:$work/storekeeper.sqlite") >"$work/server.log" 2>&1 &
  server=$!
  ready=""
  for _ in $(seq 1 600); do  # up to 60 s
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/emulator/v1/products" 2>/dev/null; then
      ready=yes
      break
    fi
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$ready" ] && break
  echo "run-tests.sh: the server did not start (attempt $attempt):" >&2
  tail -n 20 "$work/server.log" >&2
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=""
done
if [ -z "$server" ]; then exit 1; fi
echo "run-tests.sh: storekeeper serve --dev on http://127.0.0.1:$port (data in $work)"

export STOREKEEPER_STOREKIT_URL="http://127.0.0.1:$port"   # the emulator's root: serve --dev's base URL
export STOREKEEPER_STOREKIT_DEVICE="storekit-shop-ci"      # the emulated device
export STOREKEEPER_STOREKIT_DATA="$work/device"            # its local files: the app receipt at .../receipt

status=0
swift test --package-path "$here" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "run-tests.sh: swift test failed ($status); the server's log ends:" >&2
  tail -n 50 "$work/server.log" >&2
fi
exit "$status"
