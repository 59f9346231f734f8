#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations

DOCUMENTATION = r'''
module: vora_config
short_description: Set or remove one key of a Vora config without losing a comment
version_added: 0.1.0
description:
  - Sets one key of C(vora.json) to a value, or removes it, through C(vora config set) and C(vora config unset).
  - vora rewrites only the key's own text, so comments, key order, quoting and the rest of the file stay as
    they are, and it refuses a value the gateway's validator would refuse (nothing is written then).
  - Idempotent on vora's own answer, the task reports a change only when the value in the file differs.
  - In check mode vora runs every check of a real write with C(--dry-run) and writes nothing; in diff mode
    the task shows vora's own diff of the file.
author:
  - The vora maintainers (@vora-ai)
extends_documentation_fragment:
  - vora.operator.vora
  - vora.operator.vora.attributes
options:
  path:
    description:
      - The config key, in C(vora config) syntax, for example V(gateway.port), V(agents.list[0].id) or
        V(plugins.entries["my.plugin"].enabled).
    type: str
    required: true
  value:
    description:
      - The value to set, of any JSON type (a string, number, boolean, list or mapping). It is handed to vora as
        strict JSON, so V("18789") stays a string and V(18789) a number.
      - Required when O(state=present).
      - "The value goes to vora on standard input, never on a command line. For a secret, also set
        C(no_log: true) on the task, which keeps it out of the host's log and the controller's output."
    type: raw
  state:
    description:
      - V(present) sets O(path) to O(value); V(absent) removes the key (and its own comment).
    type: str
    choices: [present, absent]
    default: present
notes:
  - A conflict (vora's exit 3, another writer changed the file first; nothing was written) is retried twice
    before the task fails.
  - Setting a whole object replaces its text, comments inside it included; set its keys one by one to keep them.
seealso:
  - name: vora config
    description: vora's config commands, and how an edit keeps the file.
    link: https://github.com/vora-ai/vora-cli/blob/main/docs/config.md
'''

EXAMPLES = r'''
- name: Listen on another port
  vora.operator.vora_config:
    path: gateway.port
    value: 18800

- name: Give each bootstrap file more room
  vora.operator.vora_config:
    path: agents.defaults.bootstrapMaxChars
    value: 30000
    state_dir: /srv/vora

- name: Store the gateway token (kept out of logs)
  vora.operator.vora_config:
    path: gateway.auth.token
    value: "{{ vault_gateway_token }}"
  no_log: true

- name: Drop a key
  vora.operator.vora_config:
    path: plugins.entries.old-engine
    state: absent
'''

RETURN = r'''
old:
  description:
    - The value before the task, as vora reports it (secrets as V(<redacted>)); V(null) when it was not set.
  returned: always
  type: raw
  sample: 18789
new:
  description:
    - The value after the task (in check mode, the value it would have), as vora reports it (secrets as
      V(<redacted>)); V(null) when the key is not set.
  returned: always
  type: raw
  sample: 18800
changes:
  description: vora's change records of the write (empty when nothing changed).
  returned: always
  type: list
  elements: dict
  sample: [{"key": "gateway.port", "old": 18789, "new": 18800, "action": "set", "file": "/home/me/.vora/vora.json"}]
file:
  description: The config file the key lives in (an C($include)d file when the key is there).
  returned: when changed
  type: str
  sample: /home/me/.vora/vora.json
backup:
  description: The copy vora kept of the file before it wrote it.
  returned: when changed and not in check mode
  type: str
  sample: /home/me/.vora/vora.json.bak
'''

import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    REDACTED,
    Commands,
    Vora,
    VoraFailure,
    file_diffs,
    vora_argument_spec,
)


def write_outcome(write):
    """The task's result from vora's write document: changed, the change records, old and new."""
    changes = write.get('changes') or []
    files = write.get('files') or []
    outcome = dict(changed=bool(write.get('changed')), changes=changes)
    if changes:
        outcome['old'] = changes[0].get('old')
        outcome['new'] = changes[-1].get('new')
        outcome['file'] = changes[0].get('file')
    backups = [f['backup'] for f in files if f.get('backup')]
    if backups:
        outcome['backup'] = backups[0]
    return outcome


def hidden_parts(reported, given):
    """The strings of the task's value that vora reported as secrets (`<redacted>`), at any depth:
    vora knows which keys are secret, the module only sees where it hid something."""
    if isinstance(reported, str) and reported in REDACTED:
        return [given] if isinstance(given, str) and given else []
    if isinstance(reported, dict) and isinstance(given, dict):
        return [part for key in reported if key in given for part in hidden_parts(reported[key], given[key])]
    if isinstance(reported, list) and isinstance(given, list):
        return [part for r, g in zip(reported, given) for part in hidden_parts(r, g)]
    return []


def run(module, vora):
    path, state, check = module.params['path'], module.params['state'], module.check_mode
    if state == 'present':
        write = vora.run(Commands.config_set(path, check), data=json.dumps(module.params['value']))
    else:
        try:
            write = vora.run(Commands.config_unset(path, check))
        except VoraFailure as failure:
            if failure.code != 'not_found':
                raise
            write = dict(changed=False)  # not set: already absent
    outcome = write_outcome(write)
    if not outcome['changes']:
        # nothing to change: the value as it stands, read back the way vora shows it
        current = None
        if state == 'present':
            current = vora.run(Commands.config_get(path)).get('value')
        outcome.update(old=current, new=current)
    if state == 'present':
        # keep what vora hides out of this result, even where Ansible echoes the task's arguments
        module.no_log_values.update(hidden_parts(outcome.get('new'), module.params['value']))
    for warning in write.get('warnings') or []:
        module.warn(warning)
    if module._diff:
        outcome['diff'] = file_diffs(write)
    return outcome


def main():
    module = AnsibleModule(
        argument_spec=vora_argument_spec(
            path=dict(type='str', required=True),
            value=dict(type='raw'),
            state=dict(type='str', default='present', choices=['present', 'absent']),
        ),
        required_if=[('state', 'present', ('value',))],
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
