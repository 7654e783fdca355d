#!/usr/bin/env python3
"""Builds libStoreKeeperSDK.so and runs the engine tests against `storekeeper serve --dev`.

    Scripts/engines/run.py                   # every suite
    Scripts/engines/run.py --suites c,cpp    # some: symbols c storekit cpp csharp examples kill fuzz (space or comma separated)

Environment:
    STOREKEEPER_BINARY   the server (default .build/debug/storekeeper, else
                         /work/bin/storekeeper)

Steps: `swift build --package-path SDK --product StoreKeeperSDK`; the symbol check
(check-symbols.sh on the debug and the release library, and a self-test showing it catches
a stray export and a lost ABI symbol); then, per suite, the test program compiled against storekeeper_sdk.h and the
library and run against a fresh `serve --dev` on a free 127.0.0.1 port (its own SQLite
ledger and emulator data in a temporary directory). Exits non-zero when anything fails.
Needs gcc, g++, curl, nm (binutils), Mono for csharp (Debian: mono-mcs mono-runtime), clang (the Swift toolchain's) for fuzz.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import kill
from devserver import DevServer

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "SDK"
INCLUDE = SDK / "Sources" / "StoreKeeperSDK" / "include"
TESTS = ROOT / "Engines" / "Tests"
SUITES = ["symbols", "c", "storekit", "cpp", "csharp", "examples", "kill", "fuzz"]


def log(message):
    print(f"engines: {message}", flush=True)


def run(command, **kwargs):
    log("$ " + " ".join(str(part) for part in command))
    return subprocess.run([str(part) for part in command], check=True, **kwargs)


def server_binary():
    configured = os.environ.get("STOREKEEPER_BINARY")
    if configured:
        return Path(configured)
    for candidate in (ROOT / ".build" / "debug" / "storekeeper", Path("/work/bin/storekeeper")):
        if candidate.exists():
            return candidate
    sys.exit("engines: no storekeeper binary: build it or set STOREKEEPER_BINARY")


def build_library():
    run(["swift", "build", "--package-path", SDK, "--product", "StoreKeeperSDK"])
    output = subprocess.run(
        ["swift", "build", "--package-path", SDK, "--show-bin-path"], check=True, capture_output=True, text=True
    ).stdout.strip()
    library = Path(output) / "libStoreKeeperSDK.so"
    if not library.exists():
        sys.exit(f"engines: {library} was not built")
    return library


def symbols_suite(library, work):
    script = Path(__file__).resolve().parent / "check-symbols.sh"
    run([script, library])
    # The release build too: what ships, where whole-module optimization could hide symbols.
    run(["swift", "build", "--package-path", SDK, "--product", "StoreKeeperSDK", "-c", "release"])
    release = subprocess.run(
        ["swift", "build", "--package-path", SDK, "-c", "release", "--show-bin-path"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    run([script, Path(release) / "libStoreKeeperSDK.so"])
    # Self-test: a library exporting a stray symbol and missing sk_close must be refused.
    source = work / "stray.c"
    source.write_text(
        "".join(f"void {name}(void) {{}}\n" for name in
                ["sk_version", "sk_open", "sk_call", "sk_poll", "sk_wait", "sk_free", "stray_helper"])
    )
    stray = work / "libstray.so"
    run(["gcc", "-shared", "-fPIC", "-o", stray, source])
    refused = subprocess.run([str(script), str(stray)], capture_output=True, text=True)
    if refused.returncode == 0 or "stray_helper" not in refused.stderr or "sk_close" not in refused.stderr:
        sys.exit(f"engines: check-symbols.sh accepted a bad library:\n{refused.stdout}{refused.stderr}")
    log("check-symbols.sh refuses a stray export and a missing ABI symbol")


def compile_c(source, output, library):
    run([
        "gcc", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-I", INCLUDE, "-I", TESTS / "C",
        source, "-L", library.parent, "-lStoreKeeperSDK", f"-Wl,-rpath,{library.parent}", "-lpthread",
        "-o", output,
    ])


def compile_cpp(source, output, library):
    run([
        "g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", INCLUDE, "-I", ROOT / "Engines" / "Cpp" / "include",
        source, "-L", library.parent, "-lStoreKeeperSDK", f"-Wl,-rpath,{library.parent}", "-lpthread",
        "-o", output,
    ])


def run_against_server(program, work, binary, name):
    """Runs `program` against a fresh `serve --dev` of its own."""
    server = DevServer(binary, work / f"server-{name}").start()
    try:
        environment = dict(os.environ, SK_SERVER_URL=server.url, SK_WORK_DIR=str(work / f"clients-{name}"),
                           STOREKEEPER_BINARY=str(binary))
        # StoreKit for Linux unconfigured: abi_test expects storekit2/storekit1 refused.
        for variable in ("STOREKEEPER_STOREKIT_URL", "STOREKEEPER_STOREKIT_DEVICE", "STOREKEEPER_STOREKIT_DATA"):
            environment.pop(variable, None)
        run(program, env=environment, timeout=600)
    finally:
        server.stop()


def csharp_suite(library, work, binary):
    """The Unity package's runtime (Engines/Unity/Runtime) compiled with Mono's mcs and run
    with mono, which finds libStoreKeeperSDK.so through LD_LIBRARY_PATH."""
    program = work / "ClientTest.exe"
    sources = sorted((ROOT / "Engines" / "Unity" / "Runtime").glob("*.cs")) + [TESTS / "CSharp" / "ClientTest.cs"]
    run(["mcs", "-warnaserror", f"-out:{program}", *sources])
    path = os.pathsep.join(filter(None, [str(library.parent), os.environ.get("LD_LIBRARY_PATH")]))
    os.environ["LD_LIBRARY_PATH"] = path
    run_against_server(["mono", program], work, binary, "csharp")


def examples_suite(library, work, binary):
    """Examples/: the C and the C# console games, built and played once each; each must show
    a wallet of 100 coins for its fresh player."""
    game = work / "game"
    compile_c(ROOT / "Examples" / "CConsoleGame" / "game.c", game, library)
    game_exe = work / "game.exe"
    run(["mcs", "-warnaserror", f"-out:{game_exe}",
         *sorted((ROOT / "Engines" / "Unity" / "Runtime").glob("*.cs")), ROOT / "Examples" / "CSharpConsoleGame" / "Game.cs"])
    server = DevServer(binary, work / "server-examples").start()
    try:
        environment = dict(os.environ, LD_LIBRARY_PATH=str(library.parent))
        for name, command in (("c", [game]), ("csharp", ["mono", game_exe])):
            player = f"example-{name}"
            token = subprocess.run([str(binary), "token", "--player", player], check=True, capture_output=True,
                                   text=True).stdout.strip()
            directory = work / f"example-{name}"
            directory.mkdir()
            output = subprocess.run([str(part) for part in command] + [server.url, player, token], cwd=directory,
                                    env=environment, check=True, capture_output=True, text=True, timeout=300).stdout
            if 'wallet: {"coins":100}' not in output:
                sys.exit(f"engines: the {name} example did not show 100 coins:\n{output}")
            log(f"the {name} example bought 100 coins")
    finally:
        server.stop()


def kill_suite(library, work, binary, rounds):
    """kill.py: SIGKILLed hosts against the emulator's ledger, and a server outage."""
    program = work / "kill_host"
    compile_c(TESTS / "Kill" / "kill_host.c", program, library)
    problems, _ = kill.kill_test(program, work, binary, log, rounds=rounds)
    problems += kill.outage_test(program, work, binary, log)
    for problem in problems:
        log(f"PROBLEM: {problem}")
    if problems:
        raise subprocess.CalledProcessError(1, "kill suite")


