#!/usr/bin/env python3
"""Copies a device image with the control words of every instruction in its code sections
cleared (the 23 top bits of each 128-bit instruction: stall, yield, scoreboards, wait mask,
reuse). run.sh compares two masked images when their originals are DIFFERENT, to tell
sm_100+ finalizer control-word rewrites (scoreboard re-allocation) from other differences.

usage: ctlmask.py IN OUT
"""
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    d = bytearray(open(src, "rb").read())
    if d[:4] != b"\x7fELF" or d[4] != 2:
        sys.exit("not a 64-bit ELF file")
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    hdr = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    if shnum == 0 or shstrndx >= len(hdr):
        sys.exit("no section headers")
    stroff = hdr[shstrndx][4]
    keep = (1 << 41) - 1
    for name, typ, flags, _addr, off, size, *_ in hdr:
        n = d[stroff + name : d.index(b"\0", stroff + name)]
        if typ != 1 or not (flags & 4) or not n.startswith(b".text"):
            continue
        for i in range(off, off + size - size % 16, 16):
            hi = struct.unpack_from("<Q", d, i + 8)[0]
            struct.pack_into("<Q", d, i + 8, hi & keep)
    open(dst, "wb").write(d)


main()
