#!/usr/bin/env python3
"""How close two runs of one seed came: compares the history files that
`storekeeper simulate --history-dir DIR` writes (simulation-SEED-offenders.json).

    Scripts/soak/compare.py A/simulation-7-offenders.json B/simulation-7-offenders.json

Prints the fraction of purchase calls that ended the same way at the same position of
the outcome sequence, the common prefix, the fraction whose device's own sequence is
identical, and the fault tallies side by side. Exits 0 when the outcome sequences are
identical, 1 otherwise.
"""

import json
import sys


def load(path):
    with open(path) as handle:
        return json.load(handle)


def per_device(sequence):
    devices = {}
    for line in sequence:
        device, _, outcome = line.partition(" ")
        devices.setdefault(device, []).append(outcome)
    return devices


def compare(a, b):
    """The closeness figures of two histories, as a dict."""
    first, second = a["outcomeSequence"], b["outcomeSequence"]
    length = max(len(first), len(second), 1)
    same = sum(1 for x, y in zip(first, second) if x == y)
    prefix = 0
    for x, y in zip(first, second):
        if x != y:
            break
        prefix += 1
    devices_a, devices_b = per_device(first), per_device(second)
    names = sorted(set(devices_a) | set(devices_b))
    same_devices = sum(1 for name in names if devices_a.get(name) == devices_b.get(name))
    kinds = sorted(set(a["faults"]) | set(b["faults"]))
    return {
        "calls": (len(first), len(second)),
        "samePosition": same / length,
        "commonPrefix": prefix,
        "sameDevices": same_devices / max(len(names), 1),
        "faults": {kind: (a["faults"].get(kind, 0), b["faults"].get(kind, 0)) for kind in kinds},
        "identical": first == second,
    }


def main(arguments):
    if len(arguments) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    result = compare(load(arguments[0]), load(arguments[1]))
    print(f"purchase calls: {result['calls'][0]} and {result['calls'][1]}")
    print(f"same outcome at the same position: {result['samePosition']:.1%}")
    print(f"common prefix: {result['commonPrefix']} calls")
    print(f"devices whose own outcome sequence is identical: {result['sameDevices']:.1%}")
    for kind, (x, y) in result["faults"].items():
        print(f"  {kind:26} {x:6} {y:6}{'' if x == y else '  differs'}")
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
