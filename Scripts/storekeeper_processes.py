"""Starting and watching storekeeper processes, for the scripts that drive them.

Shared by Scripts/apifuzz/run.py, Scripts/conformance/conformance.py, Scripts/console/ and
Scripts/deploy/ (http_json and wait_until_ok: servers in containers, not child processes).
"""

import json
import signal
import socket
import subprocess
import time
import urllib.error
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


def http_call(method: str, url: str, body=None, token: str = None, timeout: float = 30):
    """One JSON request: (status, headers, raw body bytes); never raises on an HTTP status."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def http_json(method: str, url: str, body=None, token: str = None, expect=(200,), timeout: float = 30):
    """One JSON request; returns the parsed answer (or its text), raising AssertionError when
    the status is not in `expect` (the answer's text in the message)."""
    status, _, raw = http_call(method, url, body, token, timeout)
    text = raw.decode(errors="replace")
    if status not in expect:
        raise AssertionError(f"{method} {url}: HTTP {status}: {text[:300]}")
    return json.loads(text) if text.strip().startswith(("{", "[")) else text


def wait_until_ok(url: str, seconds: float = 60, still_running=None) -> float:
    """Polls `url` until it answers 200; returns the seconds waited. `still_running`, when
    given, is called between polls and returns why waiting is pointless (or None)."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return time.monotonic() - started
        except OSError:
            pass
        if still_running is not None:
            problem = still_running()
            if problem:
                raise SystemExit(f"{url}: {problem}")
        time.sleep(0.1)
    raise SystemExit(f"{url} did not answer 200 within {seconds} s")
