#!/usr/bin/env bash
# The container step of CI: the image from the binary CI built, its test, the compose stack's
# scenario; prints each part's wall time and the total. docs/deploy.md has the figures.
#
#   Scripts/deploy/run.sh [BINARY]      # default: $STOREKEEPER_BINARY, else .build/debug/storekeeper
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-${STOREKEEPER_BINARY:-.build/debug/storekeeper}}"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/Scripts/deploy/containers.conf}"

started=$SECONDS
Scripts/deploy/image.sh "$binary"
image_done=$SECONDS
python3 Scripts/deploy/image_test.py
test_done=$SECONDS
python3 Scripts/deploy/compose_test.py
echo "deploy: image.sh $((image_done - started)) s, image_test.py $((test_done - image_done)) s," \
  "compose_test.py $((SECONDS - test_done)) s; total $((SECONDS - started)) s"
