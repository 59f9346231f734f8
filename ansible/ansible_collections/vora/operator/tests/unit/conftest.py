# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""The modules' unit tests run each module's main() in-process, against the real vora on real files
in a temporary state dir: the answers the modules read are vora's own, never made up here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

try:
    from ansible.module_utils.testing import patch_module_args
except ImportError:  # ansible-core before 2.19
    import contextlib

    from ansible.module_utils import basic
    from ansible.module_utils.common.text.converters import to_bytes

    @contextlib.contextmanager
    def patch_module_args(args=None):
        saved = basic._ANSIBLE_ARGS
        basic._ANSIBLE_ARGS = to_bytes(json.dumps({'ANSIBLE_MODULE_ARGS': args or {}}))
        try:
            yield
        finally:
            basic._ANSIBLE_ARGS = saved

CONFIG = """\
// vora.json of a test install
{
  gateway: {
    mode: "local",
    port: 18789, // the gateway's port
    bind: "loopback",
  },
  /* the default agent */
  agents: {
    defaults: { workspace: "./workspace" },
    list: [{ id: "main", default: true }],
  },
}
"""


def find_vora():
    """The vora beside the Python running the tests (the venv vora is installed in), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), 'vora')
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which('vora')
    if not found:
        pytest.fail('these tests run the real vora: install vora-cli into the Python that runs ansible-test units')
    return found


class Install(object):
    """A state dir with a commented config, its own home, and the vora that works on it."""

    def __init__(self, root, vora):
        os.makedirs(root)
        self.root = root
        self.vora = vora
        self.home = os.path.join(root, 'home')
        self.state_dir = os.path.join(root, 'state')
        self.config = os.path.join(self.state_dir, 'vora.json')
        os.makedirs(self.home)
        os.makedirs(os.path.join(self.state_dir, 'workspace'))
        with open(self.config, 'w') as f:
            f.write(CONFIG)

    def cli(self, *args):
        """Run vora directly (to set a scene or read back), returning its JSON answer."""
        done = subprocess.run([self.vora, '--state-dir', self.state_dir, *args, '--json'],
                              capture_output=True, text=True, check=False)
        return json.loads(done.stdout)

    def text(self):
        with open(self.config) as f:
            return f.read()

    def snapshot(self):
        """Every file and folder under the root: its mode and bytes (a check run must change none)."""
        seen = {}
        for folder, dirs, files in os.walk(self.root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                st = os.lstat(path)
                data = None
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, 'rb') as f:
                        data = f.read()
                seen[os.path.relpath(path, self.root)] = (st.st_mode, data)
        return seen

    def args(self, **options):
        options.setdefault('vora_executable', self.vora)
        options.setdefault('state_dir', self.state_dir)
        return options


@pytest.fixture
def install(tmp_path, monkeypatch):
    root = str(tmp_path / 'host')
    for name in list(os.environ):
        if name.startswith(('VORA_', 'XDG_')):
            monkeypatch.delenv(name)
    made = Install(root, find_vora())
    monkeypatch.setenv('HOME', made.home)
    # vora's caches (parsed configs, schema verdicts) are the user's, not the install's
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'cache'))
    return made


class Outcome(object):
    def __init__(self, code, result, stdout):
        self.code = code
        self.result = result
        self.stdout = stdout  # what Ansible would receive, whole


@pytest.fixture
def run_module(capsys):
    """Run a module's main() with these arguments; its exit code and the result it printed."""

    def run(module, args, check=False, diff=False):
        args = dict(args, _ansible_check_mode=check, _ansible_diff=diff)
        with patch_module_args(args), pytest.raises(SystemExit) as exited:
            module.main()
        out = capsys.readouterr().out
        result = json.loads(out)
        # Ansible reads these keys itself: a module's own data under them would skip or fail the task
        assert 'skipped' not in result and ('failed' in result) == (exited.value.code != 0)
        return Outcome(exited.value.code, result, out)

    return run
