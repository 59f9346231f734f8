"""The one bench harness: interleaved A/B runs of real `vora` processes, scored against a floor
measured in the same run (issue 24, "The bench must be honest").

- **Installed as users run it**: each checkout is `pip install`ed (not editable) into its own
  venv under `bench/.venvs/<content hash>` (git-ignored, reused while the sources are the same);
  commands run through that venv's `vora` console script. B is this checkout (its working tree,
  committed or not); A, the base, is the checkout named by `VORA_BENCH_BASE` (optional).
- **Interleaved**: every round runs the floor, then each case on A and B (alternating which goes
  first), so load from the other processes on the machine falls on every figure alike.
- **The floor** is a minimal Typer app (one group, one command) on this checkout's venv, the
  fastest any Typer CLI can answer; `python -c pass` is printed for reference, never scored.
- **The child's own numbers**: wall time, CPU (user + sys) and peak RSS from the `wait4` rusage
  of that child, taken by a 1 MiB C launcher (`LAUNCHER_C`), never the bench process's.
- **Medians and min–max** over `BENCH_RUNS` rounds (each script has its default), the load
  average at the start and the end, and whether A and B printed the same bytes.
- **Budgets** are read from the table in `docs/performance.md` by id: each is stated once, there.
- **Counted cases** (`counted=True`) are also run once per side under `valgrind --tool=callgrind`
  (`PYTHONHASHSEED=0`): the instructions they execute, the same on every run whatever the load.
  A slope budget between counted cases is judged on those counts (`instructions`) only; without
  them (`BENCH_NO_COUNT=1`, no valgrind, a failed count, each said) its wall ratio is printed,
  not judged.
- `BENCH_ONLY=REGEX` measures only the cases whose label it finds, and the cases their budgets
  compare with (a relative or slope budget's reference, a slope's smaller inputs).

Usage, from a bench script:

    with harness.Bench("sessions", runs=3) as bench:
        bench.case("sessions list (100,000)", ["--state-dir", state, "sessions", "list"], budget="sessions-list-100k")
        bench.run()
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import venv
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENVS = REPO / "bench" / ".venvs"
BUDGETS_DOC = REPO / "docs" / "performance.md"

FLOOR_APP = '''\
import typer

app = typer.Typer(add_completion=False)


@app.command()
def hello(name: str = "world") -> None:
    """Say hello."""
    print(f"hello {name}")


@app.command()
def bye() -> None:
    """Say bye."""
    print("bye")


if __name__ == "__main__":
    app()
'''


# --- checkouts, installed -----------------------------------------------------------------


@dataclass(frozen=True)
class Checkout:
    """One checkout, installed into its own venv."""

    label: str  # "base" or "this"
    root: Path
    venv: Path
    key: str

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def vora(self) -> str:
        return str(self.venv / "bin" / "vora")


# What the wheel is built from besides the package: the metadata files and the man page it installs
PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "man/vora.1")


def _source_files(root: Path) -> list[str]:
    """What the wheel is built from (the package and the project files), as git knows it or would
    add it (tracked, plus untracked files not ignored), present on disk."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            check=True, capture_output=True).stdout.decode().split("\0")
    return sorted(name for name in set(listed)
                  if (name.startswith("vora_cli/") or name in PACKAGE_FILES) and (root / name).is_file())


