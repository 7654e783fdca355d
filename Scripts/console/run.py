#!/usr/bin/env python3
"""The support console's browser tests: headless Chromium driven by Playwright.

Installs Playwright, pinned, from PyPI into a virtual environment of its own (once), and
runs console_test.py inside it against `storekeeper serve --dev` (a fresh ledger and
emulator directory, a free port). The browser is the system's Chromium (Debian's
`chromium` package, /usr/bin/chromium): `playwright install` is never run, nothing is
downloaded but the Python package. One PASS or FAIL line per scenario; exits 1 when any
failed. Screenshots of every page go to .build/console-artifacts/ (and, with
--update-docs, to docs/console/, which docs/console.md shows).

  Scripts/console/run.py --binary .build/debug/storekeeper [--update-docs] [--keep] [SCENARIO ...]
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# Playwright, pinned: a new release is adopted by changing this line and running the tests.
REQUIREMENTS = ["playwright==1.65.2"]
CHROMIUM = Path("/usr/bin/chromium")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "storekeeper"))
    parser.add_argument("--venv", default=str(ROOT / ".build" / "console-venv"))
    parser.add_argument("--artifacts", default=str(ROOT / ".build" / "console-artifacts"))
    parser.add_argument("--update-docs", action="store_true", help="also save the screenshots to docs/console/")
    parser.add_argument("--keep", action="store_true", help="keep the server's work directory (log, ledger)")
    parser.add_argument("scenarios", nargs="*", help="e.g. lockout manual_grant (all by default)")
    arguments = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"console: {CHROMIUM} is missing: apt-get install chromium fonts-wqy-zenhei", flush=True)
        return 1
    venv = Path(arguments.venv)
    subprocess.check_call([sys.executable, str(HERE.parent / "install_venv.py"), str(venv), *REQUIREMENTS])
    command = [str(venv / "bin" / "python"), str(HERE / "console_test.py"), "--binary", arguments.binary,
               "--artifacts", arguments.artifacts]
    command += (["--update-docs"] if arguments.update_docs else []) + (["--keep"] if arguments.keep else [])
    command += arguments.scenarios
    # PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: the system's Chromium is the browser; never fetch one.
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    return subprocess.call(command, cwd=ROOT, env=environment)


if __name__ == "__main__":
    sys.exit(main())