def c_suite(library, work, binary):
    program = work / "abi_test"
    compile_c(TESTS / "C" / "abi_test.c", program, library)
    run_against_server([program], work, binary, "c")


def storekit_suite(library, work, binary):
    """storekit_test.c with `store` storekit2, then storekit1, against one `serve --dev`: each
    on an emulated device of its own, named to StoreKit for Linux by the
    STOREKEEPER_STOREKIT_* variables (the server's root is the emulator's)."""
    program = work / "storekit_test"
    compile_c(TESTS / "C" / "storekit_test.c", program, library)
    server = DevServer(binary, work / "server-storekit").start()
    try:
        for store in ("storekit2", "storekit1"):
            environment = dict(
                os.environ, SK_SERVER_URL=server.url, SK_WORK_DIR=str(work / f"clients-{store}"),
                STOREKEEPER_BINARY=str(binary), STOREKEEPER_STOREKIT_URL=server.url,
                STOREKEEPER_STOREKIT_DEVICE=f"{store}-phone", STOREKEEPER_STOREKIT_DATA=str(work / f"device-{store}"),
            )
            run([program, store], env=environment, timeout=600)
    finally:
        server.stop()


def cpp_suite(library, work, binary):
    program = work / "wrapper_test"
    compile_cpp(TESTS / "Cpp" / "wrapper_test.cpp", program, library)
    run_against_server([program], work, binary, "cpp")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suites", default=" ".join(SUITES))
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--fuzz-seconds", type=int, default=30, help="fuzz: how long FuzzABICall runs (default 30)")
    parser.add_argument("--kill-rounds", type=int, default=40, help="kill test: kills per host (default 40)")
    arguments = parser.parse_args()
    suites = arguments.suites.replace(",", " ").split()
    unknown = [suite for suite in suites if suite not in SUITES]
    if unknown:
        sys.exit(f"engines: unknown suites {unknown}; known: {SUITES}")

    binary = server_binary()
    library = build_library()
    work = Path(tempfile.mkdtemp(prefix="storekeeper-engines-"))
    log(f"work directory {work}")
    try:
        for suite in suites:
            log(f"suite {suite}")
            if suite == "symbols":
                symbols_suite(library, work)
            elif suite == "c":
                c_suite(library, work, binary)
            elif suite == "storekit":
                storekit_suite(library, work, binary)
            elif suite == "cpp":
                cpp_suite(library, work, binary)
            elif suite == "csharp":
                csharp_suite(library, work, binary)
            elif suite == "examples":
                examples_suite(library, work, binary)
            elif suite == "kill":
                kill_suite(library, work, binary, arguments.kill_rounds)
            elif suite == "fuzz":
                run([ROOT / "Fuzz" / "ABI" / "run.sh", "--seconds", arguments.fuzz_seconds])
    except subprocess.CalledProcessError as error:
        log(f"FAILED: {error}")
        log(f"work directory kept: {work}")
        return 1
    if not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)
    log("all suites passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
