#!/usr/bin/env bash
# Builds localhost/storekeeper:latest from a storekeeper binary built beforehand, without a
# container registry: the runtime stage of ./Containerfile (BINARY_STAGE=prebuilt) on a
# Debian base bootstrapped from Debian's packages (localhost/debian:bookworm).
#
#   Scripts/deploy/image.sh [BINARY]       # BINARY: $STOREKEEPER_BINARY, else .build/debug/storekeeper
#
# Steps, each skipped when already done (the script is idempotent):
#   1. podman, buildah, runc and debootstrap from apt when missing (needs root);
#   2. localhost/debian:bookworm: `debootstrap --variant=minbase bookworm` from the mirror the
#      machine's apt sources name (read now, from /etc/apt/sources.list.d/*.sources or
#      /etc/apt/sources.list), imported with `podman import`;
#   3. a build context holding staging/bin/storekeeper (debug info stripped), the resource
#      bundles beside it (*.resources) and staging/lib/swift/: the Swift runtime libraries
#      the binary links (found with ldd; none for a binary built with --static-swift-stdlib);
#   4. `podman build --pull=never --network host` of ./Containerfile with
#      BASE=localhost/debian:bookworm and BINARY_STAGE=prebuilt, tagged
#      localhost/storekeeper:latest; prints the image's size.
#
# Podman's settings come from Scripts/deploy/containers.conf (runc, cgroupfs, ulimits)
# through CONTAINERS_CONF unless CONTAINERS_CONF is already set.
# Environment: STOREKEEPER_IMAGE (default localhost/storekeeper:latest), DEBIAN_BASE_IMAGE
# (default localhost/debian:bookworm), STRIP=0 to keep the binary's debug information.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${1:-${STOREKEEPER_BINARY:-$root/.build/debug/storekeeper}}"
image="${STOREKEEPER_IMAGE:-localhost/storekeeper:latest}"
base="${DEBIAN_BASE_IMAGE:-localhost/debian:bookworm}"
suite=bookworm
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/Scripts/deploy/containers.conf}"

log() { echo "image.sh: $*" >&2; }

[ -x "$binary" ] || { log "no executable binary at $binary (build it: swift build --product storekeeper)"; exit 1; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# 1. Tools.
missing=()
for tool in podman:podman buildah:buildah runc:runc debootstrap:debootstrap; do
  command -v "${tool%%:*}" > /dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi

# The mirror the machine's apt sources name (deb822 first, then the one-line format).
debian_mirror() {
  local file uri
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    uri="$(awk '
      /^[[:space:]]*$/ { if (u != "" && s ~ /(^|[[:space:]])'"$suite"'([[:space:]]|$)/) { print u; exit } u = ""; s = "" }
      /^URIs:/ { u = $2 } /^Suites:/ { $1 = ""; s = $0 }
      END { if (u != "" && s ~ /(^|[[:space:]])'"$suite"'([[:space:]]|$)/) print u }' "$file" | head -n 1)"
    if [ -n "$uri" ]; then echo "$uri"; return; fi
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    uri="$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; exit } }' "$file")"
    if [ -n "$uri" ]; then echo "$uri"; return; fi
  done
}

# 2. The Debian base.
if podman image exists "$base"; then
  log "$base exists"
else
  mirror="$(debian_mirror)"
  [ -n "$mirror" ] || { log "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"; exit 1; }
  rootfs="$(mktemp -d /var/tmp/storekeeper-rootfs.XXXXXX)"
  trap 'rm -rf "$rootfs"' EXIT
  log "debootstrap --variant=minbase $suite from the machine's apt mirror"
  started=$SECONDS
  debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" > "$rootfs.log" 2>&1 \
    || { tail -n 20 "$rootfs.log" >&2; rm -f "$rootfs.log"; exit 1; }
  rm -f "$rootfs.log"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" - "$base" > /dev/null
  rm -rf "$rootfs"
  trap - EXIT
  log "$base imported ($((SECONDS - started)) s)"
fi

# 3. The build context.
context="$(mktemp -d /var/tmp/storekeeper-image.XXXXXX)"
trap 'rm -rf "$context"' EXIT
mkdir -p "$context/staging/bin" "$context/staging/lib/swift"
if [ "${STRIP:-1}" = 1 ] && command -v strip > /dev/null 2>&1; then
  strip --strip-debug -o "$context/staging/bin/storekeeper" "$binary"
else
  cp "$binary" "$context/staging/bin/storekeeper"
fi
# The resource bundles (Apple's roots, the console's pages): the binary finds them beside
# itself, or in the build directory it was built in, which the image does not have.
bundles=0
for bundle in "$(dirname "$binary")"/*.resources; do
  [ -d "$bundle" ] || continue
  case "$bundle" in *Tests.resources) continue ;; esac
  cp -R "$bundle" "$context/staging/bin/"
  bundles=$((bundles + 1))
done
if [ "$bundles" -eq 0 ]; then
  log "no *.resources bundles beside $binary: give the binary in its build directory (.build/debug/storekeeper)"
  exit 1
fi
# The Swift runtime: every library ldd resolves from a Swift toolchain (libswift*, Foundation,
# dispatch, BlocksRuntime, ICU), recognized by its directory holding libswiftCore.so.
libraries=0
while read -r path; do
  [ -f "$(dirname "$path")/libswiftCore.so" ] || continue
  cp -L "$path" "$context/staging/lib/swift/"
  libraries=$((libraries + 1))
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
if [ "$libraries" -eq 0 ]; then rmdir "$context/staging/lib/swift" "$context/staging/lib"; fi
log "staged $(du -sh "$context/staging" | cut -f1): the binary, $bundles resource bundles and $libraries Swift runtime libraries"

# 4. The image.
previous="$(podman image inspect --format '{{.Id}}' "$image" 2> /dev/null || true)"
started=$SECONDS
# --format docker: the OCI image format has no HEALTHCHECK. --layers caches the apt step.
podman build --pull=never --network host --format docker --layers --quiet \
  --build-arg BASE="$base" --build-arg BINARY_STAGE=prebuilt \
  -f "$root/Containerfile" -t "$image" "$context" > /dev/null
log "built $image in $((SECONDS - started)) s"
# The prebuilt stage's leftover (a copy of the staged files) from this and earlier builds.
podman image prune --force --filter label=io.storekeeper.stage=prebuilt > /dev/null
# The image the tag named before, unless it is the same or a container still uses it.
current="$(podman image inspect --format '{{.Id}}' "$image")"
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then podman rmi "$previous" > /dev/null 2>&1 || true; fi
size="$(podman image inspect --format '{{.Size}}' "$image")"
echo "image $image: $((size / 1000000)) MB ($size bytes)"
