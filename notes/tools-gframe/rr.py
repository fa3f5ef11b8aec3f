import struct,sys
def secs(fn):
    d=open(fn,'rb').read()
    shoff,=struct.unpack_from('<Q',d,0x28); shentsize,shnum,shstrndx=struct.unpack_from('<HHH',d,0x3a)
    S=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*shentsize) for i in range(shnum)]
    so=S[shstrndx][4]
    def nm(o): e=d.index(b'\0',so+o); return d[so+o:e].decode()
    return d,[(nm(s[0]),s) for s in S]
sec=sys.argv[1]
for fn in sys.argv[2:]:
    d,S=secs(fn)
    symtab=[s for n,s in S if n=='.symtab'][0]; strtab=S[symtab[6]][1]
    def sym(i):
        o=symtab[4]+i*24; nm_,info,oth,shn,val,sz=struct.unpack_from('<IBBHQQ',d,o)
        e=d.index(b'\0',strtab[4]+nm_); return d[strtab[4]+nm_:e].decode(),hex(val),shn
    for n,s in S:
        if n==sec:
            print(fn)
            for k in range(s[5]//24):
                off,info,add=struct.unpack_from('<QQq',d,s[4]+k*24)
                print(' ',hex(off),info&0xffffffff,sym(info>>32),hex(add))
