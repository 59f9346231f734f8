# -*- coding: utf-8 -*-
# Copyright: The vora maintainers
# MIT License (see LICENSE in the vora repository)

"""vora_backup against the real vora: an archive verified by vora, rotation that keeps the newest."""

from __future__ import annotations

import os

from ansible_collections.vora.operator.plugins.modules import vora_backup


def archives(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith('.tar.gz'))


def test_writes_a_verified_archive_into_a_new_folder(install, run_module):
    dest = os.path.join(install.root, 'backups')
    done = run_module(vora_backup, install.args(dest=dest))
    assert (done.code, done.result['changed'], done.result['verified']) == (0, True, True)
    assert os.path.dirname(done.result['path']) == dest and archives(dest) == [os.path.basename(done.result['path'])]
    assert done.result['files'] >= 1 and done.result['bytes'] > 0 and done.result['archive_bytes'] > 0
    assert install.cli('backup', 'verify', done.result['path'])['ok'] is True


def test_keep_removes_the_oldest_of_vora_s_archives_only(install, run_module):
    dest = os.path.join(install.root, 'backups')
    os.makedirs(dest)
    theirs = os.path.join(dest, 'notes.tar.gz')  # not a vora archive: never removed
    with open(theirs, 'wb') as f:
        f.write(b'not an archive')
    made = [run_module(vora_backup, install.args(dest=dest, keep=2, verify=False)).result for dummy in range(3)]
    assert [r['removed'] for r in made] == [[], [], [made[0]['path']]]
    assert archives(dest) == sorted([os.path.basename(made[1]['path']), os.path.basename(made[2]['path']),
                                     'notes.tar.gz'])


def test_check_mode_names_the_archive_and_what_would_go_and_writes_nothing(install, run_module):
    dest = os.path.join(install.root, 'backups')
    kept = run_module(vora_backup, install.args(dest=dest, keep=1)).result['path']
    before = install.snapshot()
    done = run_module(vora_backup, install.args(dest=dest, keep=1), check=True)
    assert (done.code, done.result['changed'], done.result['verified']) == (0, True, None)
    assert done.result['removed'] == [kept]
    assert done.result['archive_bytes'] is None and done.result['path'] != kept
    assert install.snapshot() == before


def test_a_dest_inside_the_install_is_vora_s_refusal(install, run_module):
    done = run_module(vora_backup, install.args(dest=os.path.join(install.state_dir, 'backups')))
    assert done.code == 1
    assert done.result['error']['code'] == 'refused'
    assert done.result['msg'].endswith('would be inside the state asset %s (hint: write it somewhere else: vora '
                                       '--state-dir %s backup create --output DIR)' % (install.state_dir, install.state_dir))
    assert not os.path.exists(os.path.join(install.state_dir, 'backups'))


def test_keep_below_one_is_refused_before_vora_runs(install, run_module):
    done = run_module(vora_backup, install.args(dest=os.path.join(install.root, 'b'), keep=0))
    assert done.code == 1
    assert done.result['msg'] == 'keep must be 1 or more (the new archive is always kept); leave it unset to keep all'
    assert not os.path.exists(os.path.join(install.root, 'b'))


def age_key(install):
    """An age X25519 key pair (pyrage, vora's own age library): the identity file and its recipient."""
    from pyrage import x25519

    identity = x25519.Identity.generate()
    path = os.path.join(install.root, 'backup-key.txt')
    with open(path, 'w') as f:
        f.write('# public key: %s\n%s\n' % (identity.to_public(), identity))
    return path, str(identity.to_public())


def test_an_archive_encrypted_to_a_recipient_is_verified_and_rotated_with_its_identity(install, run_module):
    dest = os.path.join(install.root, 'backups')
    identity, recipient = age_key(install)
    args = install.args(dest=dest, keep=1, encrypt_to=[recipient], identity=identity)
    first = run_module(vora_backup, args).result
    second = run_module(vora_backup, args).result
    assert first['path'].endswith('-vora-backup.tar.gz.age') and (first['verified'], second['verified']) == (True, True)
    assert second['removed'] == [first['path']]
    assert os.listdir(dest) == [os.path.basename(second['path'])]


def test_a_passphrase_seals_the_archive_and_never_shows(install, run_module):
    dest = os.path.join(install.root, 'backups')
    passphrase = 'correct horse 7f3a battery'
    done = run_module(vora_backup, install.args(dest=dest, passphrase=passphrase, keep=2))
    assert (done.code, done.result['verified']) == (0, True)
    assert passphrase not in done.stdout
    assert install.cli('backup', 'verify', done.result['path'])['error']['code'] == 'refused'  # it is sealed


def test_recipients_without_their_identity_cannot_be_read_back(install, run_module):
    dest = os.path.join(install.root, 'backups')
    done = run_module(vora_backup, install.args(dest=dest, encrypt_to=[age_key(install)[1]]))
    assert done.code == 1
    assert done.result['msg'] == ('an archive encrypted to recipients is read back with their private key: give '
                                  'identity, or set verify to false and leave keep unset')
    assert not os.path.exists(dest)
    unchecked = run_module(vora_backup, install.args(dest=dest, encrypt_to=[age_key(install)[1]], verify=False))
    assert (unchecked.code, unchecked.result['verified']) == (0, None)
