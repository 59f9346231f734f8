# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""vora_device against the real vora and a real pairing store: approve, reject, idempotent, no token."""

from __future__ import annotations

import json
import os

from ansible_collections.vora.operator.plugins.modules import vora_device


def ask_to_pair(install, *options):
    """A device asks to pair: vora's own demo request (a fresh Ed25519 key, the gateway's format)."""
    staged = install.cli('devices', 'demo-request', *options)
    install.cli('devices', 'list')  # the operator looks at the request, as they would to learn the id
    return staged['deviceId']


def tokens(install):
    with open(os.path.join(install.state_dir, 'devices', 'paired.json')) as f:
        paired = json.load(f)
    return [t['token'] for device in paired.values() for t in device.get('tokens', {}).values()]


def test_approves_the_request_then_a_paired_device_is_no_change(install, run_module):
    device_id = ask_to_pair(install, '--scope', 'operator.read')
    first = run_module(vora_device, install.args(device_id=device_id), diff=True)
    assert (first.code, first.result['changed'], first.result['paired']) == (0, True, True)
    assert first.result['request']['classification']['kind'] == 'new-device'
    assert first.result['device']['deviceId'] == device_id
    assert first.result['device']['roles'] == ['operator']
    assert first.result['diff']['after'].startswith('paired: ')
    minted = tokens(install)
    assert minted and not any(token in first.stdout for token in minted)

    again = run_module(vora_device, install.args(device_id=device_id[:12]))
    assert (again.result['changed'], again.result['paired'], again.result['request']) == (False, True, None)
    assert not any(token in again.stdout for token in minted)
    assert tokens(install) == minted  # nothing minted again


def test_check_mode_names_the_request_and_writes_nothing(install, run_module):
    device_id = ask_to_pair(install)
    before = install.snapshot()
    done = run_module(vora_device, install.args(device_id=device_id), check=True, diff=True)
    assert (done.result['changed'], done.result['paired']) == (True, True)
    assert done.result['request']['deviceId'] == device_id
    assert done.result['diff']['before'].startswith('pending: %s ' % done.result['request']['requestId'])
    assert install.snapshot() == before


def test_a_scope_upgrade_of_a_paired_device_is_approved_without_a_terminal(install, run_module):
    device_id = ask_to_pair(install)
    run_module(vora_device, install.args(device_id=device_id))
    ask_to_pair(install, '--device', device_id, '--scope', 'operator.admin')
    done = run_module(vora_device, install.args(device_id=device_id))
    assert (done.code, done.result['changed']) == (0, True)
    assert done.result['request']['classification']['kind'] == 'scope-upgrade'
    assert 'operator.admin' in done.result['device']['approvedScopes']


def test_rejects_a_request_then_no_request_is_no_change(install, run_module):
    device_id = ask_to_pair(install)
    done = run_module(vora_device, install.args(device_id=device_id, state='rejected'))
    assert (done.result['changed'], done.result['paired']) == (True, False)
    assert install.cli('devices', 'list')['pending'] == []
    again = run_module(vora_device, install.args(device_id=device_id, state='rejected'))
    assert again.result['changed'] is False


def test_a_device_that_neither_asks_nor_is_paired_fails_with_vora_s_hint(install, run_module):
    before = install.snapshot()
    done = run_module(vora_device, install.args(device_id='0123456789abcdef'))
    assert done.code == 1
    assert done.result['error']['code'] == 'not_found'
    assert done.result['msg'] == (
        'device 0123456789abcdef has no live pairing request in %s and is not paired (hint: have the device connect '
        '(it asks to pair), then run the task again within 5 minutes)' % install.state_dir)
    assert install.snapshot() == before


def test_a_device_id_that_is_no_hex_prefix_of_8_is_refused_before_vora_runs(install, run_module):
    for device_id in ('96ce6da', 'ops-laptop'):
        done = run_module(vora_device, install.args(device_id=device_id), check=True)
        assert done.code == 1
        assert done.result['msg'] == ('device_id %s is not a device id or a prefix of 8 or more hex digits of one '
                                      '(vora devices list shows them)' % device_id)
