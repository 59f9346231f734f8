"""Each kind of tampering with a vora archive is caught by `vora backup verify` (issue 21):
a changed byte, a missing or extra file, traversal, a link out, a device, a changed mode; each
named; and a restore of a tampered archive writes nothing."""

from __future__ import annotations

import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import Member, build_install, entry, free_port, repack, tamperings
from conftest import Run

EXPECTED = {  # case -> (problem, the file it names, relative to the state or workspace asset)
    "changed_byte": ("changed", "workspace", "AGENTS.md"),
    "missing_file": ("missing", "workspace", "SOUL.md"),
    "extra_file": ("extra", "state", "EXTRA.md"),
    "traversal": ("traversal", "state", "../../../../../../../tmp/evil"),
    "symlink_out": ("link-out", "state", "out-link"),
    "device": ("device", "state", "null"),
    "outside_root": ("outside-root", None, "other-root/file"),
    "schema_version_2": ("manifest", None, "manifest.json"),
}


def cases(root: str, state: Path) -> dict[str, Callable[[list[Member]], list[Member]]]:
    """The gateway's recorded tamperings; a changed byte here is one byte, the size kept."""

    def one_byte(items: list[Member]) -> list[Member]:
        return [(m, d.replace(b"brief", b"brieF") if m.name.endswith("/AGENTS.md") and d else d) for m, d in items]

    return {**tamperings(root, f"{root}/payload/posix{state}"), "changed_byte": one_byte}


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


@pytest.fixture
def made(vora: Callable[..., Run], tmp_path: Path) -> tuple[Path, Path, Path, str]:
    state, workspace = build_install(tmp_path / "install")
    result = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path) + "/", "--json").json()
    return Path(result["archivePath"]), state, workspace, result["archiveRoot"]


def _named(root: str, state: Path, workspace: Path, asset: str | None, rel: str) -> str:
    if asset is None:
        return f"{root}/{rel}" if rel == "manifest.json" else rel
    base = state if asset == "state" else workspace
    return f"{root}/payload/posix{base}/{rel}"


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_each_kind_of_tampering_is_caught_and_named(vora: Callable[..., Run], made: tuple[Path, Path, Path, str],
                                                    tmp_path: Path, case: str) -> None:
    archive, state, workspace, root = made
    change = cases(root, state)[case]
    tampered = repack(archive, tmp_path / f"{case}.tar.gz", change)
    run = vora("backup", "verify", str(tampered), "--json")
    assert run.exit_code == 1, run.stdout
    report = run.json()
    problem, asset, rel = EXPECTED[case]
    assert report["ok"] is False
    assert (_named(root, state, workspace, asset, rel), problem) in {(p["path"], p["problem"]) for p in report["problems"]}
    human = vora("backup", "verify", str(tampered))
    assert human.stdout.splitlines()[0] == f"Backup archive FAILED: {tampered}"


def test_a_link_that_leaves_its_asset_inside_the_archive_is_caught(vora: Callable[..., Run],
                                                                   made: tuple[Path, Path, Path, str],
                                                                   tmp_path: Path) -> None:
    archive, state, workspace, root = made
    name = f"{root}/payload/posix{state}/sneaky"

    def add(items: list[Member]) -> list[Member]:
        link = "../" * (len(state.parts) - 1) + str(workspace.relative_to("/")) + "/SOUL.md"
        return [*items, entry(name, kind=tarfile.SYMTYPE, link=link)]

    report = vora("backup", "verify", str(repack(archive, tmp_path / "t.tar.gz", add)), "--json").json()
    assert (name, "link-out") in {(p["path"], p["problem"]) for p in report["problems"]}


def test_a_changed_mode_is_caught(vora: Callable[..., Run], made: tuple[Path, Path, Path, str], tmp_path: Path) -> None:
    archive, state, _workspace, root = made
    name = f"{root}/payload/posix{state}/credentials/oauth.json"

    def loosen(items: list[Member]) -> list[Member]:
        for info, _data in items:
            if info.name == name:
                info.mode = 0o644
        return items

    report = vora("backup", "verify", str(repack(archive, tmp_path / "t.tar.gz", loosen)), "--json").json()
    assert [(p["path"], p["problem"], p["detail"]) for p in report["problems"]] == [
        (name, "mode", "mode 0644, the manifest says 0600")]


def _same_content(original: bytes, damaged: bytes) -> bool:
    """Whether `damaged` is still a gzip stream of exactly `original`'s bytes, trailer included."""
    import gzip
    import zlib

    try:
        return gzip.decompress(damaged) == gzip.decompress(original)
    except (OSError, EOFError, zlib.error):
        return False


# Every damaged byte of the compressed stream is found, wherever it lands: in a file's data, in a
# member's padding or the tar's end marker (which no sha256 covers), or in gzip's own CRC-32 and
# length trailer. tarfile's "r|gz" checks none of the last three, and flipping the middle byte
# passed as intact whenever it landed in padding (seen once under load).
@pytest.mark.parametrize("where", [0.25, 0.5, 0.75, 0.95, "crc", "length", "appended"])
def test_a_damaged_gzip_stream_is_reported_not_raised(vora: Callable[..., Run], made: tuple[Path, Path, Path, str],
                                                      tmp_path: Path, where: float | str) -> None:
    archive = made[0]
    data = bytearray(archive.read_bytes())
    if where == "appended":
        data += b"\x00garbage"
    else:
        at = {"crc": len(data) - 8, "length": len(data) - 4}.get(str(where)) or int(len(data) * float(where))
        original = bytes(data)
        data[at] ^= 0xFF
        while _same_content(original, bytes(data)):
            # deflate can decode a flipped byte to the very same bytes (seen once in CI): that
            # stream is not damaged, so damage the next byte instead
            data[at] ^= 0xFF
            at += 1
            data[at] ^= 0xFF
    damaged = tmp_path / "damaged.tar.gz"
    damaged.write_bytes(bytes(data))
    run = vora("backup", "verify", str(damaged), "--json")
    assert run.exit_code == 1 and run.json()["ok"] is False, run.stdout
    assert any(p["problem"] in ("unreadable", "changed", "manifest") for p in run.json()["problems"])
    assert "Traceback" not in run.stderr


def test_a_tampered_archive_is_not_restored(vora: Callable[..., Run], made: tuple[Path, Path, Path, str],
                                            tmp_path: Path) -> None:
    archive, state, _workspace, root = made
    tampered = repack(archive, tmp_path / "t.tar.gz", cases(root, state)["changed_byte"])
    target = tmp_path / "restored"
    run = vora("backup", "restore", str(tampered), "--to", str(target), "--force", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "invalid"
    assert "changed" in run.json()["error"]["message"]
    assert not target.exists()
