#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

from __future__ import annotations

DOCUMENTATION = r'''
module: vora_plugin
short_description: Install, link, select, enable, disable or remove a Vora gateway plugin
version_added: 0.1.0
description:
  - Installs a plugin from a folder, an archive or an npm spec (C(vora plugins install)), or links a local folder
    (C(vora plugins install --link)); selects it for a slot (C(vora plugins use)); enables or disables it; or
    uninstalls it. Every config change goes through vora's lossless editor, so the file keeps its comments.
  - Idempotent on vora's install record, the same source and version already installed (or linked) is no change.
    A folder or archive is compared by its real path and the version vora reads in it; an npm spec by the spec
    recorded at install (an installed spec is not updated to a newer version; C(vora plugins update) does that).
  - In check mode every step runs with C(--dry-run); in diff mode the task shows vora's diff of the config.
author:
  - The vora maintainers (@vora-ai)
extends_documentation_fragment:
  - vora.operator.vora
  - vora.operator.vora.attributes
options:
  source:
    description:
      - What to install, a folder, an archive (C(.tgz), C(.tar.gz), C(.zip), C(.tar)), a single C(.js)/C(.ts) file,
        C(file:PATH), or an npm spec (V(name), V(name@1.2.3), V(@scope/name@tag)).
      - A path that exists on the host is a path, made absolute; anything else goes to npm, as vora decides.
      - Required when O(state=present); with O(state=enabled) or O(state=disabled) it is installed first.
    type: str
  name:
    description:
      - The plugin id. Required for O(state=absent), O(state=enabled) and O(state=disabled).
      - With O(state=present) it is optional for a folder or archive (vora reads the id from its manifest) and
        required for an npm spec, whose install record the task compares without asking npm. When given, it must
        be the id the source provides.
    type: str
  link:
    description:
      - Link the local folder O(source) instead of copying it (C(vora plugins install --link)), for a plugin
        under development.
    type: bool
    default: false
  slot:
    description:
      - Select the plugin for this slot (C(vora plugins use --slot)). The plugin's kind must fill it.
    type: str
    choices: [contextEngine, memory]
  allow_risky_code:
    description:
      - Install even when vora's scan finds risky code patterns in the package (C(--allow-risky-code)); only for
        a vora that scans plugins at install.
    type: bool
    default: false
  state:
    description:
      - V(present) installs (or links) O(source); V(absent) uninstalls O(name) (every config reference, then the
        folder vora installed; a linked folder is never deleted); V(enabled) and V(disabled) switch O(name) on or off.
    type: str
    choices: [present, absent, enabled, disabled]
    default: present
seealso:
  - name: vora plugins
    description: How vora installs, records, selects and removes plugins.
    link: https://github.com/vora-ai/vora-cli/blob/main/docs/plugins.md
'''

EXAMPLES = r'''
- name: Install a context engine from an archive and select it
  vora.operator.vora_plugin:
    source: /srv/artifacts/my-engine-0.1.0.tgz
    slot: contextEngine

- name: Link a plugin under development
  vora.operator.vora_plugin:
    source: /home/dev/src/my-engine
    link: true
    slot: contextEngine

- name: Install a pinned npm package
  vora.operator.vora_plugin:
    source: "@acme/lossless-claw@1.2.0"
    name: lossless-claw

- name: Switch a plugin off
  vora.operator.vora_plugin:
    name: my-engine
    state: disabled

- name: Remove a plugin
  vora.operator.vora_plugin:
    name: old-engine
    state: absent
'''

