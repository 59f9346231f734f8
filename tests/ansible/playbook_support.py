"""The fleet the playbook test converges: three local hosts, each the example install in a tree of
its own (home, state dir, plugin sources, backups), and ansible-playbook run on them with the
collection built from this checkout."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devices_support import key, request, write_store

REPO = Path(__file__).resolve().parents[2]
COLLECTION = REPO / "ansible" / "ansible_collections" / "vora" / "operator"
EXAMPLE_INSTALL = REPO / "examples" / "vora"
ENGINE = REPO / "examples" / "plugins" / "my-engine"
DOCS = REPO / "docs" / "ansible.md"
CALLBACKS = Path(__file__).resolve().parent / "callback_plugins"
BIN = Path(sys.executable).parent  # the venv: vora, ansible-playbook, ansible-galaxy

# How each host gets its context engine: a link to a checkout, a copy from a folder, a copy from an archive.
ENGINE_KINDS = ("link", "folder", "archive")


@dataclass
class Host:
    name: str
    root: Path  # everything of this host's: home, state dir, sources, backups
    cache: Path  # vora's caches: the user's, outside the install
    port: int
    engine: str
    engine_source: Path
    device_id: str
    token: str = field(default_factory=lambda: "tok-" + secrets.token_hex(16))

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def state_dir(self) -> Path:
        return self.root / "vora"

    @property
    def config(self) -> Path:
        return self.state_dir / "vora.json"

    @property
    def backups(self) -> Path:
        return self.root / "backups"

    def env(self) -> dict[str, str]:
        return clean_env(HOME=str(self.home), XDG_CACHE_HOME=str(self.cache))

    def vora(self, *args: str) -> Any:
        """Run vora on this host's install (to set the scene or read back) and return its JSON answer."""
        done = subprocess.run([str(BIN / "vora"), "--state-dir", str(self.state_dir), *args, "--json"],
                              capture_output=True, text=True, env=self.env(), check=False)
        return json.loads(done.stdout)

    def inventory_vars(self) -> dict[str, Any]:
        return {
            "ansible_connection": "local",
            "ansible_python_interpreter": sys.executable,
            "vora_home": str(self.home),
            "vora_cache_home": str(self.cache),
            "vora_state_dir": str(self.state_dir),
            "vora_port": self.port,
            "vora_engine_source": str(self.engine_source),
            "vora_engine_link": self.engine == "link",
            "vora_ops_laptop": self.device_id,
            "vora_backup_dir": str(self.backups),
            "vora_gateway_token": self.token,
        }


def clean_env(**extra: str) -> dict[str, str]:
    """The test's environment without vora's or XDG variables (the suite's isolation sets VORA_HOME,
    which would win over each host's HOME), the venv first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VORA_", "XDG_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def npm_pack(folder: Path, archive: Path) -> Path:
    """The folder as npm packs it: every file under `package/`."""
    archive.parent.mkdir(parents=True)
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname="package")
    return archive


def make_host(base: Path, index: int, engine: str) -> Host:
    """One host: the example install (less its linked plugin, which the play brings), a pending device
    request as the gateway writes one, and the context engine's source."""
    name = f"gw{index}"
    root = base / name
    shutil.copytree(EXAMPLE_INSTALL, root / "vora")
    (root / "home").mkdir()
    if engine == "link":
        source = root / "src" / "my-engine"  # the dev host's checkout
        shutil.copytree(ENGINE, source)
    elif engine == "folder":
        source = ENGINE
    else:
        source = npm_pack(ENGINE, root / "artifacts" / "my-engine-0.1.0.tgz")
    laptop = f"laptop-{name}"
    host = Host(name, root, base / f"cache-{name}", 18800 + index, engine, source, key(laptop).device_id)
    host.vora("config", "unset", "plugins")
    write_store(host.state_dir, pending=[request(laptop, ts=int(time.time() * 1000))])
    # the operator looks at the request (how its device id gets into the inventory)
    assert [r["deviceId"] for r in host.vora("devices", "list")["pending"]] == [host.device_id]
    return host


def comments(text: str) -> list[str]:
    """Every comment of a JSON5 text (what a lossless edit must keep)."""
    return re.findall(r"//[^\n]*|/\*.*?\*/", text, re.DOTALL)


