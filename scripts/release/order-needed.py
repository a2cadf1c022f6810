#!/usr/bin/env python3
"""Orders an ELF executable's needed libraries: libc first, then those the loader looks most up in.

glibc's loader looks every symbol up through the libraries in DT_NEEDED order, breadth first,
checking one hash table after another. For blurlabel the link left jansson, HarfBuzz, FriBiDi,
FreeType, libm, zlib and libpng before libc, so each of the ~1,000 lookups a start makes (the
executable's and every library's: GLib's 215 for malloc & co., HarfBuzz's, libpng's and
FreeType's for their own exported functions) first missed in up to eight tables. This order
(libc, HarfBuzz, libpng, FreeType, libm, zlib, then the rest as they were) finds most at once:
0.20 M fewer instructions a start (Benchmarks/run-oneshot; `LD_DEBUG=bindings` shows who binds
to whom). Only the order of the DT_NEEDED entries changes (a permutation in place); which
libraries load stays the same, and so does the definition each symbol gets: no two of them define
one name, except libc and libm, which both export glibc's exact bit-level helpers (copysign,
frexp, ldexp, modf, scalbn, finite, signbit: the same code, so the same results). SwiftPM gives no way to order the libraries its autolink file names, hence
this step after the link.
  scripts/release/order-needed.py EXECUTABLE
"""
import os
import struct
import sys

FIRST = ["libc.so.6", "libharfbuzz.so.0", "libpng16.so.16", "libfreetype.so.6", "libm.so.6", "libz.so.1"]


def main(path):
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"order-needed: {path} is not a 64-bit little-endian ELF file")
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
        sys.exit(f"order-needed: {path} has no dynamic section")
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
        with open(path + ".order-needed", "wb") as out:
            out.write(data)
        os.chmod(path + ".order-needed", os.stat(path).st_mode & 0o7777)
        os.replace(path + ".order-needed", path)


if __name__ == "__main__":
    main(sys.argv[1])
