#!/usr/bin/env bash
# Checks deploy/storekeeper.service against the built binary: `systemd-analyze verify` on a
# copy whose paths point at this build (skipped, and said so, where systemd-analyze is
# missing), then the unit's own ExecStartPre (`config check`) and ExecStart (`serve`) lines,
# run as written with the environment file's variables: the check passes, the server
# answers /healthz, and SIGTERM stops it with status 0 within the unit's TimeoutStopSec.
#
#   Scripts/deploy/check-systemd-unit.sh [BINARY]      (default .build/debug/storekeeper)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="$(realpath "${1:-.build/debug/storekeeper}")"
unit=deploy/storekeeper.service
work="$(mktemp -d)"
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill -9 "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/etc" "$work/state"
printf '{"bundleId": "com.example.coins"}\n' >"$work/etc/server.json"
cat >"$work/etc/storekeeper.env" <<ENV
STOREKEEPER_PLAYER_TOKEN_SECRET=unit-check-player-secret
STOREKEEPER_ADMIN_KEY=unit-check-admin-key
ENV
# The unit as installed on this machine: this build's binary, the test's files and port.
sed -e "s#/usr/local/bin/storekeeper#$binary#g" -e "s#/etc/storekeeper/#$work/etc/#g" \
  -e "s#/var/lib/storekeeper#$work/state#g" -e "s#--port 8080#--port $port#" "$unit" >"$work/storekeeper.service"

if command -v systemd-analyze >/dev/null 2>&1; then
  systemd-analyze verify "$work/storekeeper.service"
  echo "systemd unit: systemd-analyze verify passed"
else
  echo "systemd unit: systemd-analyze is not installed here; verify skipped"
fi

# One line of the unit, as systemd would split it (no quoting is used in these lines).
line() { sed -n "s/^$1=//p" "$work/storekeeper.service"; }
environment=()
while IFS= read -r assignment; do environment+=("$assignment"); done < <(
  line Environment
  grep -v '^#' "$work/etc/storekeeper.env"
)
read -r -a check <<<"$(line ExecStartPre)"
read -r -a serve <<<"$(line ExecStart)"
stop_seconds="$(line TimeoutStopSec)"

(cd "$work/state" && env "${environment[@]}" "${check[@]}")
echo "systemd unit: ExecStartPre's config check passed"

(cd "$work/state" && exec env "${environment[@]}" "${serve[@]}") >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/healthz"
echo
test -f "$work/state/ledger.sqlite" || { echo "the ledger is not in the state directory" >&2; exit 1; }
kill -TERM "$server"
for _ in $(seq 1 $((stop_seconds * 10))); do
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.1
done
if kill -0 "$server" 2>/dev/null; then
  echo "serve did not stop within TimeoutStopSec=$stop_seconds after SIGTERM" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
status=0
wait "$server" || status=$?
server=""
if [[ "$status" != 0 ]]; then
  echo "serve exited with $status after SIGTERM" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
echo "systemd unit: serve as ExecStart runs it answered /healthz and stopped on SIGTERM with status 0"
