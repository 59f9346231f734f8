#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations

DOCUMENTATION = r'''
module: vora_backup
short_description: Back up a Vora install into a folder, verify the archive and keep the newest ones
version_added: 0.1.0
description:
  - Writes one backup archive of the install into O(dest) (C(vora backup create --output DEST/)), the state dir,
    the config and its includes, credentials and workspaces, every file with its sha256.
  - With O(verify), reads the new archive back and checks every hash (C(vora backup verify)); a problem fails the task
    and the archive is kept for a look.
  - With O(keep), removes the older archives vora made in O(dest) so that the newest O(keep) stay (the new one among
    them). Archives vora did not make (the gateway's own, other files) are never removed.
  - A backup is a change every time it runs. In check mode vora plans it with C(--dry-run) and nothing is written or
    removed; the result names the archive and the archives that would go.
author:
  - The vora maintainers (@vora-ai)
extends_documentation_fragment:
  - vora.operator.vora
  - vora.operator.vora.attributes
attributes:
  diff_mode:
    support: none
options:
  dest:
    description:
      - The folder for the archive; created (mode 0700) when missing.
    type: path
    required: true
  keep:
    description:
      - How many of vora's archives in O(dest) to keep, the newest first, the new one included. Unset keeps all.
    type: int
  verify:
    description:
      - Verify the new archive (every file's sha256, size and mode) before the task succeeds.
    type: bool
    default: true
  only_config:
    description:
      - Only the config file and its C($include) files (C(--only-config)).
    type: bool
    default: false
  workspace:
    description:
      - Include the agents' workspaces (V(false) is C(--no-workspace)).
    type: bool
    default: true
  include_logs:
    description:
      - Also the state dir's C(logs/) folder (C(--include-logs)).
    type: bool
    default: false
  include_links:
    description:
      - Also the source folders of linked plugins (C(--include-links)).
    type: bool
    default: false
  encrypt_to:
    description:
      - Encrypt the archive with age to these X25519 recipients (C(age1...), C(--encrypt-to)); the archive is then
        C(....tar.gz.age), and the stock C(age) command decrypts it.
      - To verify it, or to find older archives for O(keep), vora needs the private key, O(identity).
    type: list
    elements: str
  passphrase:
    description:
      - Encrypt the archive with age to this passphrase instead (C(--passphrase), handed to vora on standard input,
        never on a command line). It also reads the archives back for O(verify) and O(keep).
    type: str
  identity:
    description:
      - An age identity file (what C(age-keygen) writes) on the host, to read encrypted archives back for O(verify)
        and O(keep) (C(--identity)).
    type: path
notes:
  - The archive holds every token and key of the install and is written 0600; keep O(dest) private, or encrypt it.
  - O(keep) removes only archives vora reads as its own; one it cannot decrypt with the key given is kept.
seealso:
  - name: vora backup
    description: What a backup holds, how it is verified and restored.
    link: https://github.com/vora-ai/vora-cli/blob/main/docs/backup.md
'''

EXAMPLES = r'''
- name: Nightly backup, the last seven kept
  vora.operator.vora_backup:
    dest: /var/backups/vora
    keep: 7

- name: Encrypted to the ops team's key, read back with it
  vora.operator.vora_backup:
    dest: /var/backups/vora
    encrypt_to:
      - age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p
    identity: /etc/vora/backup-key.txt
    keep: 7

- name: Config only, before an edit
  vora.operator.vora_backup:
    dest: /var/backups/vora-config
    only_config: true
    verify: false
'''

