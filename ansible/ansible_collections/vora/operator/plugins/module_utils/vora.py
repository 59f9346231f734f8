# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""Run `vora` on the managed host and read its one `--json` document.

This is the one place that knows vora's command lines (`Commands`): when vora grows or renames a
flag, this file changes and the modules do not. Everything else here is how an answer is read:
vora prints exactly one JSON document on stdout, a failure being `{"error": {"code", "message",
"hint"}}`, and exits 0 (ok), 1 (failed, or a check found problems), 2 (usage) or 3 (conflict:
nothing was written, safe to retry). Modules never have a terminal, so every command that would
ask a question is given `--yes`.
"""

from __future__ import annotations

import json
import os
import time

from ansible.module_utils.common.text.converters import to_text

VORA_COMMON_ARGUMENT_SPEC = dict(
    vora_executable=dict(type='str', default='vora'),
    state_dir=dict(type='path'),
    profile=dict(type='str'),
)

# exit 3 means another writer got there first and nothing was written: vora re-reads on the next
# try, so a bounded number of retries settles it; more would hide a writer that never stops.
CONFLICT_EXIT = 3
CONFLICT_ATTEMPTS = 3
CONFLICT_PAUSE = 0.25  # seconds, times the attempt number: the other writer finishes meanwhile

# vora shows a secret as this (or as <empty> for an empty one) in every output
REDACTED = ('<redacted>', '<empty>')


def vora_argument_spec(**options):
    """The module's own options plus the ones every vora module takes."""
    spec = dict(VORA_COMMON_ARGUMENT_SPEC)
    spec.update(options)
    return spec


class Commands(object):
    """vora's command lines, one method per question a module asks (without the global options)."""

    @staticmethod
    def _writing(words, dry_run):
        """A command that writes: with --dry-run it runs every check and writes nothing."""
        return [*words, '--dry-run'] if dry_run else words

    # -- config -------------------------------------------------------------------------------
    @classmethod
    def config_set(cls, path, dry_run):
        # the value goes on stdin as strict JSON: its type is the one the task gave, and a secret
        # never sits in the process list
        return cls._writing(['config', 'set', path, '--stdin', '--strict-json'], dry_run)

    @classmethod
    def config_unset(cls, path, dry_run):
        return cls._writing(['config', 'unset', path], dry_run)

    @staticmethod
    def config_get(path):
        return ['config', 'get', path]

    @staticmethod
    def config_file():
        return ['config', 'file']

    # -- plugins ------------------------------------------------------------------------------
    @classmethod
    def plugins_install(cls, source, link, force, allow_risky_code, dry_run):
        words = ['plugins', 'install', source]
        if link:
            words.append('--link')
        if force:
            words.append('--force')
        if allow_risky_code:
            words.append('--allow-risky-code')
        return cls._writing(words, dry_run)

    @staticmethod
    def plugins_inspect(plugin_id):
        return ['plugins', 'inspect', plugin_id]

    @staticmethod
    def plugins_list():
        return ['plugins', 'list']

    @classmethod
    def plugins_use(cls, plugin_id, slot, dry_run):
        return cls._writing(['plugins', 'use', plugin_id, '--slot', slot], dry_run)

    @classmethod
    def plugins_enable(cls, plugin_id, enabled, dry_run):
        return cls._writing(['plugins', 'enable' if enabled else 'disable', plugin_id], dry_run)

    @classmethod
    def plugins_uninstall(cls, plugin_id, dry_run):
        return cls._writing(['plugins', 'uninstall', plugin_id, '--yes'], dry_run)

    # -- devices ------------------------------------------------------------------------------
    @staticmethod
    def devices_list():
        return ['devices', 'list']

    @classmethod
    def devices_approve(cls, device_id, dry_run):
        # --yes: approving a request that widens what a device holds asks on a terminal
        return cls._writing(['devices', 'approve', '--device', device_id, '--yes'], dry_run)

    @classmethod
    def devices_reject(cls, device_id, dry_run):
        return cls._writing(['devices', 'reject', '--device', device_id], dry_run)

    # -- backup -------------------------------------------------------------------------------
    @staticmethod
    def _key(identity, passphrase):
        """How vora reads an encrypted archive: an age identity file, or the passphrase on stdin."""
        if identity:
            return ['--identity', identity]
        return ['--passphrase'] if passphrase else []

    @classmethod
    def backup_create(cls, dest, options, encrypt_to, passphrase, dry_run):
        # a trailing slash: dest is a folder for the archive, created when missing
        words = ['backup', 'create', '--output', os.path.join(dest, '')]
        flags = dict(only_config='--only-config', include_logs='--include-logs', include_links='--include-links')
        words += [flag for option, flag in sorted(flags.items()) if options.get(option)]
        if not options.get('workspace', True):
            words.append('--no-workspace')
        for recipient in encrypt_to or []:
            words += ['--encrypt-to', recipient]
        return cls._writing([*words, *cls._key(None, passphrase)], dry_run)

    @classmethod
    def backup_verify(cls, archive, identity=None, passphrase=False):
        return ['backup', 'verify', archive, *cls._key(identity, passphrase)]

    @classmethod
    def backup_list(cls, folder, identity=None, passphrase=False):
        return ['backup', 'list', folder, *cls._key(identity, passphrase)]

    # -- the rest -----------------------------------------------------------------------------
    @staticmethod
    def doctor():
        return ['doctor']

    @staticmethod
    def version():
        return ['--version']


