#!/bin/sh
# The entry point of the staging stack's StoreKeeper instances (deploy/compose.yaml): waits
# for the emulator, fetches its roots and its App Store Server API key (they live in the
# emulator's data volume and survive its restarts), writes into STAGING_DIR the
# configuration of a staging server as docs/server.md ("Staging deployment") describes it,
# then runs `storekeeper "$@"` (`serve --config STAGING_DIR/config.json …`). Standard tools
# only (curl, sed, base64): the runtime image has no jq.
set -eu
emulator="${EMULATOR_URL:?EMULATOR_URL names the emulator, http://HOST:PORT}"
out="${STAGING_DIR:-/var/lib/storekeeper/staging}"
mkdir -p "$out"

tries=0
until roots="$(curl -fs --max-time 5 "$emulator/emulator/v1/roots")" \
    && key="$(curl -fs --max-time 5 "$emulator/emulator/v1/server-api-key")"; do
  tries=$((tries + 1))
  if [ "$tries" -ge 120 ]; then echo "staging-entrypoint: $emulator did not answer in 60 s" >&2; exit 1; fi
  sleep 0.5
done

# A string field of a one-line JSON object, with the escapes JSON allows in base64 and PEM.
field() { printf '%s' "$1" | sed -n "s/.*\"$2\" *: *\"\([^\"]*\)\".*/\1/p" | sed 's#\\/#/#g; s/\\n/\n/g'; }

umask 022
field "$roots" jws | base64 -d > "$out/emulator-jws-root.der.new"
{ echo "-----BEGIN CERTIFICATE-----"; field "$roots" receipt | fold -w 64; echo; echo "-----END CERTIFICATE-----"; } \
  | sed '/^$/d' > "$out/emulator-receipt-root.pem.new"
umask 077
field "$key" privateKey > "$out/emulator-server-api-key.p8.new"
umask 022
bundle_id="$(field "$key" bundleId)"
issuer_id="$(field "$key" issuerId)"
key_id="$(field "$key" keyId)"
if [ ! -s "$out/emulator-jws-root.der.new" ] || [ -z "$issuer_id" ] || [ -z "$key_id" ]; then
  echo "staging-entrypoint: unexpected answers from $emulator" >&2
  exit 1
fi

cat > "$out/config.json.new" <<JSON
{
  "bundleId": "${bundle_id:-com.example.game}",
  "deploymentEnvironment": "Sandbox",
  "allowedEnvironments": ["Sandbox"],
  "additionalRoots": ["$out/emulator-jws-root.der", "$out/emulator-receipt-root.pem"],
  "verifyReceipt": {"mode": "fallback", "productionURL": "$emulator/production", "sandboxURL": "$emulator/sandbox"},
  "appStoreServerAPI": {"baseURL": "$emulator/sandbox", "issuerId": "$issuer_id", "keyId": "$key_id",
                        "privateKeyFile": "$out/emulator-server-api-key.p8"},
  "reconcilerIntervalSeconds": ${RECONCILER_INTERVAL_SECONDS:-300}
}
JSON
for file in emulator-jws-root.der emulator-receipt-root.pem emulator-server-api-key.p8 config.json; do
  mv "$out/$file.new" "$out/$file"
done
echo "staging-entrypoint: wrote $out/config.json for the emulator at $emulator (issuer $issuer_id, key $key_id)"
exec storekeeper "$@"
