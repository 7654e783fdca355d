"""`storekeeper serve --dev` as a child process of the engine tests."""

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DevServer:
    """`storekeeper serve --dev` on a free port, with its data in `directory`."""

    def __init__(self, binary, directory, port=None):
        self.binary = binary
        self.directory = Path(directory)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        self.directory.mkdir(parents=True, exist_ok=True)
        self.log = open(self.directory / "server.log", "ab")
        self.process = subprocess.Popen(
            [
                str(self.binary), "serve", "--dev", "--port", str(self.port),
                "--database", f"sqlite:{self.directory / 'ledger.sqlite'}",
                "--dev-data-dir", str(self.directory / "dev"),
            ],
            cwd=self.directory, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"engines: the server exited ({self.process.returncode}); see {self.directory}/server.log")
            try:
                with urllib.request.urlopen(self.url + "/v1/products", timeout=2):
                    return self
            except OSError:
                time.sleep(0.2)
        sys.exit("engines: the server did not answer within 60 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
