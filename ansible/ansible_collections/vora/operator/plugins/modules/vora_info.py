#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations

DOCUMENTATION = r'''
module: vora_info
short_description: What vora knows about a Vora install, and doctor's verdict as a gate
version_added: 0.1.0
description:
  - Returns, under RV(vora), vora's version, the config file, C(vora doctor)'s summary and checks, the plugins, the
    slots and the devices (pending requests and paired devices, never a token).
  - With O(fail_on), doctor's verdict fails the task, for a CI gate or a play that must stop on a broken install.
  - Reads only; it runs the same in check mode.
author:
  - The vora maintainers (@vora-ai)
extends_documentation_fragment:
  - vora.operator.vora
attributes:
  check_mode:
    description: Can run in check_mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: none
  platform:
    description: Target OS/families that can be operated against.
    support: N/A
    platforms: posix
  action_group:
    description: Use C(group/vora.operator.vora) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - vora.operator.vora
options:
  fail_on:
    description:
      - V(error) fails the task when a doctor check is an error; V(warn) also when one is a warning; V(none) never.
    type: str
    choices: [error, warn, none]
    default: none
notes:
  - As an C(_info) module it returns its data under RV(vora) rather than as C(ansible_facts); C(register) it.
  - C(vora devices list) notes the id of each pairing request it has not seen before in
    C(<state dir>/logs/devices-requests-seen.jsonl) (so a stale id can be explained later); this module does too,
    in check mode as well.
'''

EXAMPLES = r'''
- name: Ask vora
  vora.operator.vora_info:
  register: info

- name: Show the context engine
  ansible.builtin.debug:
    msg: "{{ info.vora.slots.contextEngine }}"

- name: Gate on doctor (errors and warnings)
  vora.operator.vora_info:
    fail_on: warn
'''

RETURN = r'''
vora:
  description:
    - What vora reports about the install. A part vora cannot answer (a config that does not parse, a damaged
      pairing store) is V(null), with vora's message as a warning.
  returned: always
  type: dict
  contains:
    version:
      description: vora's version.
      type: str
      sample: 0.1.0
    config_path:
      description: The config file vora reads (it may not exist yet).
      type: str
      sample: /home/me/.vora/vora.json
    state_dir:
      description: The state dir.
      type: str
      sample: /home/me/.vora
    doctor:
      description: C(vora doctor --json)'s verdict, C(ok), C(summary) (counts of C(pass), C(info), C(warn), C(error),
        C(skip)) and C(checks) (each C(id), C(status), C(message), ...).
      type: dict
      sample: {"ok": true, "summary": {"pass": 18, "info": 2, "warn": 1, "error": 0, "skip": 0}}
    plugins:
      description: The plugins the gateway would find (C(vora plugins list --json)'s rows).
      type: list
      elements: dict
      sample: [{"id": "my-engine", "status": "enabled", "origin": "installed", "version": "0.1.0"}]
    slots:
      description: The plugin each slot selects (the default when the config sets none).
      type: dict
      sample: {"contextEngine": "my-engine", "memory": "memory-core"}
    devices:
      description: C(pending) requests and C(paired) devices as C(vora devices list --json) shows them, no token.
      type: dict
      sample: {"pending": [], "paired": [{"deviceId": "96ce6dad…", "name": "ops-laptop", "roles": ["operator"]}]}
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    Commands,
    Vora,
    VoraFailure,
    vora_argument_spec,
    without_tokens,
)

SLOTS = ('contextEngine', 'memory')
FAILING = dict(error=('error',), warn=('error', 'warn'), none=())


def gate(doctor, fail_on):
    """The message that fails the task, or None: the checks at or above `fail_on`, named."""
    if doctor is None:
        return None if fail_on == 'none' else 'vora doctor gave no verdict (see the warning)'
    failing = [c for c in doctor.get('checks') or [] if c.get('status') in FAILING[fail_on]]
    if not failing:
        return None
    named = '; '.join('%s (%s): %s' % (c.get('id'), c.get('status'), c.get('message')) for c in failing[:5])
    more = ' (and %d more)' % (len(failing) - 5) if len(failing) > 5 else ''
    return 'vora doctor: %d check(s) at %s or worse: %s%s' % (len(failing), fail_on, named, more)


def gather(module, vora):
    """Every part vora can answer; a part it cannot (a config that does not parse, a damaged pairing
    store) is null with vora's message as a warning, and doctor's checks say what is wrong."""
    secrets, unanswered = module.no_log_values, []

    def ask(words, report=False):
        try:
            return vora.run(words, report=report)
        except VoraFailure as failure:
            unanswered.append('vora %s: %s' % (' '.join(words), failure.msg))
            return None

    version = ask(Commands.version())
    where = ask(Commands.config_file()) or {}
    doctor = ask(Commands.doctor(), report=True)  # exit 1 is doctor's verdict, judged by fail_on
    plugins = ask(Commands.plugins_list())
    slots = dict((slot, ask(Commands.config_get('plugins.slots.' + slot))) for slot in SLOTS)
    devices = ask(Commands.devices_list())
    facts = dict(
        version=version and version.get('version'),
        config_path=where.get('path'),
        state_dir=where.get('stateDir'),
        doctor=doctor and dict(ok=doctor.get('ok'), summary=doctor.get('summary'), checks=doctor.get('checks') or []),
        plugins=plugins and (plugins.get('plugins') or []),
        slots=dict((slot, answer and answer.get('value')) for slot, answer in slots.items()),
        devices=devices and dict(pending=without_tokens(devices.get('pending') or [], secrets),
                                 paired=without_tokens(devices.get('paired') or [], secrets)),
    )
    if unanswered:
        module.warn('; '.join(unanswered))
    return facts


def main():
    module = AnsibleModule(
        argument_spec=vora_argument_spec(
            fail_on=dict(type='str', default='none', choices=['error', 'warn', 'none']),
        ),
        supports_check_mode=True,
    )
    facts = gather(module, Vora(module))
    message = gate(facts['doctor'], module.params['fail_on'])
    if message:
        module.fail_json(msg=message, changed=False, vora=facts)
    module.exit_json(changed=False, vora=facts)


if __name__ == '__main__':
    main()
