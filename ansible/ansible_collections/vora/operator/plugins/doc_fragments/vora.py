# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations


class ModuleDocFragment(object):
    # The options every vora module takes (module_utils/vora.py: VORA_COMMON_ARGUMENT_SPEC).
    DOCUMENTATION = r'''
options:
  vora_executable:
    description:
      - The C(vora) command to run on the managed host.
      - A name is looked up on the host's E(PATH) (and C(/sbin), C(/usr/sbin), C(/usr/local/sbin));
        a path containing C(/) is used as it is.
    type: str
    default: vora
  state_dir:
    description:
      - The Vora state dir to work on (C(vora --state-dir)).
      - Without it vora uses E(VORA_STATE_DIR), the profile's state dir, else C(~/.vora) of the user the
        task runs as.
    type: path
  profile:
    description:
      - The vora profile to use (C(vora --profile)); its state dir is C(~/.vora-NAME).
    type: str
notes:
  - The module runs C(vora) on the managed host and reads its C(--json) answer. An error from vora
    fails the task with vora's message and its hint in O(ignore:msg), and vora's error code in RV(ignore:error.code).
  - Ansible's O(ignore:environment) keyword reaches vora too, for example E(HOME) or E(VORA_HOME).
requirements:
  - vora on the managed host (C(pip install vora-cli)), which needs Python 3.11 or newer.
'''

    # Check mode, diff mode and the action group, for the modules that change something.
    ATTRIBUTES = r'''
attributes:
  check_mode:
    description: Can run in check_mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: full
  platform:
    description: Target OS/families that can be operated against.
    support: N/A
    platforms: posix
  action_group:
    description: Use C(group/vora.operator.vora) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - vora.operator.vora
'''
