#!/usr/bin/env python3
"""Apple's own App Store Server Library (Python, from PyPI) against `storekeeper emulator`.

Installs the library, pinned, into a virtual environment of its own (once), then runs
conformance.py inside it: the library's API client calls every App Store Server API
operation the emulator serves, its SignedDataVerifier verifies every signed answer,
notification and device transaction, its ReceiptUtility reads app receipts. The library is
used unchanged; see apple_hosts.py for how its requests to Apple's hosts reach the emulator.
Exits 1 when a check fails.

  Scripts/conformance/run.py --binary .build/debug/storekeeper [-v] [TEST ...]
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# Apple's library, pinned: a new release is adopted by changing this line and running the test.
REQUIREMENTS = ["app-store-server-library==3.1.2"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "storekeeper"))
    parser.add_argument("--venv", default=str(ROOT / ".build" / "conformance-venv"))
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("tests", nargs="*", help="e.g. RefundTests or RefundTests.test_full_refund_type")
    arguments = parser.parse_args()
    venv = Path(arguments.venv)
    subprocess.check_call([sys.executable, str(HERE.parent / "install_venv.py"), str(venv), *REQUIREMENTS])
    command = [str(venv / "bin" / "python"), str(HERE / "conformance.py"), "--binary", arguments.binary]
    command += (["-v"] if arguments.verbose else []) + arguments.tests
    return subprocess.call(command, env={**os.environ, "PYTHONUNBUFFERED": "1"})


if __name__ == "__main__":
    sys.exit(main())
