# fshyp.py IN.cubin R.cubin: test "SASS FRAME_SIZE of f in -r output = value of the first .nv.merc.nv.info FRAME record whose function lies in f's section"
import struct,sys
def load(fn):
    d=open(fn,'rb').read()
    shoff,=struct.unpack_from('<Q',d,0x28); n,stri=struct.unpack_from('<HH',d,0x3c)
    S=[struct.unpack_from('<IIQQQQIIQQ',d,shoff+i*64) for i in range(n)]
    cstr=lambda off: d[off:d.index(b'\0',off)].decode()
    nm=lambda s: cstr(S[stri][4]+s[0])
    res={}
    for s in S:
        if nm(s) not in ('.nv.info','.nv.merc.nv.info'): continue
        sym=S[s[6]]; strs=S[sym[6]]
        def syminfo(i):
            o=sym[4]+i*24; st_name,info,other,shndx=struct.unpack_from('<IBBH',d,o); return cstr(strs[4]+st_name),(nm(S[shndx]).replace('.nv.merc','').replace('.nv.capmerc','') if shndx<len(S) else shndx)
        p=s[4]; e=p+s[5]; out=[]
        while p<e:
            fmt,attr=d[p],d[p+1]
            if fmt==4:
                ln,=struct.unpack_from('<H',d,p+2); body=d[p+4:p+4+ln]; p+=4+ln
                if attr==0x11: i,v=struct.unpack_from('<II',body); n_,sh=syminfo(i); out.append((n_,sh,v))
            else: p+=4
        res[nm(s)]=out
    return res
a=load(sys.argv[1]); r=load(sys.argv[2])
merc=a.get('.nv.merc.nv.info',[])
first={}
for n,sh,v in merc: first.setdefault(sh,v)
sass_in={n:v for n,sh,v in a.get('.nv.info',[])}
# section of a function: by input SASS symtab
secof={n:sh for n,sh,v in a.get('.nv.info',[])}
ok=bad=chg=0; msgs=[]
for n,sh,v in r.get('.nv.info',[]):
    pred=first.get(secof.get(n))
    if v!=sass_in.get(n): chg+=1
    if pred==v: ok+=1
    else: bad+=1; msgs.append(f'{n} out={v:#x} in={sass_in.get(n)} pred={pred}')
mo={n:v for n,sh,v in merc}
mbad=[n for n,sh,v in r.get('.nv.merc.nv.info',[]) if mo.get(n)!=v]
print(f'ok={ok} bad={bad} changed={chg} mercchanged={len(mbad)}', '; '.join(msgs[:3]))
