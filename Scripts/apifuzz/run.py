#!/usr/bin/env python3
"""Property-based API fuzzing of StoreKeeper's HTTP APIs with schemathesis.

Starts the processes itself (nothing already running is used), fuzzes every operation of
each OpenAPI document, then checks that every process is still alive and never printed a
Swift runtime trap. Exits 1 on any schemathesis failure or crash, 0 otherwise.

  Scripts/apifuzz/run.py --binary .build/debug/storekeeper --seconds 60
  Scripts/apifuzz/run.py --binary ... --seconds 1800 --only server-player

Runs (each with its own budget of --seconds):
  server-player   docs/openapi.yaml against `storekeeper serve --dev`, player token
  server-admin    docs/openapi.yaml against `storekeeper serve --dev`, admin key
  emulator        docs/emulator-openapi.yaml against `storekeeper emulator`, a Server API
                  token; `setFaults` alone in the last quarter of the budget (the faults it
                  sets turn other operations' answers into the 5xx they are meant to inject)

Every check schemathesis has runs (its default); server-schemathesis.toml and
emulator-schemathesis.toml beside this file list, per operation, the checks that do not
apply and why (a signature no schema can express, an opaque token the server issued).
A run whose only failures are "schema-violating request accepted" on a path parameter's
length, where the value the server received is within the schema (schemathesis decodes a
literal escape such as `%EF%BF%BD` in a generated value before it encodes it), passes:
wire_valid.py judges each from the reports and prints its verdict.

The seed is fresh each run unless --seed is given, and is printed so a failure replays.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from storekeeper_processes import Child, free_port, wait_until_serving  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def schemathesis(venv: Path, config: str, document: Path, url: str, header: str, seconds: int, seed: int,
                 report: Path, extra: list) -> int:
    command = [
        str(venv / "bin" / "st"), "--config-file", str(HERE / config), "run", str(document), "--url", url,
        "--max-time", str(seconds), "--seed", str(seed),
        "--workers", "1", "--request-timeout", "30",
        "--report", "junit,ndjson", "--report-dir", str(report),
        "--suppress-health-check", "all",
    ] + (["-H", header] if header else []) + extra
    shown = [c if c != header else "'Authorization: Bearer …'" for c in command]
    print("$", " ".join(shown), flush=True)
    return subprocess.call(command, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def only_wire_valid_failures(venv: Path, report: Path, document: Path) -> bool:
    """Whether every failure schemathesis reported is a path parameter's length violation
    that its own encoding undid before the request left (see wire_valid.py)."""
    return subprocess.call([str(venv / "bin" / "python"), str(HERE / "wire_valid.py"), str(report),
                            str(document)]) == 0


def count_cases(report: Path) -> int:
    """Test cases schemathesis ran, read from its ndjson event stream (0 when unknown)."""
    total = 0
    for path in report.glob("*.ndjson"):
        for line in path.read_text(errors="replace").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            finished = event.get("ScenarioFinished") if isinstance(event, dict) else None
            if isinstance(finished, dict):
                recorder = finished.get("recorder") or {}
                total += len(recorder.get("cases") or {})
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "storekeeper"))
    parser.add_argument("--seconds", type=int, default=60, help="schemathesis time budget per run")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--only", action="append", choices=["server-player", "server-admin", "emulator"])
    parser.add_argument("--venv", default=str(ROOT / ".build" / "apifuzz-venv"))
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, reports)")
    arguments = parser.parse_args()

    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(1, 2**31)
    print(f"apifuzz: seed {seed} (replay with --seed {seed})", flush=True)
    venv = Path(arguments.venv)
    subprocess.check_call([sys.executable, str(HERE.parent / "install_venv.py"), str(venv)])
    subprocess.check_call([str(venv / "bin" / "python"), str(HERE / "wire_valid_test.py")])
    binary = str(Path(arguments.binary).resolve())
    runs = arguments.only or ["server-player", "server-admin", "emulator"]
    workdir = Path(tempfile.mkdtemp(prefix="storekeeper-apifuzz-"))
    children = []
    failures = []
    try:
        if any(run.startswith("server") for run in runs):
            port = free_port()
            server = Child("server", [binary, "serve", "--dev", "--port", str(port),
                                      "--database", f"sqlite:{workdir / 'ledger.sqlite'}",
                                      "--dev-data-dir", str(workdir / "dev")], workdir)
            children.append(server)
            wait_until_serving(f"http://127.0.0.1:{port}/healthz", server.process)
            player = subprocess.check_output([binary, "token", "--player", "fuzz-player"], text=True).strip()
            credentials = {"server-player": player, "server-admin": "dev-admin-key"}
            for run in [r for r in runs if r.startswith("server")]:
                status = schemathesis(venv, "server-schemathesis.toml", ROOT / "docs" / "openapi.yaml",
                                      f"http://127.0.0.1:{port}", f"Authorization: Bearer {credentials[run]}",
                                      arguments.seconds, seed, workdir / run, [])
                print(f"apifuzz: {run}: schemathesis exit {status}, {count_cases(workdir / run)} cases", flush=True)
                if status == 1 and only_wire_valid_failures(venv, workdir / run, ROOT / "docs" / "openapi.yaml"):
                    print(f"apifuzz: {run}: every failure was valid on the wire (above): passed", flush=True)
                    status = 0
                if status != 0:
                    failures.append(f"{run}: schemathesis exit {status}")
                crash = server.crash_report()
                if crash:
                    failures.append(f"{run}: {crash}")
                    break
        if "emulator" in runs:
            port = free_port()
            emulator = Child("emulator", [binary, "emulator", "--port", str(port),
                                          "--data-dir", str(workdir / "emulator")], workdir)
            children.append(emulator)
            wait_until_serving(f"http://127.0.0.1:{port}/emulator/v1/products", emulator.process)
            url = f"http://127.0.0.1:{port}"
            token = subprocess.check_output(
                [sys.executable, str(HERE / "emulator_token.py"), "--url", url, "--lifetime", "3600"],
                text=True).strip()
            document = ROOT / "docs" / "emulator-openapi.yaml"
            faults_seconds = max(1, arguments.seconds // 4)
            status = schemathesis(venv, "emulator-schemathesis.toml", document, url, f"Authorization: Bearer {token}",
                                  max(1, arguments.seconds - faults_seconds), seed, workdir / "emulator",
                                  ["--exclude-operation-id", "setFaults"])
            faults = schemathesis(venv, "emulator-schemathesis.toml", document, url, "", faults_seconds, seed,
                                  workdir / "emulator-faults",
                                  ["--include-operation-id", "setFaults", "--phases", "examples,coverage,fuzzing"])
            if status == 1 and only_wire_valid_failures(venv, workdir / "emulator", document):
                print("apifuzz: emulator: every failure was valid on the wire (above): passed", flush=True)
                status = 0
            if faults == 1 and only_wire_valid_failures(venv, workdir / "emulator-faults", document):
                print("apifuzz: emulator (setFaults): every failure was valid on the wire (above): passed", flush=True)
                faults = 0
            cases = count_cases(workdir / "emulator") + count_cases(workdir / "emulator-faults")
            print(f"apifuzz: emulator: schemathesis exit {status} and {faults} (setFaults), {cases} cases", flush=True)
            if status != 0 or faults != 0:
                failures.append(f"emulator: schemathesis exit {status} and {faults} (setFaults)")
            crash = emulator.crash_report()
            if crash:
                failures.append(f"emulator: {crash}")
    finally:
        for child in children:
            crash = child.crash_report()
            if crash and not any(crash in failure for failure in failures):
                failures.append(crash)
            if crash:
                print(f"--- last lines of {child.name}'s log ---\n{child.tail()}", flush=True)
            child.stop()
        if arguments.keep or failures:
            print(f"apifuzz: logs and reports kept in {workdir}", flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"apifuzz: FAILED (seed {seed}): " + "; ".join(failures), flush=True)
        return 1
    print(f"apifuzz: passed (seed {seed})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
