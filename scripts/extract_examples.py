#!/usr/bin/python3
"""Extracts the paper examples' impact states (M, Jn, Jf, mu, v-, h, N) from the design note
../shared/design/examples.md §3 into tests/data/problems/<name>.json (matrix-input format:
keys M, Jn, D, mu, v_minus; D interleaved (+Jf_i, -Jf_i) per contact, examples.md 1.2).

Usage: scripts/extract_examples.py [path/to/examples.md] [out_dir]
The JSON files are checked in; rerun this only when the design note changes.
"""
import json
import os
import re
import sys

SECTIONS = {  # heading prefix -> (file name, samples per the authors)
    "### 3.1 BoxWall": ("box-wall", 2**18),
    "### 3.2 Phone": ("rocking-block", 2**14),
    "### 3.3 CompassGait": ("compass-gait", 2**20),
    "### 3.4 RAMone": ("ramone", 2**20),
    "### 3.6 ZenoBlock": ("zeno-block", None),
}


def parse_table(lines, i):
    """Parses a markdown matrix table starting at the header line i; returns (rows, next i)."""
    rows = []
    i += 2  # header and separator
    while i < len(lines) and lines[i].startswith("| r"):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        rows.append([float(c) for c in cells[1:]])
        i += 1
    return rows, i


def parse_block(lines, start, end):
    out = {}
    i = start
    while i < end:
        line = lines[i]
        m = re.match(r"- h = ([\d.e-]+), N = (\d+), mu = ([\d.e+-]+) for every contact, m = (\d+)", line)
        if m:
            out["h"], out["N"] = float(m.group(1)), int(m.group(2))
            out["mu"] = [float(m.group(3))] * int(m.group(4))
        m = re.match(r"- v- = \[([^\]]*)\]", line)
        if m:
            out["v_minus"] = [float(x) for x in m.group(1).split(",")]
        for key in ("M", "Jn", "Jf"):
            if line.strip() == f"{key} =":
                j = i + 1
                while not lines[j].startswith("|"):
                    j += 1
                out[key], i = parse_table(lines, j)
                break
        else:
            i += 1
            continue
        if "Jf" in out and "M" in out and "Jn" in out and "v_minus" in out:
            break
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../shared/design/examples.md")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../tests/data/problems")
    lines = open(src).read().splitlines()
    heads = [i for i, l in enumerate(lines) if l.startswith("### ")]
    for prefix, (name, samples) in SECTIONS.items():
        start = next(i for i in heads if lines[i].startswith(prefix))
        end = next((i for i in heads if i > start), len(lines))
        d = parse_block(lines, start, end)
        write(dst, name, d, samples, lines[start])
    # The disk stack has two impact states: the authors' skewed tangent and the orthogonal one.
    start = next(i for i in heads if lines[i].startswith("### 3.5"))
    end = next(i for i in heads if i > start)
    orth = next(i for i in range(start, end) if lines[i].startswith("Corrected orthogonal tangents"))
    write(dst, "disk-stack-authors", parse_block(lines, start, orth), 2**20, lines[start] + " (authors' tangent)")
    write(dst, "disk-stack", parse_block(lines, orth, end), 2**20, lines[start] + " (orthogonal tangent)")


def dumps(doc):
    """JSON with one matrix row per line."""
    parts = []
    for k, v in doc.items():
        if isinstance(v, list) and v and isinstance(v[0], list):
            rows = ",\n    ".join(json.dumps(r) for r in v)
            parts.append(f'  "{k}": [\n    {rows}\n  ]')
        else:
            parts.append(f"  {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(parts) + "\n}"


def write(dst, name, d, samples, heading):
    D = []
    for row in d["Jf"]:
        D.append(row)
        D.append([-x if x != 0 else 0.0 for x in row])
    doc = {
        "provenance": "shared/design/examples.md " + heading.lstrip("# ").strip()
        + " (10 significant digits; extracted by scripts/extract_examples.py)",
        "M": d["M"], "Jn": d["Jn"], "Jf": d["Jf"], "D": D, "mu": d["mu"], "v_minus": d["v_minus"],
        "h": d["h"], "N": d["N"],
    }
    if samples:
        doc["samples"] = samples
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, name + ".json"), "w") as f:
        f.write(dumps(doc) + "\n")
    print(name, "n =", len(d["M"]), "m =", len(d["Jn"]))


if __name__ == "__main__":
    main()
