# fs.py CUBIN...: per-function EIATTR records (FRAME_SIZE 0x11, MIN 0x12, MAX 0x23) of .nv.info and .nv.merc.nv.info
import struct,sys
NAMES={0x11:'FRAME',0x12:'MIN',0x23:'MAX',0x2f:'REGCOUNT'}
def load(fn):
    d=open(fn,'rb').read()
    shoff,=struct.unpack_from('<Q',d,0x28); n,stri=struct.unpack_from('<HH',d,0x3c)
    S=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*64) for i in range(n)]
    def cstr(off): return d[off:d.index(b'\0',off)].decode()
    nm=lambda s: cstr(S[stri][4]+s[0])
    return d,S,nm
for fn in sys.argv[1:]:
    d,S,nm=load(fn); print('##',fn)
    for s in S:
        if nm(s) not in ('.nv.info','.nv.merc.nv.info'): continue
        sym=S[s[6]]; strs=S[sym[6]]
        def symname(i):
            o=sym[4]+i*24; st_name,=struct.unpack_from('<I',d,o); return d[strs[4]+st_name:d.index(b'\0',strs[4]+st_name)].decode()
        p=s[4]; e=p+s[5]; out=[]
        while p<e:
            fmt,attr=d[p],d[p+1]
            if fmt==4:
                ln,=struct.unpack_from('<H',d,p+2); body=d[p+4:p+4+ln]; p+=4+ln
                if attr in NAMES: i,v=struct.unpack_from('<II',body); out.append(f'{NAMES[attr]} {symname(i)}={v:#x}')
            elif fmt==3: p+=4
            else: p+=4 if fmt in (1,2,3) else 4
        print(' ',nm(s)); [print('   ',x) for x in out]
