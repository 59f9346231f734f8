# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""module_utils/vora.py: vora's command lines, how an answer is read, and what is kept out of results."""

from __future__ import annotations

import json
import subprocess

import pytest
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    Commands,
    VoraFailure,
    file_diffs,
    read_answer,
    without_tokens,
)
from ansible_collections.vora.operator.plugins.modules import vora_config


def test_commands_that_would_ask_on_a_terminal_say_yes():
    assert Commands.devices_approve('96ce6dad', False) == ['devices', 'approve', '--device', '96ce6dad', '--yes']
    assert Commands.plugins_uninstall('my-engine', True) == ['plugins', 'uninstall', 'my-engine', '--yes', '--dry-run']


def test_a_value_goes_on_stdin_as_strict_json_never_on_the_command_line():
    assert Commands.config_set('gateway.auth.token', False) == [
        'config', 'set', 'gateway.auth.token', '--stdin', '--strict-json']


def test_every_writing_command_has_its_dry_run():
    writes = [
        Commands.config_set('a', True), Commands.config_unset('a', True),
        Commands.plugins_install('/src/x', False, True, False, True), Commands.plugins_use('x', 'memory', True),
        Commands.plugins_enable('x', False, True), Commands.plugins_uninstall('x', True),
        Commands.devices_approve('x', True), Commands.devices_reject('x', True),
        Commands.backup_create('/b', {}, None, False, True),
    ]
    assert all(words[-1] == '--dry-run' for words in writes)


def test_backup_dest_is_named_as_a_folder():
    options = dict(only_config=True, workspace=False, include_logs=True, include_links=True)
    assert Commands.backup_create('/var/backups/vora', options, None, False, False) == [
        'backup', 'create', '--output', '/var/backups/vora/', '--include-links', '--include-logs', '--only-config',
        '--no-workspace']


def test_an_encrypted_backup_names_its_recipients_or_reads_its_passphrase_from_stdin():
    assert Commands.backup_create('/b', {}, ['age1a', 'age1b'], False, False) == [
        'backup', 'create', '--output', '/b/', '--encrypt-to', 'age1a', '--encrypt-to', 'age1b']
    assert Commands.backup_create('/b', {}, None, True, True)[-2:] == ['--passphrase', '--dry-run']
    verify = Commands.backup_verify('/b/x.tar.gz.age', '/k/key.txt')
    assert verify == ['backup', 'verify', '/b/x.tar.gz.age', '--identity', '/k/key.txt']
    assert Commands.backup_list('/b', passphrase=True) == ['backup', 'list', '/b', '--passphrase']


@pytest.mark.parametrize('words', [['config', 'get', 'gateway.nope'], ['plugins', 'inspect', 'nope'],
                                   ['devices', 'approve', '--device', '00000000', '--yes']])
def test_vora_error_documents_become_failures_with_the_hint(install, words):
    done = subprocess.run([install.vora, '--state-dir', install.state_dir, *words, '--json'],
                          capture_output=True, text=True, check=False)
    with pytest.raises(VoraFailure) as failed:
        read_answer(done.returncode, done.stdout, done.stderr)
    error = json.loads(done.stdout)['error']
    assert (failed.value.code, failed.value.message, failed.value.hint) == (error['code'], error['message'], error['hint'])
    assert failed.value.msg == '%s (hint: %s)' % (error['message'], error['hint'])
    assert failed.value.rc == 1


def test_a_failure_without_hint_is_the_message_alone():
    assert VoraFailure('conflict', 'the file changed', None, 3).msg == 'the file changed'


def test_output_that_is_no_json_document_names_the_exit_code_and_stderr():
    with pytest.raises(VoraFailure) as failed:
        read_answer(127, b'', b'sh: 1: vora: not found\n')
    assert failed.value.code == 'no_answer'
    assert failed.value.message == 'vora exited 127 without a JSON answer: sh: 1: vora: not found'


def test_tokens_are_left_out_and_remembered_as_secrets():
    secrets = set()
    doc = {'paired': [{'deviceId': 'a', 'tokens': {'operator': {'token': 'T0KEN', 'role': 'operator'}}}]}
    assert without_tokens(doc, secrets) == {'paired': [{'deviceId': 'a', 'tokens': {'operator': {'role': 'operator'}}}]}
    assert secrets == {'T0KEN'}


def test_file_diffs_are_vora_s_own_diff_per_file():
    write = {'files': [{'path': '/s/vora.json', 'diff': '--- a\n+++ b\n', 'backup': None},
                       {'path': '/s/inc.json5', 'diff': '', 'backup': None}]}
    assert file_diffs(write) == [dict(before_header='/s/vora.json', after_header='/s/vora.json', prepared='--- a\n+++ b\n')]


def test_an_executable_that_is_not_there_fails_with_its_name(install, run_module):
    done = run_module(vora_config, install.args(path='gateway.port', value=1, vora_executable='/nowhere/vora'))
    assert done.code == 1
    assert done.result['msg'] == 'vora_executable /nowhere/vora is not an executable file'


def test_a_name_not_on_path_says_where_it_looked(install, run_module, monkeypatch):
    monkeypatch.setenv('PATH', install.root)
    done = run_module(vora_config, install.args(path='gateway.port', value=1, vora_executable='vora-nope'))
    assert done.code == 1
    assert done.result['msg'] == ('vora-nope was not found on PATH (%s); install vora on the host or set '
                                  'vora_executable' % install.root)
