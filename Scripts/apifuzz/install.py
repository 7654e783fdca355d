#!/usr/bin/env python3
"""Creates the virtual environment the API fuzzer runs in (once) and installs its tools.

  Scripts/apifuzz/install.py VENV_DIRECTORY
"""

import subprocess
import sys
import venv
from pathlib import Path

# schemathesis drives the HTTP APIs (emulator_token.py needs the standard library only).
REQUIREMENTS = ["schemathesis==4.32.5"]


def main() -> int:
    directory = Path(sys.argv[1])
    python = directory / "bin" / "python"
    stamp = directory / "installed.txt"
    wanted = "\n".join(REQUIREMENTS)
    if stamp.exists() and stamp.read_text() == wanted:
        return 0
    if not python.exists():
        venv.create(directory, with_pip=True)
    subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", *REQUIREMENTS])
    stamp.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
