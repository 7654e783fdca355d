#!/usr/bin/env python3
"""Tests the container image (localhost/storekeeper:latest, built by Scripts/deploy/image.sh)
with Podman on the host's network, every request on 127.0.0.1, and prints its figures.

    Scripts/deploy/image_test.py [--image NAME] [--idle-seconds 5]

1. `serve --dev` on a free port, as the image's entry point runs it (storekeeper as PID 1):
   start-to-healthy (from `podman run` to the first 200 of /healthz), the image's own
   HEALTHCHECK (`podman healthcheck run`), the process's user (not root), its memory at idle
   (RSS of the process; and `podman stats`), then `podman stop`: SIGTERM (the image's
   STOPSIGNAL) must end it with status 0 well before Podman's SIGKILL.
2. Production-style: the image's default command's `serve --config /etc/storekeeper/config.json`
   with a configuration file mounted there, the secrets in STOREKEEPER_* variables and the
   SQLite ledger in a named volume on /var/lib/storekeeper: the file's bundle id and the
   environment's admin key both take effect, the ledger is written into the volume by the
   non-root user, and a second container on the same volume serves the same data.
3. The default command without secrets refuses to start (exit status 2), naming them.

Cleans up its containers, volume and files, even on failure. Exits non-zero on a failure.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from podman_tools import (IMAGE, cgroup_memory_mib, free_port, http_json, image_size, logs, podman, require_image,
                          rss_mib, status_field, storekeeper_pid, wait_until_ok)


def log(message):
    print(f"image_test: {message}", flush=True)


class Containers:
    """Names this run creates, removed at the end."""

    def __init__(self):
        self.tag = f"sk-image-test-{int(time.time())}"
        self.containers = []
        self.volumes = []

    def name(self, what):
        name = f"{self.tag}-{what}"
        self.containers.append(name)
        return name

    def volume(self, what):
        name = f"{self.tag}-{what}"
        self.volumes.append(name)
        return name

    def still_running(self, name):
        def check():
            state = podman("container", "inspect", "--format", "{{.State.Status}}", name, check=False)
            if state != "running":
                return f"container {name} is {state}:\n" + logs(name)[-3000:]
            return None
        return check

    def clean(self):
        for name in self.containers:
            podman("rm", "--force", "--volumes", name, check=False)
        for name in self.volumes:
            podman("volume", "rm", "--force", name, check=False)


def run_detached(name, *arguments, environment=(), mounts=()):
    command = ["run", "--detach", "--name", name, "--pull=never", "--network", "host"]
    for key, value in environment:
        command += ["--env", f"{key}={value}"]
    for mount in mounts:
        command += ["--volume", mount]
    return podman(*command, IMAGE, *arguments)


def dev_server(run, figures, idle_seconds):
    name = run.name("dev")
    port = free_port()
    started = time.monotonic()
    run_detached(name, "serve", "--dev", "--port", port,
                 environment=[("HEALTHCHECK_URL", f"http://127.0.0.1:{port}/healthz")])
    wait_until_ok(f"http://127.0.0.1:{port}/healthz", 60, run.still_running(name))
    figures["start-to-healthy (serve --dev, SQLite)"] = f"{time.monotonic() - started:.2f} s"
    health = subprocess.run(["podman", "healthcheck", "run", name], capture_output=True, text=True)
    if health.returncode != 0:
        raise AssertionError(f"the image's HEALTHCHECK failed: {health.stdout}{health.stderr}")
    log("the image's HEALTHCHECK (curl /healthz) answers healthy")

    pid = storekeeper_pid(name)
    uids = status_field(pid, "Uid").split()
    if uids[0] == "0" or len(set(uids)) != 1:
        raise AssertionError(f"storekeeper runs with uids {uids}")
    log(f"storekeeper is PID {pid} on the host, uid {uids[0]} (not root)")

    time.sleep(idle_seconds)
    figures["memory at idle (serve --dev)"] = (
        f"RSS {rss_mib(pid):.1f} MiB, of which anonymous {rss_mib(pid, 'RssAnon'):.1f} MiB; "
        f"podman stats {cgroup_memory_mib(name) or 'n/a'}")

    started = time.monotonic()
    podman("stop", "--time", "20", name)
    stopped = time.monotonic() - started
    code = int(podman("container", "inspect", "--format", "{{.State.ExitCode}}", name))
    figures["SIGTERM to exit (podman stop)"] = f"{stopped:.2f} s, status {code}"
    if code != 0 or stopped > 10:
        raise AssertionError(f"SIGTERM: status {code} after {stopped:.1f} s\n{logs(name)[-2000:]}")


def production_server(run, figures, work):
    config = work / "config.json"
    config.write_text(json.dumps({"bundleId": "com.example.imagetest", "allowedEnvironments": ["Production"]}))
    config.chmod(0o644)
    volume = run.volume("data")
    podman("volume", "create", volume)
    admin_key = "image-test-admin-key"
    environment = [("STOREKEEPER_PLAYER_TOKEN_SECRET", "image-test-player-secret"),
                   ("STOREKEEPER_ADMIN_KEY", admin_key)]
    mounts = [f"{config}:/etc/storekeeper/config.json:ro", f"{volume}:/var/lib/storekeeper"]
    answers = []
    for attempt in ("first", "second"):
        name = run.name(f"production-{attempt}")
        port = free_port()
        started = time.monotonic()
        run_detached(name, "serve", "--config", "/etc/storekeeper/config.json", "--hostname", "127.0.0.1",
                     "--port", port, environment=environment, mounts=mounts)
        base = f"http://127.0.0.1:{port}"
        wait_until_ok(base + "/healthz", 60, run.still_running(name))
        figures[f"start-to-healthy (serve --config, {attempt} start on the volume)"] = \
            f"{time.monotonic() - started:.2f} s"
        output = logs(name)
        if "bundleId=com.example.imagetest" not in output:
            raise AssertionError(f"the mounted configuration was not read:\n{output[-2000:]}")
        http_json("GET", base + "/v1/admin/players/nobody/timeline", token=admin_key)
        http_json("GET", base + "/v1/admin/players/nobody/timeline", token="wrong-key-wrong-key", expect=(401, 403))
        answers.append(http_json("GET", base + "/metrics"))
        podman("stop", "--time", "20", name)
    mountpoint = Path(podman("volume", "inspect", "--format", "{{.Mountpoint}}", volume))
    ledger = mountpoint / "storekeeper.sqlite"
    if not ledger.exists() or ledger.stat().st_uid == 0:
        raise AssertionError(f"no ledger written by the non-root user in the volume: {list(mountpoint.iterdir())}")
    log(f"configuration file + STOREKEEPER_* variables applied; ledger {ledger.name} in the volume "
        f"(owner uid {ledger.stat().st_uid}), served again by a second container")


def refuses_without_secrets(run):
    name = run.name("unconfigured")
    result = subprocess.run(["podman", "run", "--name", name, "--pull=never", "--network", "host", IMAGE],
                            capture_output=True, text=True, timeout=120)
    text = result.stdout + result.stderr
    if result.returncode != 2 or "playerTokenSecret" not in text or "adminKey" not in text:
        raise AssertionError(f"the default command without secrets: status {result.returncode}\n{text[-2000:]}")
    log("the default command without secrets exits 2, naming playerTokenSecret and adminKey")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--idle-seconds", type=float, default=5)
    arguments = parser.parse_args()
    require_image()
    figures = {"image size": f"{image_size() / 1e6:.0f} MB ({IMAGE})"}
    run = Containers()
    work = Path(tempfile.mkdtemp(prefix="storekeeper-image-test-"))
    work.chmod(0o755)
    started = time.monotonic()
    try:
        dev_server(run, figures, arguments.idle_seconds)
        production_server(run, figures, work)
        refuses_without_secrets(run)
    except (AssertionError, SystemExit) as failure:
        log(f"FAILED: {failure}")
        return 1
    finally:
        run.clean()
        shutil.rmtree(work, ignore_errors=True)
    figures["test wall time"] = f"{time.monotonic() - started:.1f} s"
    width = max(len(key) for key in figures)
    for key, value in figures.items():
        print(f"  {key.ljust(width)}  {value}")
    log("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
