#!/usr/bin/env python3
"""Creates a virtual environment (once) and installs pinned tools from PyPI into it.

  Scripts/install_venv.py VENV_DIRECTORY [REQUIREMENT ...]

Without requirements it installs the API fuzzer's (Scripts/apifuzz). A stamp file in the environment
records what was installed, so a second call with the same requirements does nothing.
"""

import subprocess
import sys
import venv
from pathlib import Path

# schemathesis drives the HTTP APIs (emulator_token.py needs the standard library only).
REQUIREMENTS = ["schemathesis==4.32.5"]


def main() -> int:
    directory = Path(sys.argv[1])
    requirements = sys.argv[2:] or REQUIREMENTS
    python = directory / "bin" / "python"
    stamp = directory / "installed.txt"
    wanted = "\n".join(requirements)
    if stamp.exists() and stamp.read_text() == wanted:
        return 0
    if not python.exists():
        venv.create(directory, with_pip=True)
    subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", *requirements])
    stamp.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