RETURN = r'''
path:
  description: The archive written (in check mode, the one that would be).
  returned: always
  type: str
  sample: /var/backups/vora/2026-03-01T09-12-44.120Z-vora-backup.tar.gz
files:
  description: How many files the archive holds (the manifest's count).
  returned: always
  type: int
  sample: 1284
bytes:
  description: The files' total size in bytes, before compression.
  returned: always
  type: int
  sample: 1181116006
archive_bytes:
  description: The archive's own size in bytes; V(null) in check mode.
  returned: always
  type: int
  sample: 284191232
verified:
  description: Whether the archive was read back and every hash matched; V(null) when not verified (or in check mode).
  returned: always
  type: bool
  sample: true
removed:
  description: The older archives removed to keep O(keep) (in check mode, those that would be).
  returned: always
  type: list
  elements: str
  sample: [/var/backups/vora/2026-02-22T09-12-44.120Z-vora-backup.tar.gz]
left_out:
  description: What vora left out of the archive and why (C(kind), C(sourcePath), C(reason), ...).
  returned: always
  type: list
  elements: dict
changed_during_backup:
  description: Files that changed while they were copied (a running gateway); each C(path), C(changed), C(leftOut).
  returned: always
  type: list
  elements: dict
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    Commands,
    Vora,
    VoraFailure,
    vora_argument_spec,
)


def to_remove(archives, keep, new_path):
    """The archives past the newest `keep` (the new one counted): only those vora reads as its own (an
    encrypted one it could not open is `encrypted`), never the new one."""
    ours = [a for a in archives if a.get('format') == 'vora' and a.get('path') != new_path]
    ours.sort(key=lambda a: (a.get('createdAt') or '', a.get('name') or ''), reverse=True)
    return [a['path'] for a in ours[max(keep - 1, 0):]]


def verify_failure(report):
    problems = report.get('problems') or []
    named = '; '.join('%s: %s' % (p.get('path'), p.get('problem')) for p in problems[:5])
    more = ' (and %d more)' % (len(problems) - 5) if len(problems) > 5 else ''
    return '%s does not verify: %s%s' % (report.get('archivePath'), named or 'no detail', more)


def run(module, vora):
    p, check = module.params, module.check_mode
    if p['keep'] is not None and p['keep'] < 1:
        module.fail_json(msg='keep must be 1 or more (the new archive is always kept); leave it unset to keep all')
    if p['encrypt_to'] and not p['identity'] and (p['verify'] or p['keep'] is not None):
        module.fail_json(msg='an archive encrypted to recipients is read back with their private key: give identity, '
                             'or set verify to false and leave keep unset')
    passphrase = p['passphrase']
    options = dict((name, p[name]) for name in ('only_config', 'workspace', 'include_logs', 'include_links'))
    created = vora.run(Commands.backup_create(p['dest'], options, p['encrypt_to'], bool(passphrase), check),
                       data=passphrase)
    path = created['archivePath']
    result = dict(changed=True, path=path, files=created.get('files'), bytes=created.get('payloadBytes'),
                  archive_bytes=created.get('archiveBytes'), verified=None, removed=[],
                  left_out=created.get('skipped') or [], changed_during_backup=created.get('changedDuringBackup') or [])
    if p['verify'] and not check:
        report = vora.run(Commands.backup_verify(path, p['identity'], bool(passphrase)), data=passphrase, report=True)
        if not report.get('ok'):
            result['verified'] = False
            module.fail_json(msg=verify_failure(report), problems=report.get('problems') or [], **result)
        result['verified'] = True
    if p['keep'] is not None and os.path.isdir(p['dest']):
        listing = vora.run(Commands.backup_list(p['dest'], p['identity'], bool(passphrase)), data=passphrase)
        result['removed'] = to_remove(listing.get('archives') or [], p['keep'], path)
        if not check:
            for old in result['removed']:
                os.remove(old)
    return result


def main():
    module = AnsibleModule(
        argument_spec=vora_argument_spec(
            dest=dict(type='path', required=True),
            keep=dict(type='int'),
            verify=dict(type='bool', default=True),
            only_config=dict(type='bool', default=False),
            workspace=dict(type='bool', default=True),
            include_logs=dict(type='bool', default=False),
            include_links=dict(type='bool', default=False),
            encrypt_to=dict(type='list', elements='str'),
            passphrase=dict(type='str', no_log=True),
            identity=dict(type='path'),
        ),
        mutually_exclusive=[('encrypt_to', 'passphrase'), ('identity', 'passphrase')],
        supports_check_mode=True,
    )
    vora = Vora(module)
    try:
        result = run(module, vora)
    except VoraFailure as failure:
        vora.fail(failure, changed=False)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
