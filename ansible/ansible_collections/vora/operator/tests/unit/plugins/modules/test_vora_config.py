# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""vora_config against the real vora: idempotent, check and diff through --dry-run, secrets, conflicts."""

from __future__ import annotations

import fcntl
import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils import vora as vora_utils
from ansible_collections.vora.operator.plugins.modules import vora_config

COMMENTS = ('// vora.json of a test install', '// the gateway\'s port', '/* the default agent */')


def test_sets_a_key_then_reports_no_change(install, run_module):
    first = run_module(vora_config, install.args(path='gateway.port', value=18800), diff=True)
    assert first.code == 0
    assert (first.result['changed'], first.result['old'], first.result['new']) == (True, 18789, 18800)
    assert first.result['file'] == install.config
    assert first.result['backup'] == install.config + '.bak'
    assert '-    port: 18789, // the gateway\'s port\n+    port: 18800, // the gateway\'s port' \
        in first.result['diff'][0]['prepared']
    assert all(comment in install.text() for comment in COMMENTS)

    again = run_module(vora_config, install.args(path='gateway.port', value=18800), diff=True)
    assert (again.result['changed'], again.result['old'], again.result['new']) == (False, 18800, 18800)
    assert again.result['changes'] == [] and again.result['diff'] == []


def test_values_keep_their_json_type(install, run_module):
    done = run_module(vora_config, install.args(path='agents.defaults.bootstrapPromptTruncationWarning',
                                                value='once'))
    assert done.result['new'] == 'once'
    mapping = run_module(vora_config, install.args(path='plugins.slots', value={'memory': 'none'}))
    assert mapping.result['new'] == {'memory': 'none'}
    assert install.cli('config', 'get', 'plugins.slots.memory')['value'] == 'none'


def test_check_mode_shows_vora_s_diff_and_writes_nothing(install, run_module):
    before = install.snapshot()
    done = run_module(vora_config, install.args(path='gateway.port', value=18800), check=True, diff=True)
    assert (done.result['changed'], done.result['old'], done.result['new']) == (True, 18789, 18800)
    assert '+    port: 18800' in done.result['diff'][0]['prepared']
    assert 'backup' not in done.result
    after = install.snapshot()
    assert sorted(set(after) ^ set(before)) == []
    assert [p for p in after if after[p] != before[p]] == []


def test_absent_removes_the_key_then_is_no_change(install, run_module):
    done = run_module(vora_config, install.args(path='gateway.bind', state='absent'))
    assert (done.result['changed'], done.result['old'], done.result['new']) == (True, 'loopback', None)
    assert 'bind' not in install.text()
    again = run_module(vora_config, install.args(path='gateway.bind', state='absent'))
    assert (again.code, again.result['changed'], again.result['old']) == (0, False, None)


def test_a_refused_value_fails_with_vora_s_message_and_hint_and_writes_nothing(install, run_module):
    before = install.snapshot()
    done = run_module(vora_config, install.args(path='gateway.port', value='18800'))  # a string, not a number
    assert done.code == 1
    assert done.result['error']['code'] == 'invalid'
    assert done.result['msg'] == '%s (hint: %s)' % (done.result['error']['message'], done.result['error']['hint'])
    assert done.result['msg'].startswith('gateway.port must be an integer 1-65535, not the string "18800" (hint: ')
    assert install.snapshot() == before


def test_a_secret_value_never_appears_in_the_result(install, run_module):
    secret = 'tok-3f9a77c2e1d04b5a'
    for check in (True, False, False):  # would set, sets, already set
        done = run_module(vora_config, install.args(path='gateway.auth.token', value=secret), check=check, diff=True)
        assert done.code == 0
        assert secret not in done.stdout
        assert done.result['new'] == '<redacted>'
    assert secret in install.text()


def test_a_secret_inside_a_mapping_never_appears_in_the_result(install, run_module):
    secret = 'tok-9c1d0e5f7a3b4c2d'
    for check in (True, False, False):
        done = run_module(vora_config, install.args(path='gateway.auth', value={'mode': 'token', 'token': secret}),
                          check=check, diff=True)
        assert done.code == 0
        assert secret not in done.stdout
        assert done.result['new'] == {'mode': 'token', 'token': '<redacted>'}


def _lock(install):
    """Hold vora's lock on the config file, as another vora writing it would."""
    fd = os.open(install.config + '.lock', os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_a_conflict_is_tried_again(install, run_module, monkeypatch):
    monkeypatch.setenv('VORA_LOCK_TIMEOUT', '0.1')
    monkeypatch.setattr(vora_utils, 'CONFLICT_PAUSE', 0)
    fd = _lock(install)
    calls = []
    real_run = AnsibleModule.run_command

    def run_command(self, args, **kwargs):
        calls.append(args)
        done = real_run(self, args, **kwargs)
        if len(calls) == 1:
            os.close(fd)  # the other writer is done after vora's first try
        return done

    monkeypatch.setattr(AnsibleModule, 'run_command', run_command)
    done = run_module(vora_config, install.args(path='gateway.port', value=18800))
    assert (done.code, done.result['changed']) == (0, True)
    assert len(calls) == 2 and calls[0] == calls[1]


def test_a_conflict_that_does_not_end_fails_after_three_tries(install, run_module, monkeypatch):
    monkeypatch.setenv('VORA_LOCK_TIMEOUT', '0.1')
    monkeypatch.setattr(vora_utils, 'CONFLICT_PAUSE', 0)
    fd = _lock(install)
    calls = []
    real_run = AnsibleModule.run_command
    monkeypatch.setattr(AnsibleModule, 'run_command', lambda self, args, **kw: calls.append(args) or real_run(self, args, **kw))
    try:
        done = run_module(vora_config, install.args(path='gateway.port', value=18800))
    finally:
        os.close(fd)
    assert (done.code, done.result['rc'], done.result['error']['code']) == (1, 3, 'conflict')
    assert len(calls) == vora_utils.CONFLICT_ATTEMPTS == 3
    assert "port: 18789" in install.text()


def test_profile_is_vora_s_profile(install, run_module):
    args = install.args(path='gateway.port', value=18899, profile='work')
    del args['state_dir']
    done = run_module(vora_config, args)
    profile_config = os.path.join(install.home, '.vora-work', 'vora.json')
    assert (done.result['changed'], done.result['file']) == (True, profile_config)
    assert "port: 18789" in install.text()  # the state dir's own config is not touched


def test_a_key_reaches_vora_as_written(install, run_module, monkeypatch):
    monkeypatch.setenv('HOME', install.home)
    monkeypatch.setenv('X', 'gateway')
    done = run_module(vora_config, install.args(path='env["$X/~"]', value='kept'))
    assert (done.code, done.result['changes'][0]['key']) == (0, 'env["$X/~"]')
    assert install.cli('config', 'get', 'env["$X/~"]')['value'] == 'kept'