def _content_key(root: Path, names: list[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def install(root: Path, label: str) -> Checkout:
    """`pip install` a snapshot of `root`'s working tree into `bench/.venvs/<key>` (reused when
    present). The snapshot is a temporary copy, so nothing is built inside `root`."""
    names = _source_files(root)
    key = _content_key(root, names)
    target = VENVS / key
    done = target / ".installed"
    if not done.exists():
        shutil.rmtree(target, ignore_errors=True)
        print(f"[bench] installing {label} ({root}) into {target.relative_to(REPO)} ...", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix="vora-bench-src-") as tmp:
            for name in names:
                dest = Path(tmp) / name
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(root / name, dest)
            venv.EnvBuilder(with_pip=True, clear=True).create(target)
            subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "--quiet", tmp], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        done.write_text(f"{root}\n")
    return Checkout(label, root, target, key)


def checkouts() -> list[Checkout]:
    """[base, this] with `VORA_BENCH_BASE` set, else [this]."""
    this = install(REPO, "this")
    base = os.environ.get("VORA_BENCH_BASE")
    if not base:
        return [this]
    return [install(Path(base).resolve(), "base"), this]


# --- budgets ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """A row of the budget table: a ratio to the floor, wall seconds, peak MiB (any may be absent)."""

    id: str
    floor: float | None = None
    seconds: float | None = None
    mib: float | None = None
    relative: tuple[float, str] | None = None  # (ratio, id of another case in the same bench)
    # (ratio, id of another case): this case's growth from its smaller input (`Case.smaller`) over
    # that case's growth from its own, on the same two inputs ("no steeper than")
    slope: tuple[float, str] | None = None

    def verdict(self, wall_ms: float, floor_ms: float, peak_mib: float, reference_ms: float | None = None,
                slope_ratio: float | None = None) -> str:
        misses = []
        if self.floor is not None and wall_ms > self.floor * floor_ms:
            misses.append(f"> {self.floor:g}x floor")
        if self.relative is not None:
            if reference_ms is None:
                misses.append(f"{self.relative[1]} not measured")
            elif wall_ms > self.relative[0] * reference_ms:
                misses.append(f"> {self.relative[0]:g}x {self.relative[1]}")
        if self.slope is not None:
            if slope_ratio is None:
                misses.append(f"the slope of {self.slope[1]} not measured")
            elif slope_ratio > self.slope[0]:
                misses.append(f"> {self.slope[0]:g}x the slope of {self.slope[1]}")
        if self.seconds is not None and wall_ms > self.seconds * 1000:
            misses.append(f"> {self.seconds:g} s")
        if self.mib is not None and peak_mib > self.mib:
            misses.append(f"> {self.mib:g} MiB")
        return "MISSED (" + ", ".join(misses) + ")" if misses else "met"

    def text(self) -> str:
        parts = [f"<= {self.floor:g}x floor" if self.floor is not None else "",
                 f"<= {self.relative[0]:g}x {self.relative[1]}" if self.relative is not None else "",
                 f"<= {self.slope[0]:g}x the slope of {self.slope[1]}" if self.slope is not None else "",
                 f"<= {self.seconds:g} s" if self.seconds is not None else "",
                 f"<= {self.mib:g} MiB" if self.mib is not None else ""]
        return ", ".join(p for p in parts if p)


_ROW = re.compile(r"^\|\s*`([a-z0-9-]+)`\s*\|(.*)$")
_FLOOR = re.compile(r"≤\s*([0-9.]+)\s*×\s*floor")
_RELATIVE = re.compile(r"≤\s*([0-9.]+)\s*×\s*`([a-z0-9-]+)`")
_SLOPE = re.compile(r"≤\s*([0-9.]+)\s*×\s*the slope of\s*`([a-z0-9-]+)`")
_SECONDS = re.compile(r"≤\s*([0-9.]+)\s*(ms|s)\b")
_MIB = re.compile(r"≤\s*([0-9.]+)\s*MiB")


def budgets(doc: Path = BUDGETS_DOC) -> dict[str, Budget]:
    """Every budget row of `docs/performance.md`: `| \\`id\\` | what | wall | memory |`."""
    found: dict[str, Budget] = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if not match:
            continue
        cells = [c.strip() for c in match.group(2).split("|")]
        wall, memory = (cells[1], cells[2]) if len(cells) >= 3 else ("", "")
        ratio = _FLOOR.search(wall)
        seconds = _SECONDS.search(wall)
        mib = _MIB.search(memory)
        relative = _RELATIVE.search(wall)
        slope = _SLOPE.search(wall)
        found[match.group(1)] = Budget(
            match.group(1),
            float(ratio.group(1)) if ratio else None,
            (float(seconds.group(1)) / (1000 if seconds.group(2) == "ms" else 1)) if seconds else None,
            float(mib.group(1)) if mib else None,
            (float(relative.group(1)), relative.group(2)) if relative else None,
            (float(slope.group(1)), slope.group(2)) if slope else None,
        )
    return found


# --- one measured run ---------------------------------------------------------------------

# The measured command is started by this small C launcher, not by the bench process: Linux
# carries the peak RSS of the memory a process had before `execve` into its rusage, so a child
# forked from a 20 MiB Python parent reports at least 20 MiB (issue 24: "a child started from a
# big Python parent reports the parent's peak"). The launcher's own memory is about 1 MiB.
LAUNCHER_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(int argc, char **argv) {
    if (argc < 3) return 125;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) return 126;
    if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return 126;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    FILE *out = fopen(argv[1], "w");
    if (!out) return 126;
    double wall = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    double cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(out, "%.3f %.3f %ld %d\n", wall, cpu, ru.ru_maxrss, code);
    fclose(out);
    return 0;
}
"""


def launcher(venvs: Path = VENVS) -> list[str]:
    """The launcher to put before a measured command: the C one (built once into `venvs`), else
    GNU time (CPU in 10 ms steps)."""
    binary = venvs / "launch"
    if binary.exists():
        return [str(binary)]
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler:
        venvs.mkdir(parents=True, exist_ok=True)
        source = venvs / "launch.c"
        source.write_text(LAUNCHER_C)
        subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
        return [str(binary)]
    if os.path.exists("/usr/bin/time"):
        return ["/usr/bin/time"]
    raise SystemExit("the bench needs a C compiler (cc) or GNU time (/usr/bin/time) to measure a child's own memory")


@dataclass(frozen=True)
class Sample:
    wall_ms: float
    cpu_ms: float
    peak_mib: float
    code: int
    digest: str


def measure(argv: Sequence[str], env: dict[str, str], *, stdin: bytes | None = None, cwd: str | None = None,
            scratch: Path, launch: list[str] | None = None) -> tuple[Sample, bytes]:
    """Run `argv` once through the launcher: its own wall time, CPU and peak RSS (`wait4`), exit
    code, a hash of its stdout (written to a file, like a redirect) and its stderr."""
    out_path, err_path, in_path, usage_path = (scratch / n for n in ("stdout", "stderr", "stdin", "usage"))
    if stdin is not None:
        in_path.write_bytes(stdin)
    start = launch or launcher()
    gnu_time = start == ["/usr/bin/time"]
    prefix = [*start, "-o", str(usage_path), "-f", "%e %U %S %M %x"] if gnu_time else [*start, str(usage_path)]
    with open(out_path, "wb") as out, open(err_path, "wb") as err, \
            open(in_path if stdin is not None else os.devnull, "rb") as inp:
        subprocess.run([*prefix, *argv], env=env, stdin=inp, stdout=out, stderr=err, cwd=cwd, check=False)
    fields = usage_path.read_text().split()
    if gnu_time:
        wall, cpu, peak_kb, code = float(fields[0]) * 1000, (float(fields[1]) + float(fields[2])) * 1000, \
            int(fields[3]), int(fields[4])
    else:
        wall, cpu, peak_kb, code = float(fields[0]), float(fields[1]), int(fields[2]), int(fields[3])
    digest = hashlib.sha256()
    with open(out_path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return Sample(wall, cpu, peak_kb / 1024, code, digest.hexdigest()[:16]), err_path.read_bytes()


_COLLECTED = re.compile(rb"^==\d+== Collected : (\d+)$", re.MULTILINE)


def count_instructions(argv: Sequence[str], env: dict[str, str], *, scratch: Path,
                       stdin: bytes | None = None) -> tuple[int | None, int | None]:
    """The instructions `argv` executes in user space (callgrind's total; Python's string hashes
    fixed so that dicts and sets are laid out alike on every run) and its exit code; (None, None)
    without valgrind. Kernel time and memory stalls are not in the count: the timed rounds are."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None, None
    out_file = scratch / "callgrind.out"
    done = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={out_file}", *argv],
                          env={**env, "PYTHONHASHSEED": "0"}, input=stdin if stdin is not None else b"",
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    out_file.unlink(missing_ok=True)
    found = _COLLECTED.findall(done.stderr)
    return (int(found[-1]) if found else None), done.returncode


