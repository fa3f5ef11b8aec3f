# strippreexit.py IN OUT: copies the device ELF IN to OUT without the EIATTR_PREEXIT_USED
# (0x6d) records of its SASS .nv.info.<f> sections (CUDA 13.0's ptxas writes none); each
# section keeps its place and gets shorter.
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
strtab = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 0x18)[0]
n = 0
for i in range(shnum):
    h = shoff + i * shentsize
    name = b[strtab + struct.unpack_from('<I', b, h)[0]:b.index(0, strtab + struct.unpack_from('<I', b, h)[0])]
    if not name.startswith(b'.nv.info.'):
        continue
    off, size = struct.unpack_from('<QQ', b, h + 0x18)
    d, o, out = b[off:off + size], 0, bytearray()
    while o < len(d):
        l = 4 + (struct.unpack_from('<H', d, o + 2)[0] if d[o] == 4 else 0)
        if d[o + 1] != 0x6d:
            out += d[o:o + l]
        else:
            n += 1
        o += l
    b[off:off + len(out)] = out
    b[off + len(out):off + size] = bytes(size - len(out))
    struct.pack_into('<Q', b, h + 0x20, len(out))
if not n:
    sys.exit('no EIATTR_PREEXIT_USED in ' + src)
open(dst, 'wb').write(b)
