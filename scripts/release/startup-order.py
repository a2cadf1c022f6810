#!/usr/bin/env python3
"""Writes scripts/release/startup-order.txt: the functions a one-label process runs, in the order it first
runs them, for the linker to lay out together at the front of the code (`--symbol-ordering-file`,
scripts/build-release).

Why: the kernel maps a program's code on demand, 64 KB around each page first touched. blurlabel's
4.7 MB of code, laid out in link order, has the ~600 functions one `render` runs scattered over
almost every 64 KB of it (54 faults for code in one start); gathered at the front they fit in a few
hundred KB (28 faults; about 25 fewer page faults a start in all, Benchmarks/run-oneshot). Same
code, same bytes out: only the layout changes.

How: a release build with one section per function (build-release's flags) and its link map;
valgrind's callgrind runs the commands below on a copy without debug information (valgrind 3.19
cannot read Swift's DWARF 5) and lists every function of the executable each one entered, first
entry first. A symbol whose input section is large (the Swift standard library's one 1.6 MB
`.text` of everything it did not put in a section of its own, the C kernels' variant files) is put
at the end: naming it early would pull its whole section forward. Symbols the linker no longer finds
are skipped by it quietly (--no-warn-symbol-ordering), so a stale list costs only some of the gain:
run this again after large changes.
  scripts/release/startup-order.py           (builds, profiles, writes scripts/release/startup-order.txt)
"""
import bisect
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORDER = os.path.join(ROOT, "scripts", "release", "startup-order.txt")
LARGE_SECTION = 64 * 1024


def commands(work):
    """The commands profiled, most frequent use first (their functions come first)."""
    tag = os.path.join(work, "tag.png")
    return [
        ["render", "56.00 €", "-o", tag],
        ["render", "56.00 €", "--secure", "--format", "##.## €", "-o", os.path.join(work, "secure.png")],
        ["--help"],
        ["render", "--help"],
        ["blur", tag, "--radius", "3", "-o", os.path.join(work, "blurred.png")],
        ["redact", tag, "--rect", "0,0,20,20", "-o", os.path.join(work, "redacted.png")],
    ]


def functions_entered(callgrind_file, executable_name):
    """Functions of the executable in the order callgrind first lists them."""
    objects, names, order, seen = {}, {}, [], set()
    current_object = None
    pattern = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")
    with open(callgrind_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if not m:
                continue
            kind, number, name = m.groups()
            table = objects if kind in ("ob", "cob") else names
            if name:
                table[number] = name
            if kind == "ob":
                current_object = objects.get(number)
            elif kind == "fn" and current_object and os.path.basename(current_object) == executable_name:
                symbol = re.sub(r"'\d+$", "", names.get(number, ""))  # callgrind's recursion marks
                if symbol and not symbol.startswith("0x") and symbol not in seen:
                    seen.add(symbol)
                    order.append(symbol)
    return order


def input_sections(link_map):
    """(start, size) of every input section in lld's map, sorted by start."""
    sections = []
    with open(link_map, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split(None, 4)
            if len(parts) == 5 and ":(" in parts[4]:
                try:
                    sections.append((int(parts[0], 16), int(parts[2], 16)))
                except ValueError:
                    pass
    return sorted(sections)


def section_sizes(executable, link_map):
    """Symbol -> size of the input section holding it, local symbols included: addresses from nm
    (the executable keeps its symbol table), sections from the link map."""
    sections = input_sections(link_map)
    starts = [start for start, _ in sections]
    sizes = {}
    listing = subprocess.run(["nm", executable], check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in listing.splitlines():
        m = re.match(r"^([0-9a-f]+) [tTwW] (.+)$", line)
        if not m:
            continue
        address, symbol = int(m.group(1), 16), m.group(2)
        i = bisect.bisect_right(starts, address) - 1
        if i >= 0 and address < sections[i][0] + max(sections[i][1], 1):
            sizes[symbol] = max(sizes.get(symbol, 0), sections[i][1])
    return sizes


def main():
    for tool in ("valgrind", "strip", "nm"):
        if not shutil.which(tool):
            sys.exit(f"startup-order: needs {tool} (apt-get install -y valgrind binutils)")
    with tempfile.TemporaryDirectory() as work:
        link_map = os.path.join(work, "blurlabel.map")
        env = dict(os.environ, BUILD_RELEASE_LINK_MAP=link_map, BUILD_RELEASE_NO_STARTUP_ORDER="1")
        executable = subprocess.run([os.path.join(ROOT, "scripts", "build-release")], env=env, check=True,
                                    stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
        counted = os.path.join(work, "blurlabel")
        subprocess.run(["strip", "--strip-debug", "-o", counted, executable], check=True)
        order, seen = [], set()
        for i, arguments in enumerate(commands(work)):
            out = os.path.join(work, f"callgrind.{i}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                            counted] + arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for symbol in functions_entered(out, "blurlabel"):
                if symbol not in seen:
                    seen.add(symbol)
                    order.append(symbol)
        sizes = section_sizes(executable, link_map)
        front = [s for s in order if sizes.get(s, 0) <= LARGE_SECTION]
        back = sorted((s for s in order if sizes.get(s, 0) > LARGE_SECTION), key=lambda s: sizes[s])
    # The order itself is the whole content: lld reads one symbol name a line.
    with open(ORDER + ".tmp", "w") as f:
        f.write("\n".join(front + back) + "\n")
    os.replace(ORDER + ".tmp", ORDER)
    print(f"{ORDER}: {len(front)} functions first, {len(back)} in large sections last")


if __name__ == "__main__":
    main()
