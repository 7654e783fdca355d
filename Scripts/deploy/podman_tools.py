"""Podman for the deploy tests (image_test.py, compose_test.py): the settings this machine
needs (Scripts/deploy/containers.conf through CONTAINERS_CONF, unless the caller set one),
and what the tests read from containers. Standard library only."""

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
IMAGE = os.environ.get("STOREKEEPER_IMAGE", "localhost/storekeeper:latest")
DEBIAN_BASE = os.environ.get("DEBIAN_BASE_IMAGE", "localhost/debian:bookworm")

sys.path.insert(0, str(HERE.parent))
from storekeeper_processes import free_port, http_json, wait_until_ok  # noqa: E402,F401

os.environ.setdefault("CONTAINERS_CONF", str(HERE / "containers.conf"))


def podman(*arguments, check=True, capture=True, timeout=300) -> str:
    result = subprocess.run(["podman", *[str(a) for a in arguments]], capture_output=capture, text=True,
                            timeout=timeout)
    if check and result.returncode != 0:
        raise SystemExit(f"podman {' '.join(map(str, arguments))}: exit {result.returncode}\n"
                         f"{(result.stderr or '')[-2000:]}")
    return (result.stdout or "").strip()


def image_exists(name: str) -> bool:
    return subprocess.run(["podman", "image", "exists", name]).returncode == 0


def require_image(name: str = IMAGE) -> None:
    if not image_exists(name):
        raise SystemExit(f"no image {name}: run Scripts/deploy/image.sh first")


def image_size(name: str = IMAGE) -> int:
    return int(podman("image", "inspect", "--format", "{{.Size}}", name))


def inspect(container: str) -> dict:
    return json.loads(podman("container", "inspect", container))[0]


def main_pid(container: str) -> int:
    return int(inspect(container)["State"]["Pid"])


def status_field(pid: int, name: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    return ""


def storekeeper_pid(container: str) -> int:
    """The storekeeper process of a container: its main process or, under --init, its child."""
    pid = main_pid(container)
    if Path(f"/proc/{pid}/comm").read_text().strip() == "storekeeper":
        return pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for child in children:
        if Path(f"/proc/{child}/comm").read_text().strip() == "storekeeper":
            return int(child)
    raise SystemExit(f"{container}: no storekeeper process under {pid}")


def rss_mib(pid: int, field: str = "VmRSS") -> float:
    """A memory figure of /proc/PID/status in MiB: VmRSS (resident), RssAnon (private memory
    only, without the mapped binary and libraries)."""
    kilobytes = int(status_field(pid, field).split()[0])
    return kilobytes / 1024


def cgroup_memory_mib(container: str):
    """The container's memory as `podman stats` reports it, or None when it cannot."""
    result = subprocess.run(["podman", "stats", "--no-stream", "--format", "json", container],
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        return None
    try:
        usage = json.loads(result.stdout)[0]["mem_usage"]  # e.g. "31.2MB / 8.3GB"
    except (ValueError, KeyError, IndexError):
        return None
    return usage.split("/")[0].strip()


def logs(container: str) -> str:
    """The container's output, standard output and standard error together."""
    result = subprocess.run(["podman", "logs", container], capture_output=True, text=True, timeout=60)
    return result.stdout + result.stderr