# --- cases and the run --------------------------------------------------------------------


@dataclass
class Case:
    label: str
    args: list[str]  # after the program; `{python}` / `{vora}` at the front pick the program
    budget: Budget | None = None
    expect: int = 0
    before: Callable[[], None] | None = None
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes | None = None
    # "vora" (the console script), "python" (the venv's interpreter) or "exec" (args[0] itself)
    program: str = "vora"
    show: bool = False  # print the last run's stdout of each side (a driver's own figures)
    rounds: int | None = None  # at most this many rounds (a slow case)
    warmup: bool = True  # one unmeasured run per side first (bytecode, page cache)
    only_this: bool = False  # measured on this checkout only (a command that does not depend on it)
    smaller: Case | None = None  # the same command on a smaller input: where a slope budget starts
    counted: bool = False  # also run once per side under callgrind for its instruction count
    samples: dict[str, list[Sample]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # side -> instructions (callgrind)
    count_failed: dict[str, str] = field(default_factory=dict)  # side -> why it has no count
    failed: dict[str, str] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)


def restorer(folder: Path) -> Callable[[], None]:
    """A `before` hook that puts `folder` back as it is now (a writing command starts each run
    from the same files; the copy is not timed)."""
    saved = Path(tempfile.mkdtemp(prefix="vora-bench-saved-")) / folder.name
    shutil.copytree(folder, saved, symlinks=True)

    def restore() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(saved, folder, symlinks=True)

    return restore


