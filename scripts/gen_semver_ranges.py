"""Record npm's `semver` answers on node-semver's own range fixtures, for `core/plugins/semver.py`'s tests.

    python scripts/gen_semver_ranges.py --repo NODE_SEMVER_CHECKOUT --semver MODULE_DIR --node NODE

node-semver's `test/fixtures/range-include.js` and `range-exclude.js` (its repository: the npm
tarball ships no tests) are tables of `[range, version, options]`. For each row the real `semver`
package (the one the upstream release installs: `MODULE_DIR`, e.g. `/work/upstream/node_modules/
semver`) is asked `satisfies(version, range, options)`, with the options as `semver` itself
normalises them (`parseOptions`: a non-object is `{loose: true}`, an object keeps its truthy `loose`
and `includePrerelease`). A few everyday plugin ranges (`EVERYDAY` below: what `compat.pluginApi` and
`minGatewayVersion` hold in published packages) and 400 ranges drawn from npm's grammar (`generated`)
are asked the same way, with and without `includePrerelease`. `LONG` ranges (one unit repeated, past
4,096 characters and up to 1 MiB: semver has no length limit) are asked with and without `loose`
and `includePrerelease`, kept as their recipe (`long_row` names the fields), not their text. Writes
`tests/data/upstream/semver-ranges.json` with the `semver` version and the fixtures' commit, one
answer a line (`row` names the fields). Nothing
here is needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "upstream" / "semver-ranges.json"

# Ranges plugins publish for the gateway, each with versions around its edges (issue 35's sixteen).
EVERYDAY = [
    ("2026.4.x || >=2027", ["2026.4.30", "2026.5.0", "2027.0.0", "2026.3.9", "2027.1.0-beta.1"]),
    (">=2026.4.24", ["2026.4.24", "2026.4.30", "2026.4.12", "2026.4.30-beta.1", "2026.4.24-0"]),
    (">= 2026.4.24", ["2026.4.24", "2026.4.12", "2026.5.1"]),
    ("~1", ["1.0.0", "1.9.9", "2.0.0", "0.9.0"]),
    ("^0.0", ["0.0.0", "0.0.9", "0.1.0"]),
    ("1.x", ["1.0.0", "1.99.0", "2.0.0"]),
    ("1.2.*", ["1.2.0", "1.2.99", "1.3.0"]),
    ("1.2.3 - 2.3.4", ["1.2.3", "2.3.4", "2.3.5", "1.2.2"]),
    ("^2026.4.0", ["2026.4.12", "2026.99.0", "2027.0.0"]),
    ("~2026.4.10", ["2026.4.12", "2026.5.0"]),
    (">=2026.4.0 <2026.5.0", ["2026.4.12", "2026.5.0"]),
    ("*", ["2026.4.12", "2026.4.12-beta.1"]),
    ("", ["2026.4.12"]),
    ("2026.4.12", ["2026.4.12", "v2026.4.12", "2026.4.13"]),
    ("=2026.4.12", ["2026.4.12"]),
    ("<2026.4.12 || >2026.4.12", ["2026.4.12", "2026.4.11"]),
]

def generated(count: int, seed: int = 36) -> list[tuple[str, list[str]]]:
    """Range strings from npm's grammar, odd spacing and broken forms included, each with versions
    around its numbers: the open-ended part of the corpus (seeded, so a re-record asks the same)."""
    import random

    rng = random.Random(seed)
    parts = ["0", "1", "2", "10", "2026", "x", "X", "*", ""]

    def partial() -> str:
        out = [rng.choice(parts[:-1])]
        for _ in range(rng.randint(0, 2)):
            out.append(rng.choice(parts[:-1]))
        text = ".".join(out)
        if len(out) == 3 and rng.random() < 0.3:
            text += "-" + rng.choice(["0", "alpha", "beta.1", "rc.2", "pre"])
        if rng.random() < 0.05:
            text += "+build.1"
        return rng.choice(["", "", "", "v", "="]) + text

    def comparator() -> str:
        op = rng.choice(["", "", "^", "~", "~>", ">", ">=", "<", "<=", "=", "> ", ">= ", "^ ", "~ "])
        return op + partial()

    def alternative() -> str:
        if rng.random() < 0.15:
            return f"{partial()} - {partial()}"
        return rng.choice([" ", "  ", " "]).join(comparator() for _ in range(rng.randint(1, 3)))

    def version() -> str:
        text = ".".join(str(rng.choice([0, 1, 2, 3, 10, 2026])) for _ in range(3))
        if rng.random() < 0.35:
            text += "-" + rng.choice(["0", "alpha", "beta.1", "rc.2", "pre"])
        return text

    cases = []
    for _ in range(count):
        text = " || ".join(alternative() for _ in range(rng.randint(1, 2)))
        if rng.random() < 0.05:
            text = text.replace(" ", rng.choice(["\t", "   "]))
        cases.append((text, [version() for _ in range(3)]))
    return cases


# Long and odd ranges: (prefix, unit, times, suffix), the range being prefix + unit * times + suffix.
# Each is asked of LONG_VERSIONS with every option; the 1 MiB ones (MIB_TIMES) without
# includePrerelease. They hold the shapes that cost a backtracking reader most: runs of what
# semver's `[v=\s]*` takes, of operators, of alternatives, of hyphens, of prerelease parts.
LONG = [
    ("", ">=1.0.0 ", 511, ""), ("", ">=1.0.0 ", 512, ""), ("", ">=1.0.0 ", 513, ""), ("", ">=1.0.0 ", 600, ""),
    ("", ">=1.0.0 ", 600, "<1.0.0"), ("", ">=1.0.0 ", 131072, ""),
    ("", "v", 4097, "1.2.3"), ("", "v", 65536, ""), ("", "v", 300, "1.2.3"), ("", "=", 4097, "1.2.3"),
    ("", "v ", 3000, "1.2.3"), ("", "= ", 3000, "1.2.3"), ("", "= ", 16384, ""), ("", "> ", 3000, "1.2.3"),
    ("", "v=v= ", 1000, "1.2.3"), ("", ">= = ", 1000, "1.2.3"), ("", "<", 5000, "1.2.3"),
    ("", "1 - ", 2000, "2"), ("", "1||", 2000, ""), ("", "||", 3000, ""), ("", "2026.4.x || ", 500, ">=2027"),
    ("1.2.3-", "a.", 3000, "a"), ("1.2.3+", "b.", 3000, "b"), ("1.2.3-", "v", 5000, ""), ("1.2.3-a", "-", 5000, ""),
    ("", " ", 5000, "1.2.3"), ("", "\t\u00a0\u2028", 2000, ">=1"), ("", "^1.2.3 ", 1000, ""), ("", "~1.2 ", 1000, ""),
    ("", "1.x ", 1000, ""), ("", "* ", 3000, ""), ("", "<0.0.0-0 ", 1000, ""), ("", "<0.0.0-0 || ", 1000, "1.2.3"),
    ("", "1.2.3 ", 1000, "x.1"), ("", "1", 5000, ""), ("", "1.", 3000, "1"), ("", "~ ^ ", 2000, "1.2.3"),
]
LONG_VERSIONS = ["1.2.3", "2026.4.12", "1.2.3-a"]
MIB_TIMES = 100_000  # a recipe repeated this often or more is a 1 MiB one

ROW = ["range", "version", "loose", "includePrerelease", "satisfies"]  # one answer per line, in this order
LONG_ROW = ["prefix", "unit", "times", "suffix", "version", "loose", "includePrerelease", "satisfies"]

ASK = r"""
const path = require("path");
const [semverDir, fixturesDir, everydayJson] = process.argv.slice(1);
const semver = require(semverDir);
function normal(options) {
  if (!options) return {loose: false, includePrerelease: false};
  if (typeof options !== "object") return {loose: true, includePrerelease: false};
  return {loose: !!options.loose, includePrerelease: !!options.includePrerelease};
}
function ask(range, version, options) {
  const opts = normal(options);
  let answer;
  try { answer = semver.satisfies(version, range, opts); } catch (e) { answer = null; }
  return {range, version, loose: opts.loose, includePrerelease: opts.includePrerelease, satisfies: answer};
}
const out = {semver: require(path.join(semverDir, "package.json")).version, tables: {}};
for (const name of ["range-include", "range-exclude"]) {
  const rows = require(path.join(fixturesDir, name + ".js"));
  out.tables[name] = rows.map(([range, version, options]) => ask(range, version, options));
}
const [everyday, generated, long, versions, mib] = JSON.parse(everydayJson);
for (const [name, cases] of [["everyday", everyday], ["generated", generated]]) {
  out.tables[name] = [];
  for (const [range, versions] of cases) {
    for (const version of versions) {
      for (const includePrerelease of [false, true]) out.tables[name].push(ask(range, version, {includePrerelease}));
    }
  }
}
out.tables.long = [];
for (const [prefix, unit, times, suffix] of long) {
  const range = prefix + unit.repeat(times) + suffix;
  for (const version of versions) {
    for (const loose of [false, true]) {
      for (const includePrerelease of times >= mib ? [false] : [false, true]) {
        const {satisfies} = ask(range, version, {loose, includePrerelease});
        out.tables.long.push({prefix, unit, times, suffix, version, loose, includePrerelease, satisfies});
      }
    }
  }
}
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, help="a checkout of node-semver (its test/fixtures are read)")
    parser.add_argument("--semver", required=True, help="the semver package folder to ask")
    parser.add_argument("--node", default="node", help="the node executable")
    args = parser.parse_args()
    repo = Path(args.repo)
    commit = subprocess.run(["git", f"--git-dir={repo}/.git" if (repo / ".git").exists() else f"--git-dir={repo}",
                             "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    fixtures = repo / "test" / "fixtures"
    if not fixtures.is_dir():
        raise SystemExit(f"{fixtures}: not found (a bare mirror? check out the repository first)")
    done = subprocess.run([args.node, "-e", ASK, str(Path(args.semver).resolve()), str(fixtures.resolve()),
                           json.dumps([EVERYDAY, generated(400), LONG, LONG_VERSIONS, MIB_TIMES])], capture_output=True, text=True, check=True)
    answers = json.loads(done.stdout)
    head = {"semver": answers["semver"], "fixtures": f"node-semver test/fixtures at {commit}",
            "generatedBy": "scripts/gen_semver_ranges.py", "row": ROW, "long_row": LONG_ROW}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "tables": {']
    for t, (name, rows) in enumerate(answers["tables"].items()):
        lines.append(f" {json.dumps(name)}: [")
        fields = LONG_ROW if name == "long" else ROW
        lines += ["  " + json.dumps([row[k] for k in fields], ensure_ascii=False) + ("," if i < len(rows) - 1 else "")
                  for i, row in enumerate(rows)]
        lines.append(" ]" + ("," if t < len(answers["tables"]) - 1 else ""))
    OUT.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")
    print(f"{OUT}: {sum(len(t) for t in answers['tables'].values())} answers from semver {answers['semver']}")


if __name__ == "__main__":
    main()