class VoraFailure(Exception):
    """vora's error document (or an answer that was none), as the module reports it."""

    def __init__(self, code, message, hint=None, rc=None, cmd=None):
        super(VoraFailure, self).__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.rc = rc
        self.cmd = cmd

    @property
    def msg(self):
        """vora's message with its hint: the next step vora names is the operator's next step too."""
        return '%s (hint: %s)' % (self.message, self.hint) if self.hint else self.message

    def result(self):
        return dict(msg=self.msg, error=dict(code=self.code, message=self.message, hint=self.hint),
                    rc=self.rc, cmd=self.cmd)


def read_answer(rc, stdout, stderr, cmd=None):
    """The JSON document of one run; VoraFailure for an error document or for output that is no
    JSON document at all (vora prints one even for a usage error, so that means no vora answered)."""
    text = to_text(stdout, errors='surrogate_or_strict').strip()
    try:
        doc = json.loads(text) if text else None
    except ValueError:
        doc = None
    if isinstance(doc, dict) and isinstance(doc.get('error'), dict):
        error = doc['error']
        raise VoraFailure(to_text(error.get('code') or 'failed'), to_text(error.get('message') or ''),
                          error.get('hint'), rc, cmd)
    if not isinstance(doc, dict):
        last = to_text(stderr, errors='surrogate_or_strict').strip().splitlines()[-3:]
        detail = ': %s' % ' / '.join(last) if last else ''
        raise VoraFailure('no_answer', 'vora exited %s without a JSON answer%s' % (rc, detail), None, rc, cmd)
    return doc


def without_tokens(value, secrets):
    """`value` with every string under a key named `token` left out, each noted in `secrets`.

    vora prints no device token but the one `devices rotate` mints; this keeps that promise in
    the module's results even if a document ever carried one."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            if key == 'token' and isinstance(item, str):
                secrets.add(item)
                continue
            kept[key] = without_tokens(item, secrets)
        return kept
    if isinstance(value, list):
        return [without_tokens(item, secrets) for item in value]
    return value


def file_diffs(config_write):
    """Ansible's diff entries from a config write result: vora's own unified diff of each file."""
    return [dict(before_header=f['path'], after_header=f['path'], prepared=f['diff'])
            for f in (config_write or {}).get('files') or [] if f.get('diff')]


class Vora(object):
    """One module's vora: the executable and the global options, and how a command is run."""

    def __init__(self, module):
        self.module = module
        self.executable = self._executable(module.params['vora_executable'])
        self.global_options = []
        if module.params.get('state_dir'):
            self.global_options += ['--state-dir', module.params['state_dir']]
        if module.params.get('profile'):
            self.global_options += ['--profile', module.params['profile']]

    def _executable(self, name):
        if os.sep in name:
            path = os.path.expanduser(name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
            self.module.fail_json(msg='vora_executable %s is not an executable file' % name)
        try:
            from ansible.module_utils.common.process import get_bin_path
            return get_bin_path(name)
        except ValueError:
            self.module.fail_json(msg='%s was not found on PATH (%s); install vora on the host or set vora_executable'
                                  % (name, os.environ.get('PATH', '')))

    def command(self, words):
        return [self.executable, *self.global_options, *words, '--json']

    def run(self, words, data=None, report=False):
        """The JSON answer of `vora WORDS --json`; a conflict (exit 3) is tried again a bounded
        number of times. `report`: exit 1 with a document that is no error is a check's verdict
        (doctor, backup verify), returned like any answer; otherwise it is a failure."""
        cmd = self.command(words)
        attempt = 1
        while True:
            # the words go to vora as they are: run_command would otherwise expand ~ (by HOME, where
            # vora's ~ is the Vora home) and $VARIABLES in them, in a path, a key or a spec alike
            rc, out, err = self.module.run_command(cmd, data=data, check_rc=False, expand_user_and_vars=False,
                                                   environ_update=dict(NO_COLOR='1'))
            try:
                doc = read_answer(rc, out, err, cmd)
            except VoraFailure:
                if rc != CONFLICT_EXIT or attempt >= CONFLICT_ATTEMPTS:
                    raise
                time.sleep(CONFLICT_PAUSE * attempt)
                attempt += 1
                continue
            if rc != 0 and not report:
                raise VoraFailure('failed', 'vora exited %s' % rc, None, rc, cmd)
            return doc

    def fail(self, failure, **result):
        result.update(failure.result())
        self.module.fail_json(**result)