RETURN = r'''
plugin:
  description:
    - The plugin as vora sees it after the task (in check mode, as vora plans it). V(null) after O(state=absent).
  returned: always
  type: dict
  contains:
    id:
      description: The plugin id.
      type: str
      sample: my-engine
    version:
      description: The plugin's version (its package.json's, else its manifest's).
      type: str
      sample: 0.1.0
    kind:
      description: The slots' kinds it provides.
      type: list
      elements: str
      sample: [context-engine]
    status:
      description: vora's status of the plugin (V(enabled), V(disabled), V(error)); absent in check mode before an install.
      type: str
      sample: enabled
    enabled:
      description: Whether the gateway would load it.
      type: bool
      sample: true
    path:
      description: The plugin's folder (the linked folder for a link).
      type: str
      sample: /home/me/.vora/extensions/my-engine
    slots:
      description: The slots that select it.
      type: list
      elements: str
      sample: [contextEngine]
    install:
      description: vora's install record (C(plugins.installs.<id>)).
      type: dict
      sample: {"source": "archive", "sourcePath": "/srv/artifacts/my-engine-0.1.0.tgz", "version": "0.1.0"}
actions:
  description: What the task did (or would do), in order; empty when nothing changed.
  returned: always
  type: list
  elements: str
  sample: [install, use contextEngine]
slot:
  description: The slot change, C(slot), C(old) and C(new) (equal when nothing changed).
  returned: when O(slot) is given and O(state) is not V(absent)
  type: dict
  sample: {"slot": "contextEngine", "old": "legacy", "new": "my-engine"}
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vora.operator.plugins.module_utils.vora import (
    Commands,
    Vora,
    VoraFailure,
    file_diffs,
    vora_argument_spec,
)

# what makes two install records the same install (vora's record fields, docs/plugins.md)
SAME_INSTALL = ('source', 'sourcePath', 'installPath', 'version')
SUMMARY = ('id', 'name', 'version', 'kind', 'status', 'enabled', 'origin', 'path', 'slots')


def local_path(source):
    """What vora is given for a source on this host's disk, or None for an npm spec.

    vora's own rule: a path wins only when it exists, and `file:PATH` always is one. A relative path
    is made absolute, so that the install record names the same folder whatever directory the module
    ran in; a `~` path is left to vora, whose home is the Vora home (VORA_HOME, then HOME)."""
    if source.startswith('file:'):
        source = source[len('file:'):]
    elif source.startswith('~'):
        return source
    elif not os.path.lexists(source):
        return None
    return os.path.abspath(source)


def same_install(recorded, planned):
    """Whether the recorded install is the planned one: same kind of source, same place, same version."""
    return bool(recorded) and bool(planned) and all(recorded.get(k) == planned.get(k) for k in SAME_INSTALL)


def npm_spec_recorded(recorded, spec):
    """Whether an npm spec is the one the install record was made from (or the exact version it resolved to)."""
    return bool(recorded) and recorded.get('source') == 'npm' and spec in (recorded.get('spec'),
                                                                           recorded.get('resolvedSpec'))


def planned_enabled(plan):
    """Whether the planned install leaves the plugin enabled (vora enables what it installs, unless its
    plan sets `plugins.entries.<id>.enabled` otherwise)."""
    for change in (plan.get('config') or {}).get('changes') or []:
        key = change.get('key') or ''
        if key.startswith('plugins.entries') and key.endswith('.enabled') and plan.get('id') in key:
            return change.get('new') is not False
    return True


def summary(doc):
    """The `plugin` result from `plugins inspect` (or an install plan, which names the same fields)."""
    plugin = dict((k, doc.get(k)) for k in SUMMARY if k in doc)
    if 'path' not in plugin and doc.get('installPath'):
        plugin['path'] = doc['installPath']
    plugin['install'] = doc.get('install') if 'install' in doc else doc.get('record')
    return plugin


class PluginTask(object):
    def __init__(self, module, vora):
        self.module, self.vora = module, vora
        self.check = module.check_mode
        self.actions, self.diffs = [], []

    def note(self, action, doc):
        """One step that changed (or would change) something: its action and vora's diff and warnings."""
        self.actions.append(action)
        config = doc.get('config') if 'config' in doc else doc
        self.diffs.extend(file_diffs(config))
        for warning in (doc.get('warnings') or []) + ((config or {}).get('warnings') or []):
            self.module.warn(warning)

    def inspect(self, plugin_id):
        try:
            return self.vora.run(Commands.plugins_inspect(plugin_id))
        except VoraFailure as failure:
            if failure.code == 'not_found':
                return None
            raise

    def install(self, source, name, link):
        """Ensure `source` is installed (or linked). Returns the plugin's id, its inspect document when it
        was already there (None otherwise) and the plan when one was made."""
        p = self.module.params
        path = local_path(source)
        if link and path is None:
            self.module.fail_json(msg='link needs a local folder; %s does not exist on this host' % source)
        if path is None and not name:
            # without the id the recorded install cannot be found, and a second run would install again
            self.module.fail_json(msg='%s is an npm spec: name the plugin id it provides (name) so that the task '
                                      'can find its install record' % source)
        current = self.inspect(name) if name else None
        if path is None and current and npm_spec_recorded(current.get('install'), source):
            return name, current, None
        target = path or source
        plan = None
        if path is not None:
            # copies are planned with --force: vora replaces only a copy its own record proves it installed
            plan = self.vora.run(Commands.plugins_install(target, link, not link, p['allow_risky_code'], True))
            if name and plan['id'] != name:
                self.module.fail_json(msg='%s provides the plugin %s, not %s' % (source, plan['id'], name))
            if current is None:
                current = self.inspect(plan['id'])
            if current and same_install(current.get('install'), plan.get('record')):
                return plan['id'], current, plan
        if self.check:
            if plan is None:
                plan = self.vora.run(Commands.plugins_install(target, link, False, p['allow_risky_code'], True))
            self.note('link' if link else 'install', plan)
            return plan['id'], None, plan
        force = not link and bool(current and current.get('install'))
        done = self.vora.run(Commands.plugins_install(target, link, force, p['allow_risky_code'], False))
        self.note('link' if link else 'install', done)
        return done['id'], None, done

    def select(self, plugin_id, slot, pending):
        """Select the plugin for `slot`. `pending`: a check run whose install is still to come, which
        vora cannot dry-run `use` on, so the slot's current value tells what would change."""
        if pending:
            old = self.vora.run(Commands.config_get('plugins.slots.' + slot)).get('value')
            if old != plugin_id:
                self.actions.append('use ' + slot)
                key = 'plugins.slots.%s' % slot
                self.diffs.append(dict(before='%s: %s\n' % (key, old), after='%s: %s\n' % (key, plugin_id)))
            return dict(slot=slot, old=old, new=plugin_id)
        doc = self.vora.run(Commands.plugins_use(plugin_id, slot, self.check))
        if doc['config']['changed']:
            self.note('use ' + slot, doc)
        return dict(slot=slot, old=doc.get('old'), new=doc.get('new'))

    def switch(self, plugin_id, enabled, plan):
        """Enable or disable the plugin; with a pending install (check mode) the plan says how it lands."""
        action = 'enable' if enabled else 'disable'
        if plan is not None:
            if planned_enabled(plan) != enabled:
                self.actions.append(action)
            return
        doc = self.vora.run(Commands.plugins_enable(plugin_id, enabled, self.check))
        if doc['config']['changed']:
            self.note(action, doc)

    def uninstall(self, name):
        try:
            doc = self.vora.run(Commands.plugins_uninstall(name, self.check))
        except VoraFailure as failure:
            if failure.code == 'not_found':
                return  # not installed: already absent
            raise
        if doc['config']['changed'] or doc.get('delete'):
            self.note('uninstall', doc)

    def run(self):
        p = self.module.params
        state = p['state']
        if state == 'absent':
            self.uninstall(p['name'])
            return self.finish(None, None)
        plugin_id, current, plan = p['name'], None, None
        if p['source']:
            plugin_id, current, plan = self.install(p['source'], p['name'], p['link'])
        pending = plan if self.check and current is None else None  # installed only by a real run
        slot = self.select(plugin_id, p['slot'], pending is not None) if p['slot'] else None
        if state in ('enabled', 'disabled'):
            self.switch(plugin_id, state == 'enabled', pending)
        if pending is not None:
            plugin = summary(pending)
        elif self.actions or current is None:
            plugin = summary(self.inspect(plugin_id) or {})
        else:
            plugin = summary(current)
        return self.finish(plugin, slot)

    def finish(self, plugin, slot):
        result = dict(changed=bool(self.actions), actions=self.actions, plugin=plugin)
        if slot is not None:
            result['slot'] = slot
        if self.module._diff:
            result['diff'] = self.diffs
        return result


def main():
    module = AnsibleModule(
        argument_spec=vora_argument_spec(
            source=dict(type='str'),
            name=dict(type='str'),
            link=dict(type='bool', default=False),
            slot=dict(type='str', choices=['contextEngine', 'memory']),
            allow_risky_code=dict(type='bool', default=False),
            state=dict(type='str', default='present', choices=['present', 'absent', 'enabled', 'disabled']),
        ),
        required_if=[
            ('state', 'present', ('source',)),
            ('state', 'absent', ('name',)),
            ('state', 'enabled', ('name',)),
            ('state', 'disabled', ('name',)),
        ],
        supports_check_mode=True,
    )
    vora = Vora(module)
    try:
        result = PluginTask(module, vora).run()
    except VoraFailure as failure:
        vora.fail(failure, changed=False)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
