# setcompat.py IN OUT "HEX RECORDS": copies the device ELF IN to OUT with its .nv.compat
# section replaced by the given records (the new bytes are appended at the end of the file and
# the section header points at them). Used to make objects whose .nv.compat looks like an
# older ptxas's (CUDA 13.0's ptxas writes 0x05/0x06/0x07 and no 0x0c/0x0d/0x0e).
import struct, sys
src, dst, recs = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3].replace(' ', ''))
b = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
strtab = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 0x18)[0]
for i in range(shnum):
    h = shoff + i * shentsize
    name = struct.unpack_from('<I', b, h)[0]
    if b[strtab + name:b.index(0, strtab + name)] == b'.nv.compat':
        while len(b) % 4:
            b.append(0)
        struct.pack_into('<QQ', b, h + 0x18, len(b), len(recs))
        b += recs
        break
else:
    sys.exit('no .nv.compat in ' + src)
open(dst, 'wb').write(b)
