#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations

DOCUMENTATION = r'''
module: vora_device
short_description: Approve or reject a device's pairing request on a Vora gateway's pairing store
version_added: 0.1.0
description:
  - Approves (C(vora devices approve --device)) or rejects (C(vora devices reject --device)) the newest live pairing
    request of one device, on the gateway's own store, offline; the gateway picks the change up at the device's
    next connect.
  - Idempotent, a paired device with no live request is no change for V(approved), and a device with no live
    request is no change for V(rejected).
  - Approving mints one fresh token per role the device asked for. Tokens are never printed by vora and never
    returned by this module.
  - In check mode the task reads the store with C(vora devices list) and reports the request vora would act on,
    its kind, roles and scopes, without writing anything.
author:
  - The vora maintainers (@vora-ai)
extends_documentation_fragment:
  - vora.operator.vora
  - vora.operator.vora.attributes
options:
  device_id:
    description:
      - The device id (the SHA-256 hex of its public key), or a unique prefix of at least 8 hex digits, as
        C(vora devices list) shows it.
    type: str
    required: true
  state:
    description:
      - V(approved) approves the device's newest live request; V(rejected) rejects it (the device may ask again).
      - V(approved) approves what the request asks for, including more roles or scopes than the device holds
        (vora's C(--yes)); check mode shows them first.
    type: str
    choices: [approved, rejected]
    default: approved
notes:
  - A request lives five minutes. A device that has neither a live request nor a pairing fails the task with
    vora's hint (have the device connect, then run the play again).
seealso:
  - name: vora devices
    description: Pairing approval, the store and the rules vora applies.
    link: https://github.com/vora-ai/vora-cli/blob/main/docs/devices.md
'''

EXAMPLES = r'''
- name: Approve the ops laptop
  vora.operator.vora_device:
    device_id: 96ce6dad9d989e5406561ade1e6d621586529f16a1ab79293974e23b908b6894

- name: Reject whatever that device asks
  vora.operator.vora_device:
    device_id: 3f1c2a9b
    state: rejected
'''

RETURN = r'''
device:
  description: The device as vora lists it after the task (its paired record, or its pending request); no token.
  returned: always
  type: dict
  sample: {"deviceId": "96ce6dad…", "name": "ops-laptop", "roles": ["operator"], "approvedScopes": ["operator.read"]}
request:
  description:
    - The pairing request the task approved or rejected (or would), with vora's classification (C(kind) is
      V(new-device), V(repair), V(role-upgrade), V(scope-upgrade) or V(metadata-change)); V(null) when there was none.
  returned: always
  type: dict
  sample: {"requestId": "4edf9280-…", "roles": ["operator"], "scopes": ["operator.read"],
           "classification": {"kind": "new-device", "kinds": ["new-device"]}}
paired:
  description: Whether the device is paired after the task (in check mode, would be).
  returned: always
  type: bool
  sample: true
'''

import re

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    Commands,
    Vora,
    VoraFailure,
    vora_argument_spec,
    without_tokens,
)

# what vora accepts for --device: the SHA-256 hex of the key, or a prefix of 8 or more of its digits
DEVICE_ID = re.compile(r'^[0-9a-fA-F]{8,64}$')


def matching(entries, device_id):
    """The entries of one device: by its whole id or by a prefix, as vora accepts it."""
    return [e for e in entries if isinstance(e.get('deviceId'), str) and e['deviceId'].startswith(device_id.lower())]


def live_request(listing, device_id):
    """The device's newest request that has not expired (vora lists the newest first)."""
    live = [r for r in matching(listing.get('pending') or [], device_id) if not r.get('expired')]
    return live[0] if live else None


def paired_device(listing, device_id):
    found = matching(listing.get('paired') or [], device_id)
    return found[0] if len(found) == 1 else None


def not_asking(listing, device_id):
    expired = [r for r in matching(listing.get('pending') or [], device_id) if r.get('expired')]
    why = ' (its last request expired)' if expired else ''
    return VoraFailure('not_found', 'device %s has no live pairing request in %s and is not paired%s'
                       % (device_id, listing.get('stateDir'), why),
                       'have the device connect (it asks to pair), then run the task again within 5 minutes')


def request_diff(request, approve):
    """A before/after of the store for diff mode: vora writes the pairing store whole, so the diff names what
    changes for this device rather than printing two JSON files that hold tokens."""
    line = '%s %s roles=%s scopes=%s (%s)\n' % (
        request.get('requestId'), request.get('name'), ','.join(request.get('roles') or []),
        ','.join(request.get('scopes') or []), (request.get('classification') or {}).get('kind'))
    return dict(before_header='pending.json', after_header='paired.json' if approve else 'pending.json',
                before='pending: ' + line, after=('paired: ' + line) if approve else '')


def run(module, vora):
    device_id, approve, check = module.params['device_id'], module.params['state'] == 'approved', module.check_mode
    if not DEVICE_ID.match(device_id):
        module.fail_json(msg='device_id %s is not a device id or a prefix of 8 or more hex digits of one '
                             '(vora devices list shows them)' % device_id)
    secrets = module.no_log_values
    listing = without_tokens(vora.run(Commands.devices_list()), secrets)
    entries = (listing.get('pending') or []) + (listing.get('paired') or [])
    ambiguous = sorted(set(e['deviceId'] for e in matching(entries, device_id)))
    if len(ambiguous) > 1:
        module.fail_json(msg='device id %s matches %d devices: %s' % (device_id, len(ambiguous), ', '.join(ambiguous)))
    request = live_request(listing, device_id)
    paired = paired_device(listing, device_id)
    result = dict(changed=False, request=request, paired=paired is not None, device=paired or request)
    if request is None:
        if approve and paired is None:
            # asking vora to approve would say the same, after taking the store's lock (a new file)
            raise not_asking(listing, device_id)
        return result
    if check:
        # vora's own dry run: every check the real run makes (an unknown role, a widening), nothing written
        vora.run(Commands.devices_approve(device_id, True) if approve else Commands.devices_reject(device_id, True))
        result.update(changed=True, paired=approve or paired is not None)
    else:
        done = vora.run(Commands.devices_approve(device_id, False) if approve else Commands.devices_reject(device_id, False))
        without_tokens(done, secrets)  # vora prints none; any there would be masked in every result
        after = without_tokens(vora.run(Commands.devices_list()), secrets)
        now_paired = paired_device(after, device_id)
        result.update(changed=True, paired=now_paired is not None,
                      device=now_paired or live_request(after, device_id))
        for warning in (done.get('report') or {}).get('warnings') or []:
            module.warn(warning)
    if module._diff:
        result['diff'] = request_diff(request, approve)
    return result


def main():
    module = AnsibleModule(
        argument_spec=vora_argument_spec(
            device_id=dict(type='str', required=True),
            state=dict(type='str', default='approved', choices=['approved', 'rejected']),
        ),
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
