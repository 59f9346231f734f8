# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""vora_info against the real vora: what it reports, no token, doctor's verdict as a gate."""

from __future__ import annotations

import shutil

from ansible_collections.vora.operator.plugins.modules import vora_device, vora_info


def test_reports_version_config_slots_plugins_devices_and_doctor(install, run_module):
    device_id = install.cli('devices', 'demo-request')['deviceId']
    run_module(vora_device, install.args(device_id=device_id))
    before = install.snapshot()
    done = run_module(vora_info, install.args(), check=True)
    assert (done.code, done.result['changed']) == (0, False)
    facts = done.result['vora']
    assert facts['version'] == install.cli('--version')['version']
    assert facts['config_path'] == install.config and facts['state_dir'] == install.state_dir
    assert facts['slots'] == {'contextEngine': 'legacy', 'memory': 'memory-core'}
    assert facts['plugins'] == []
    assert [d['deviceId'] for d in facts['devices']['paired']] == [device_id] and facts['devices']['pending'] == []
    assert facts['doctor']['ok'] is True and facts['doctor']['summary']['error'] == 0
    assert {c['id'] for c in facts['doctor']['checks']} >= {'config-file', 'config-schema', 'pairing-store'}
    assert '"token"' not in done.stdout
    assert install.snapshot() == before


def test_fail_on_turns_doctor_s_verdict_into_a_failure(install, run_module):
    shutil.rmtree(install.state_dir + '/workspace')  # doctor warns: the workspace does not exist
    assert run_module(vora_info, install.args(fail_on='error')).code == 0
    assert run_module(vora_info, install.args()).code == 0
    done = run_module(vora_info, install.args(fail_on='warn'))
    assert done.code == 1
    assert done.result['msg'].startswith('vora doctor: 1 check(s) at warn or worse: workspace (warn): agent main: '
                                         'workspace %s/workspace does not exist' % install.state_dir)
    assert done.result['vora']['doctor']['summary']['warn'] == 1


def test_a_config_that_does_not_parse_is_reported_not_raised(install, run_module):
    with open(install.config, 'a') as f:
        f.write('}{')  # the gateway would not start either
    info = run_module(vora_info, install.args())
    assert info.code == 0
    facts = info.result['vora']
    assert facts['doctor']['ok'] is False and facts['doctor']['summary']['error'] >= 1
    assert facts['slots'] == {'contextEngine': None, 'memory': None}
    [warning] = [w['event']['msg'] if isinstance(w, dict) else w for w in info.result['warnings']]  # 2.19: events
    assert 'vora config get plugins.slots.contextEngine --json: ' not in warning  # the words, without the executable
    for words in ('plugins list', 'config get plugins.slots.contextEngine', 'config get plugins.slots.memory'):
        assert 'vora %s: %s:14:1: unexpected text after the top-level value' % (words, install.config) in warning
    gated = run_module(vora_info, install.args(fail_on='error'))
    assert gated.code == 1 and gated.result['msg'].startswith('vora doctor: ')