def example_state(root: Path) -> Path:
    """A copy of the example install (`examples/vora`) under `root`, with the plugin it links
    (`../plugins/my-engine`) beside it as in the repository: without it the link dangles, and the
    gateway (so `config validate`, `doctor`) refuses the config."""
    state = root / "example"
    shutil.copytree(REPO / "examples" / "vora", state, symlinks=True)
    if not (root / "plugins").exists():
        shutil.copytree(REPO / "examples" / "plugins", root / "plugins", symlinks=True)
    return state


def stats(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def clean_env(home: Path) -> dict[str, str]:
    """The environment a measured command gets: no VORA_* from the caller, its own home, no
    colour, bytecode as an installed vora has it (this sandbox may set PYTHONDONTWRITEBYTECODE)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("VORA_") and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(home), VORA_HOME=str(home), NO_COLOR="1", COLUMNS="120")
    return env


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


class Bench:
    """Cases measured on each checkout, interleaved round by round, next to the floor."""

    def __init__(self, name: str, *, runs: int, warmup: bool = True, sides: list[Checkout] | None = None,
                 venvs: Path = VENVS) -> None:
        """`sides`: the checkouts to measure (default: `checkouts()`, which installs them);
        `venvs`: where the launcher is built."""
        self.name = name
        self.runs = int(os.environ.get("BENCH_RUNS", str(runs)))
        self.warmup = warmup
        self.cases: list[Case] = []
        self._defined: list[Case] = []  # every case, BENCH_ONLY's choice or not, in the bench's order
        self.table = budgets()
        self._tmp = tempfile.TemporaryDirectory(prefix=f"vora-bench-{name}-")
        self.tmp = Path(self._tmp.name)
        self.home = self.tmp / "home"
        self.home.mkdir()
        self.env = clean_env(self.home)
        self.sides = sides if sides is not None else checkouts()
        self.this = self.sides[-1]
        self.launch = launcher(venvs)
        self.floor_script = self.tmp / "floor.py"
        self.floor_script.write_text(FLOOR_APP)
        self.floor: list[Sample] = []
        self.bare: list[Sample] = []
        self.loads: list[float] = []

    def __enter__(self) -> Bench:
        return self

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()

    def budget(self, budget_id: str) -> Budget:
        if budget_id not in self.table:
            raise SystemExit(f"no budget {budget_id!r} in {BUDGETS_DOC.relative_to(REPO)}")
        return self.table[budget_id]

    def case(self, label: str, args: Sequence[str | os.PathLike[str]], *, budget: str | None = None,
             expect: int = 0, before: Callable[[], None] | None = None, env: dict[str, str] | None = None,
             stdin: bytes | None = None, program: str = "vora", show: bool = False,
             rounds: int | None = None, warmup: bool = True, only_this: bool = False,
             smaller: Case | None = None, counted: bool = False) -> Case:
        """A command measured on every checkout. In `args` and `env` values, `{vora}`, `{python}`,
        `{bin}` (the venv's bin dir) and `{root}` (the checkout) name the side's own.
        `smaller`: the same command on a smaller input (a slope budget's other point); `counted`:
        its instructions are counted too (callgrind, once per side)."""
        only = os.environ.get("BENCH_ONLY")  # a regular expression: measure only the cases it finds
        case = Case(label, [str(a) for a in args], self.budget(budget) if budget else None, expect, before,
                    dict(env or {}), stdin, program, show, rounds, warmup, only_this, smaller, counted)
        self._defined.append(case)
        if not only or re.search(only, label):
            self.cases.append(case)
        return case

    def _with_what_budgets_need(self) -> None:
        """BENCH_ONLY's choice and the cases its budgets compare with, in the bench's order: a
        relative or slope budget's reference, a slope's smaller inputs (without them the budget
        could only say "not measured", blaming the reference whichever one was left out)."""
        chosen = list(self.cases)
        for case in chosen:  # grows as it is walked: a reference's own smaller input too
            wanted = [case.smaller] if case.smaller is not None else []
            if case.budget is not None:
                ids = {ref[1] for ref in (case.budget.relative, case.budget.slope) if ref is not None}
                wanted += [c for c in self._defined if c.budget is not None and c.budget.id in ids]
            chosen += [c for c in wanted if not any(c is k for k in chosen)]
        self.cases = [c for c in self._defined if any(c is k for k in chosen)]

    @staticmethod
    def _fill(text: str, side: Checkout) -> str:
        return (text.replace("{vora}", side.vora).replace("{python}", side.python)
                .replace("{bin}", str(side.venv / "bin")).replace("{root}", str(side.root)))

    def _argv(self, case: Case, side: Checkout) -> list[str]:
        args = [self._fill(a, side) for a in case.args]
        if case.program == "exec":
            return args
        return [side.vora if case.program == "vora" else side.python, *args]

    def _prepare(self, case: Case, side: Checkout) -> dict[str, str] | None:
        """The environment of one run of `case` on `side`, its `before` hook run; None when the
        case is not run there (it failed on that side, or it is measured on this checkout only)."""
        if side.label in case.failed or (case.only_this and side is not self.this):
            return None
        if case.before is not None:
            case.before()
        return {**self.env, **{k: self._fill(v, side) for k, v in case.env.items()}}

    def _run(self, case: Case, side: Checkout) -> None:
        env = self._prepare(case, side)
        if env is None:
            return
        sample, err = measure(self._argv(case, side), env, stdin=case.stdin, scratch=self.tmp, launch=self.launch)
        if sample.code != case.expect:
            message = err.decode(errors="replace").strip().splitlines()
            case.failed[side.label] = f"exit {sample.code}: {message[-1] if message else ''}"
            if side is self.this:
                raise SystemExit(f"[{self.name}] {case.label} on {side.label} {case.failed[side.label]}")
            return
        case.samples.setdefault(side.label, []).append(sample)
        if case.show:
            case.shown[side.label] = (self.tmp / "stdout").read_text(errors="replace")

    def _count(self, case: Case, side: Checkout) -> None:
        env = self._prepare(case, side)
        if env is None:
            return
        count, code = count_instructions(self._argv(case, side), env, scratch=self.tmp, stdin=case.stdin)
        if count is None:
            case.count_failed[side.label] = "valgrind gave no total"
        elif code != case.expect:
            case.count_failed[side.label] = f"exit {code} under valgrind, expected {case.expect}"
        else:
            case.counts[side.label] = count

    def _floor_round(self) -> None:
        python = self.this.python
        self.floor.append(measure([python, str(self.floor_script), "hello"], self.env, scratch=self.tmp,
                                  launch=self.launch)[0])
        self.bare.append(measure([python, "-c", "pass"], self.env, scratch=self.tmp, launch=self.launch)[0])

    def run(self) -> None:
        self._with_what_budgets_need()
        start_load = load()
        if self.warmup:  # bytecode and page cache, for every program, on every side
            self._floor_round()
            self.floor.clear()
            self.bare.clear()
            for case in self.cases:
                if case.warmup:
                    for side in self.sides:
                        self._run(case, side)
                    case.samples.clear()
        for round_no in range(self.runs):
            self.loads.append(os.getloadavg()[0])
            self._floor_round()
            order = self.sides if round_no % 2 == 0 else list(reversed(self.sides))
            for case in self.cases:
                if case.rounds is None or round_no < case.rounds:
                    for side in order:
                        self._run(case, side)
        if os.environ.get("BENCH_NO_COUNT") != "1" and shutil.which("valgrind"):
            for case in self.cases:
                if case.counted:
                    for side in self.sides:
                        self._count(case, side)
        self.report(start_load)

    def _budget_case(self, budget_id: str) -> Case | None:
        return next((c for c in self.cases if c.budget is not None and c.budget.id == budget_id), None)

    def _median(self, budget_id: str, side: str) -> float | None:
        case = self._budget_case(budget_id)
        if case is not None and case.samples.get(side):
            return statistics.median(s.wall_ms for s in case.samples[side])
        return None

    @staticmethod
    def _growth(case: Case | None, side: str, counted: bool) -> float | None:
        """How much more `case` costs than its `smaller`: instructions when `counted`, else wall
        medians (ms); None when either is missing."""
        if case is None or case.smaller is None:
            return None
        if counted:
            if side not in case.counts or side not in case.smaller.counts:
                return None
            return float(case.counts[side] - case.smaller.counts[side])
        if not case.samples.get(side) or not case.smaller.samples.get(side):
            return None
        return statistics.median(s.wall_ms for s in case.samples[side]) - \
            statistics.median(s.wall_ms for s in case.smaller.samples[side])

    def _slope(self, case: Case, side: str) -> tuple[float | None, str, bool]:
        """A slope budget's ratio (this case's growth over its reference's), how it was found, and
        whether it may be judged. Between counted cases it is judged on their instruction counts
        only: without them (no valgrind, `BENCH_NO_COUNT=1`, a count that failed) the wall
        medians' ratio is printed but not judged, a difference of two timed differences being
        within this machine's noise. Between cases none of which is counted, on the wall medians."""
        assert case.budget is not None and case.budget.slope is not None
        reference = self._budget_case(case.budget.slope[1])
        four = (case, case.smaller, reference, reference.smaller if reference is not None else None)
        wants_counts = any(c is not None and c.counted for c in four)
        for counted in (True, False):
            mine, theirs = self._growth(case, side, counted), self._growth(reference, side, counted)
            if mine is not None and theirs is not None and theirs > 0:
                how = (f"+{mine / 1e6:,.1f}M vs +{theirs / 1e6:,.1f}M instructions" if counted
                       else f"+{mine:.1f} vs +{theirs:.1f} ms, wall medians")
                return mine / theirs, f"{mine / theirs:.3f}x, {how} from the smaller input; ", counted or not wants_counts
        return None, "", True

    def report(self, start_load: str) -> None:
        floor_ms, floor_lo, floor_hi = stats([s.wall_ms for s in self.floor])
        bare_ms, bare_lo, bare_hi = stats([s.wall_ms for s in self.bare])
        sides = "; ".join(f"{s.label} = {s.root} [{s.key}]" for s in self.sides)
        print(f"== bench {self.name}: {self.runs} interleaved rounds; {sides}")
        print(f"   load average at start {start_load}; at end {load()}; "
              f"1-min load during the rounds {min(self.loads):.2f}-{max(self.loads):.2f}")
        floor_mib = max(s.peak_mib for s in self.floor)
        print(f"   floor (minimal Typer app): median {floor_ms:.1f} ms ({floor_lo:.1f}-{floor_hi:.1f}), {floor_mib:.1f} MiB; "
              f"python -c pass {bare_ms:.1f} ms ({bare_lo:.1f}-{bare_hi:.1f}), for reference only")
        print(f"   {'case':46} {'side':4} {'median':>9} {'min-max':>19} {'x floor':>8} {'cpu':>9} {'peak RSS':>10}")
        missed = {side.label: 0 for side in self.sides}
        judged = 0
        for case in self.cases:
            digests: dict[str, set[str]] = {}
            medians: dict[str, float] = {}
            for side in self.sides:
                samples = case.samples.get(side.label)
                if not samples:
                    if not case.only_this:
                        print(f"   {case.label:46} {side.label:4} n/a ({case.failed.get(side.label, 'not run')})")
                    continue
                wall, lo, hi = stats([s.wall_ms for s in samples])
                cpu = statistics.median(s.cpu_ms for s in samples)
                peak = max(s.peak_mib for s in samples)
                medians[side.label] = wall
                digests[side.label] = {s.digest for s in samples}
                verdict = ""
                if case.budget is not None:
                    reference = self._median(case.budget.relative[1], side.label) if case.budget.relative else None
                    ratio, how, judgeable = self._slope(case, side.label) if case.budget.slope else (None, "", True)
                    judgement = case.budget.verdict(wall, floor_ms, peak, reference, ratio) if judgeable \
                        else "not judged (no instruction counts)"
                    if judgeable and judgement != "met":
                        missed[side.label] += 1
                    if judgeable and side is self.this and case.budget.text():
                        judged += 1
                    verdict = f"  [{case.budget.id} {case.budget.text()}: {how}{judgement}]" if case.budget.text() else ""
                print(f"   {case.label:46} {side.label:4} {_ms(wall):>9} {_ms(lo) + '-' + _ms(hi):>19} "
                      f"{wall / floor_ms:7.2f}x {_ms(cpu):>9} {peak:6.1f} MiB{verdict}")
                if side.label in case.counts:
                    print(f"   {'':46} {side.label:4}   {case.counts[side.label] / 1e6:,.1f}M instructions (callgrind)")
                elif side.label in case.count_failed:
                    print(f"   {'':46} {side.label:4}   instructions not counted: {case.count_failed[side.label]}")
                for line in case.shown.get(side.label, "").splitlines():
                    print(f"   {'':46} {side.label:4}   {line}")
            if len(medians) == 2:
                if len(digests["this"]) > 1 or len(digests["base"]) > 1:
                    same = "varies between runs"
                else:
                    same = "identical" if digests["base"] == digests["this"] else "DIFFERS"
                print(f"   {'':46} this/base {medians['this'] / medians['base']:.2f}x, output {same}")
        summary = ", ".join(f"{label} missed {n}" for label, n in missed.items())
        print(f"   budgets judged: {judged}; {summary} (absolute budgets hold at a 1-min load below 1)")


def _ms(value: float) -> str:
    return f"{value:.1f} ms" if value < 10_000 else f"{value / 1000:.2f} s"
