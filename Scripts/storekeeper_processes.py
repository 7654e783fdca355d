"""Starting and watching storekeeper processes, for the scripts that drive them.

Shared by Scripts/apifuzz/run.py and Scripts/conformance/conformance.py.
"""

import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

# A Swift runtime trap or a crash as the process prints it on its way down.
CRASH_MARKERS = ("Fatal error", "Illegal instruction", "Segmentation fault", "Aborted", "Stack dump")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the process serving {url} exited with {process.returncode} before serving")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.25)
    raise SystemExit(f"{url} did not answer 200 within {seconds} s")


class Child:
    """A storekeeper process with its output in a log file."""

    def __init__(self, name: str, arguments: list, workdir: Path):
        self.name = name
        self.log_path = workdir / f"{name}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir)

    def crash_report(self):
        """Why the process is not healthy, or None."""
        if self.process.poll() is not None:
            return f"{self.name} exited with status {self.process.returncode}"
        text = self.log_path.read_text(errors="replace")
        for marker in CRASH_MARKERS:
            if marker in text:
                return f"{self.name} printed {marker!r}"
        return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
