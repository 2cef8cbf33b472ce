#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write docs/reference.md, the API reference, from the public headers' doc comments.

Each public header (include/sinew/*.h) becomes a section. Within it, every `// ---- title ----`
comment starts a subsection, and every declaration that a `///` comment precedes (a function, a
type, an enum) is listed with its comment. A struct's or enum's members keep their trailing `///<`
comments in the code block. Nothing is written by hand, so the reference cannot drift from the
headers: tests/test_docs.sh regenerates it and compares.

Usage: /usr/bin/python3 scripts/api_reference.py [OUT]   (default docs/reference.md)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = ["sn_base.h", "sn_model.h", "sn_data.h", "sn_world.h", "sn_sensor.h", "sn_ik.h", "sn_loopid.h", "sn_setup.h", "sn_state.h", "sn_soft.h",
           "sn_maximal.h", "sn_arm.h"]


def declarations(text):
    """(kind, payload) items in file order: ('section', title) or ('decl', doc, code)."""
    lines = text.split("\n")
    i, out = 0, []
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^// ---- (.*?) ----\s*$", line)
        if m:
            out.append(("section", m.group(1)))
            i += 1
            continue
        if line.startswith("///"):
            doc = []
            while i < len(lines) and lines[i].startswith("///"):
                doc.append(lines[i][3:].strip())
                i += 1
            # the declarations the comment covers: up to a blank line or the next comment
            # outside braces (a struct's members keep their own comments)
            code = []
            depth = 0
            while i < len(lines):
                ln = lines[i]
                if depth == 0 and (not ln.strip() or ln.lstrip().startswith("//")):
                    break
                code.append(ln)
                depth += ln.count("{") - ln.count("}")
                i += 1
            if code:
                out.append(("decl", " ".join(doc), "\n".join(code)))
            continue
        i += 1
    return out


def name_of(code):
    first = code.split("\n")[0]
    m = re.search(r"typedef\s+(?:struct|enum)\s+(\w+)", first)
    if m:
        return m.group(1)
    m = re.match(r"#define\s+(\w+)", first)
    if m:
        return m.group(1)
    m = re.match(r"typedef\s+[^(]*?(\w+)\s*;", first)
    if m:
        return m.group(1)
    m = re.match(r"typedef\s+\w[\w\s*]*\(\s*\*\s*(\w+)\)", first)
    if m:
        return m.group(1)
    m = re.search(r"(\w+)\s*\(", code)
    return m.group(1) if m else first.strip()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "reference.md")
    parts = ["# API reference", "",
             "Generated from the doc comments of `include/sinew/*.h` by "
             "`scripts/api_reference.py`; do not edit (tests/test_docs.sh checks it is current). "
             "The seeds' names are mapped to these in [api.md](api.md); conventions (frames, "
             "units, quaternion order, joint order) are in [conventions.md](conventions.md).", ""]
    for h in HEADERS:
        path = os.path.join(ROOT, "include", "sinew", h)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head = re.match(r"(?:// SPDX[^\n]*\n)?((?://[^\n]*\n)+)", text)
        parts += ["## `sinew/%s`" % h, ""]
        if head:
            intro = " ".join(l[2:].strip() for l in head.group(1).split("\n") if l.startswith("//"))
            parts += [intro, ""]
        for item in declarations(text):
            if item[0] == "section":
                parts += ["### %s" % item[1][0].upper() + item[1][1:], ""]
            else:
                _, doc, code = item
                code = re.sub(r"\bSN_API\s+", "", code)
                parts += ["#### `%s`" % name_of(code), "", "```c", code, "```", "", doc, ""]
    text = "\n".join(parts).rstrip() + "\n"
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
