#!/usr/bin/env python3
"""Puts libc.so.6 (then libm.so.6) first among an ELF executable's needed libraries.

glibc's loader looks every symbol up through the libraries in DT_NEEDED order, breadth first:
for blurlabel that was jansson, HarfBuzz, FriBiDi, FreeType, libm, zlib, libpng and only then
libc, so each of the ~1,100 lookups a start makes for malloc, memcpy & co. (the executable's and
every library's: HarfBuzz, GLib, FreeType...) first missed in seven hash tables. With libc first
they are found at once: 0.14 M fewer instructions a start (Benchmarks/run-oneshot). Only the
order of the DT_NEEDED entries changes (a permutation in place); which libraries load, and which
definition each symbol gets, stays the same, since no two of them define one name.
SwiftPM gives no way to put -lc before the libraries its autolink file names, hence this step
after the link.
  scripts/libc-first.py EXECUTABLE
"""
import os
import struct
import sys

FIRST = ["libc.so.6", "libm.so.6"]


def main(path):
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"libc-first: {path} is not a 64-bit little-endian ELF file")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    dynamic, loads = None, []
    for i in range(phnum):
        kind, _, offset, vaddr, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if kind == 2:                      # PT_DYNAMIC
            dynamic = (offset, filesz)
        elif kind == 1:                    # PT_LOAD
            loads.append((vaddr, offset, filesz))
    if dynamic is None:
        sys.exit(f"libc-first: {path} has no dynamic section")
    entries = [struct.unpack_from("<qQ", data, dynamic[0] + 16 * k) for k in range(dynamic[1] // 16)]
    strtab = next(value for tag, value in entries if tag == 5)          # DT_STRTAB (an address)
    strtab_offset = next(o + strtab - v for v, o, s in loads if v <= strtab < v + s)

    def name(offset):
        start = strtab_offset + offset
        return data[start:data.index(0, start)].decode()

    slots = [k for k, (tag, _) in enumerate(entries) if tag == 1]       # DT_NEEDED
    needed = [entries[k][1] for k in slots]
    ordered = sorted(needed, key=lambda v: FIRST.index(name(v)) if name(v) in FIRST else len(FIRST))
    if ordered != needed:
        for k, value in zip(slots, ordered):
            struct.pack_into("<qQ", data, dynamic[0] + 16 * k, 1, value)
        with open(path + ".libc-first", "wb") as out:
            out.write(data)
        os.chmod(path + ".libc-first", os.stat(path).st_mode & 0o7777)
        os.replace(path + ".libc-first", path)


if __name__ == "__main__":
    main(sys.argv[1])
