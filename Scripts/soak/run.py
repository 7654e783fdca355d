#!/usr/bin/env python3
"""Soak: runs `storekeeper simulate` over many seeds and prints one row per run.

    Scripts/soak/run.py                                  # 50 runs of 3,000 purchases, seeds 1-50
    Scripts/soak/run.py --runs 3 --purchases 300         # a short soak for CI
    Scripts/soak/run.py --binary .build/release/storekeeper --first-seed 100 --players 40

Each run is `storekeeper simulate --players P --purchases N --seed S --json` with the
history written to --history-dir (default: a new temporary directory), so that a failing
or inconclusive run leaves its offenders' history behind. Prints a table (seed, charged,
delivered, lost, inFlight, duplicates, wrongPlayer, refunded, android = Google Play
charges, seconds, verdict) as the runs end, then a summary line (with the purchases Google refunded for want of
acknowledgement, each a failure). Exits 0 when every run passed, 1 when any failed (a
violation, or a run that crashed), 3 when none failed but some were inconclusive.
Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

COLUMNS = [
    ("seed", 6),
    ("charged", 8),
    ("delivered", 10),
    ("lost", 5),
    ("inFlight", 9),
    ("duplicates", 11),
    ("wrongPlayer", 12),
    ("refunded", 9),
    ("android", 8),
    ("seconds", 8),
    ("verdict", 13),
]


def parse(arguments):
    parser = argparse.ArgumentParser(description="Runs storekeeper simulate over many seeds.")
    parser.add_argument("--runs", type=int, default=50, help="how many seeds (default 50)")
    parser.add_argument("--purchases", type=int, default=3000, help="purchases per run (default 3000)")
    parser.add_argument("--players", type=int, default=40, help="players per run (default 40)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed; the others follow (default 1)")
    parser.add_argument(
        "--binary",
        default=None,
        help="the storekeeper binary (default: .build/release/storekeeper, else .build/debug/storekeeper)",
    )
    parser.add_argument("--history-dir", default=None, help="where runs write their history files")
    parser.add_argument("--serial", action="store_true", help="pass --serial to every run")
    parser.add_argument("--extra", default="", help="more simulate arguments, space separated")
    return parser.parse_args(arguments)


def find_binary(given):
    if given:
        return given
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for configuration in ("release", "debug"):
        candidate = os.path.join(root, ".build", configuration, "storekeeper")
        if os.access(candidate, os.X_OK):
            return candidate
    sys.exit("no storekeeper binary: build one (swift build -c release --product storekeeper) or pass --binary")


def row(values):
    return " ".join(str(values.get(name, "")).rjust(width) for name, width in COLUMNS)


def run_one(binary, seed, options, history_dir):
    command = [
        binary, "simulate", "--players", str(options.players), "--purchases", str(options.purchases),
        "--seed", str(seed), "--json", "--history-dir", history_dir,
    ]
    if options.serial:
        command.append("--serial")
    command += options.extra.split()
    started = time.monotonic()
    process = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    values = {"seed": seed, "seconds": f"{seconds:.0f}"}
    try:
        report = json.loads(process.stdout)
    except ValueError:
        values["verdict"] = f"crash({process.returncode})"
        sys.stderr.write(f"seed {seed}: exit {process.returncode}\n{process.stderr[-2000:]}\n")
        return values, "fail"
    for name, _ in COLUMNS[1:8]:
        values[name] = report.get(name, "?")
    values["android"] = report.get("android", {}).get("charged", "?")
    values["refundedUnacknowledged"] = report.get("refundedUnacknowledged", "?")
    verdict = report.get("verdict", "fail" if process.returncode else "pass")
    values["verdict"] = verdict
    if verdict != "pass":
        sys.stderr.write(
            f"seed {seed}: {verdict}, exit {process.returncode}, history {report.get('historyFile', '-')}\n"
        )
    return values, verdict


def main(arguments):
    options = parse(arguments)
    binary = find_binary(options.binary)
    history_dir = options.history_dir or tempfile.mkdtemp(prefix="storekeeper-soak-")
    print(
        f"soak: {options.runs} runs of {options.purchases} purchases, {options.players} players, "
        f"seeds {options.first_seed}-{options.first_seed + options.runs - 1}, {binary}, history in {history_dir}"
    )
    print(row({name: name for name, _ in COLUMNS}))
    verdicts = {"pass": 0, "fail": 0, "inconclusive": 0}
    totals = {
        "charged": 0,
        "delivered": 0,
        "lost": 0,
        "inFlight": 0,
        "duplicates": 0,
        "wrongPlayer": 0,
        "android": 0,
        "refundedUnacknowledged": 0,
    }
    started = time.monotonic()
    for seed in range(options.first_seed, options.first_seed + options.runs):
        values, verdict = run_one(binary, seed, options, history_dir)
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        for name in totals:
            if isinstance(values.get(name), int):
                totals[name] += values[name]
        print(row(values), flush=True)
    elapsed = time.monotonic() - started
    print(
        f"summary: {options.runs} runs, {verdicts['pass']} passed, {verdicts['fail']} failed, "
        f"{verdicts['inconclusive']} inconclusive; charged {totals['charged']}, delivered {totals['delivered']}, "
        f"lost {totals['lost']}, inFlight {totals['inFlight']}, duplicates {totals['duplicates']}, "
        f"wrongPlayer {totals['wrongPlayer']}; Google Play charged {totals['android']}, "
        f"refunded unacknowledged {totals['refundedUnacknowledged']}; {elapsed:.0f} s"
    )
    if verdicts["fail"]:
        return 1
    return 3 if verdicts["inconclusive"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
