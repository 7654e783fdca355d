#!/usr/bin/env bash
# Checks what libStoreKeeperSDK.so exports: exactly the C ABI of storekeeper_sdk.h.
#
#   Scripts/engines/check-symbols.sh [LIBRARY]   # default SDK/.build/debug/libStoreKeeperSDK.so
#
# Lists the library's exported (global or weak, defined) dynamic symbols with
# `nm -D --defined-only` and fails when one of the ABI's symbols is missing, or when anything
# else is exported except the Swift runtime's own (`swift_*`, `_swift_*`, `$s…` symbols of
# the Swift standard library and runtime, which a statically linked runtime would bring)
# and the linker's section markers. Symbols the linker keeps local (nm's lowercase types)
# are not exported and not counted.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
library="${1:-$root/SDK/.build/debug/libStoreKeeperSDK.so}"
abi="sk_version sk_open sk_call sk_poll sk_wait sk_free sk_close"

[[ -f "$library" ]] || { echo "check-symbols: no library at $library" >&2; exit 2; }

# "ADDRESS TYPE NAME"; uppercase types are global, V/W/u are weak or unique (also exported).
exported="$(nm -D --defined-only "$library" | awk '$2 ~ /^[A-Z]$|^[uvw]$/ { print $3 }' | sort -u)"

status=0
for symbol in $abi; do
    if ! grep -qx "$symbol" <<<"$exported"; then
        echo "check-symbols: the ABI symbol $symbol is not exported by $library" >&2
        status=1
    fi
done

# The Swift runtime's own: swift_*/_swift_* entry points and the mangled symbols of the Swift
# and Foundation standard modules (\$ss: Swift, \$sS…: Swift's standard substitutions).
extra="$(grep -vxE "$(tr ' ' '|' <<<"$abi")" <<<"$exported" |
    grep -vE '^(_?swift_|__bss_start$|_edata$|_end$|_init$|_fini$|\$ss|\$sS)' || true)"
if [[ -n "$extra" ]]; then
    echo "check-symbols: $library exports symbols beyond the ABI:" >&2
    head -20 <<<"$extra" | sed 's/^/  /' >&2
    echo "  ($(wc -l <<<"$extra") in all; SDK/Sources/StoreKeeperSDK/exports.map keeps them local)" >&2
    status=1
fi

[[ $status -eq 0 ]] && echo "check-symbols: $library exports exactly the ABI ($(wc -w <<<"$abi") symbols)"
exit $status