def snapshot(root: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every file, folder and link under `root`: its mode (type included) and its bytes (a link's target)."""
    seen: dict[str, tuple[int, bytes | str | None]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content: bytes | str | None = None
        if path.is_symlink():
            content = os.readlink(path)
        elif path.is_file():
            content = path.read_bytes()
        seen[str(path.relative_to(root))] = (st.st_mode, content)
    return seen


def fleet_play() -> list[dict[str, Any]]:
    """The play docs/ansible.md shows, as written there."""
    import yaml  # PyYAML comes with ansible-core, which only this test needs

    text = DOCS.read_text()
    block = re.search(r"<!-- fleet-play -->\n```yaml\n(.*?)```", text, re.DOTALL)
    assert block, "docs/ansible.md lost its fleet play (the block after <!-- fleet-play -->)"
    return yaml.safe_load(block.group(1))


@dataclass
class Fleet:
    base: Path
    hosts: list[Host]
    collections: Path

    def write_playbook(self) -> tuple[Path, Path]:
        """The docs' play, each host's own HOME and cache set around it (a real host has its own), and
        the inventory of the three hosts."""
        import yaml

        plays = fleet_play()
        for play in plays:
            play["environment"] = {"HOME": "{{ vora_home }}", "XDG_CACHE_HOME": "{{ vora_cache_home }}"}
        site = self.base / "site.yml"
        site.write_text(yaml.safe_dump(plays, sort_keys=False))
        inventory = self.base / "inventory.json"
        inventory.write_text(json.dumps({"gateways": {"hosts": {h.name: h.inventory_vars() for h in self.hosts}}}))
        return site, inventory

    def run(self, label: str, *options: str) -> Run:
        site, inventory = self.write_playbook()
        record = self.base / f"record-{label}.jsonl"
        controller = self.base / "controller"
        env = clean_env(
            HOME=str(controller / "home"),
            ANSIBLE_HOME=str(controller / "ansible"),
            ANSIBLE_LOCAL_TEMP=str(controller / "tmp"),
            ANSIBLE_REMOTE_TEMP=str(controller / "remote-tmp"),
            ANSIBLE_COLLECTIONS_PATH=str(self.collections),
            ANSIBLE_CALLBACK_PLUGINS=str(CALLBACKS),
            ANSIBLE_CALLBACKS_ENABLED="vora_record",
            ANSIBLE_NOCOLOR="1",
            ANSIBLE_RETRY_FILES_ENABLED="0",
            ANSIBLE_LOCALHOST_WARNING="0",
            PYTHONWARNINGS="ignore",
            VORA_RECORD=str(record),
            VORA_RECORD_CONFIGS=json.dumps({h.name: str(h.config) for h in self.hosts}),
        )
        done = subprocess.run([str(BIN / "ansible-playbook"), "-i", str(inventory), str(site), "--forks", "3", *options],
                              cwd=self.base, env=env, capture_output=True, text=True, check=False)
        records = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
        return Run(done.returncode, done.stdout + done.stderr, records, record)


@dataclass
class Run:
    returncode: int
    output: str
    records: list[dict[str, Any]]
    record_file: Path

    def changed(self, host: str) -> set[str]:
        return {r["task"] for r in self.records if r["host"] == host and r["changed"]}

    def result(self, host: str, task: str) -> dict[str, Any]:
        [found] = [r for r in self.records if r["host"] == host and r["task"] == task]
        return found


def build_collection(base: Path) -> Path:
    """`ansible-galaxy collection build` of this checkout's collection, installed (offline) where the
    plays find it."""
    env = clean_env(HOME=str(base / "controller" / "home"), ANSIBLE_HOME=str(base / "controller" / "ansible"),
                    PYTHONWARNINGS="ignore")
    dist, collections = base / "dist", base / "collections"
    subprocess.run([str(BIN / "ansible-galaxy"), "collection", "build", str(COLLECTION), "--output-path", str(dist)],
                   env=env, check=True, capture_output=True)
    [archive] = dist.glob("vora-operator-*.tar.gz")
    subprocess.run([str(BIN / "ansible-galaxy"), "collection", "install", "--offline", str(archive), "-p", str(collections)],
                   env=env, check=True, capture_output=True)
    return collections


def make_fleet(base: Path) -> Fleet:
    collections = build_collection(base)  # first: the requests staged next live five minutes
    hosts = [make_host(base, i, engine) for i, engine in enumerate(ENGINE_KINDS, start=1)]
    return Fleet(base, hosts, collections)
