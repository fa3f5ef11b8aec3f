#!/usr/bin/env python3
"""Golden def/use of sm_100/sm_120 SASS instructions for the `sass_defuse` test.

Runs NVIDIA's nvdisasm (-hex) on the cubins given on the command line and writes, per distinct
instruction body (control bits dropped), one line:
    <lo hex> <hi hex> | <defs> | <uses> | <guard> | <address> | <desc> | <nvdisasm text>
(<address>: registers inside a `[...]` operand other than desc[...]; <desc>: the desc[URx] pair).
The register sets come from the nvdisasm text alone, by the rules of the M1 model
(notes/m1/m5/defuse.py, copied below): RZ/URZ/PT/UPT dropped, pairs for .64 operands, etc.
Usage: NVDISASM=$T/bin/nvdisasm golden.py a.cubin ... > name.txt
"""
import os, re, subprocess, sys
NODST={'ST','STG','STL','STS','SUST','RED','REDG','BAR','BRA','EXIT','WARPSYNC','BSYNC','CALL','RET','MEMBAR','ERRBAR',
       'CGAERRBAR','CCTL','DEPBAR','NOP','YIELD','BPT','ENDCOLLECTIVE','UCGABAR_ARV','UCGABAR_WAIT','BREAK','KILL','JMP'}
ISPRED=re.compile(r'^!?U?P(T|\d)$')
def split_ops(body):
    parts=body.split(None,1)
    if not parts: return '',[]
    if len(parts)<2: return parts[0],[]
    return parts[0],[o.strip() for o in re.split(r',(?![^\[]*\])',parts[1]) if o.strip()]
def regs_in(o,w=1,memw=None):
    """registers referenced by operand string o; w = width for a plain register operand"""
    out=[]
    if o.startswith('desc[') or '[' in o:
        for m in re.finditer(r'desc\[(UR\d+)\]',o):
            n=int(m.group(1)[2:]); out+= [('UR',n),('UR',n+1)]
        inner=re.sub(r'desc\[UR\d+\]','',o)
        for m in re.finditer(r'(?<![\w.])(U?R)(\d+)(\.64)?',inner):
            n=int(m.group(2)); ww=2 if m.group(3) else (memw or 1)
            out+=[(m.group(1),n+j) for j in range(ww)]
        return out
    if o=='PR': return [('P',j) for j in range(7)]
    m=re.match(r'^[-|~!]*(U?R)(\d+)(\.64)?',o)
    if m:
        n=int(m.group(2)); ww=2 if m.group(3) else w
        return [(m.group(1),n+j) for j in range(ww)]
    m=re.match(r'^!?(U?P)(\d)$',o)
    if m: return [(m.group(1),int(m.group(2)))]
    m=re.match(r'^(B)(\d+)$',o)
    if m: return [('B',int(m.group(2)))]
    return []
def defuse(t):
    t=re.sub(r'\(\*.*?\*\)','',t).replace('.reuse','').strip()
    uses=set(); defs=set(); flags=set()
    g=re.match(r'^@(!?U?P\w+)\s+',t)
    guard=set()
    if g:
        guard=set(regs_in(g.group(1))); t=t[g.end():]
    mn,ops=split_ops(t)
    # strip half selectors
    ops=[re.sub(r'\.(H0_H0|H1_H1|H0|H1|B\d|F32)\b','',o) for o in ops]
    ops=[o[:-4] if o.endswith(' 0x0') else o for o in ops]
    parts=mn.split('.'); base=parts[0]; mods=set(parts[1:])
    if base in ('CALL',): flags.add('call')
    if base=='RET': flags.add('ret')
    if base=='EXIT': flags.add('exit')
    if base in ('BAR',): flags.add('bar')
    if base in ('MEMBAR','ERRBAR','CGAERRBAR','CCTL'): flags.add('membar')
    # number of destination operands
    if base in NODST or not ops: nd=0
    elif base in ('VOTE','VOTEU'): nd=len(ops)-1
    elif base in ('PLOP3','UPLOP3','TEX','TLD','TLD4'): nd=2
    elif base=='BSSY': nd=1
    elif ISPRED.match(ops[0]) and len(ops)>1 and re.match(r'^U?R(\d+|Z)',ops[1]) and base not in ('FCHK',): nd=2
    else:
        nd=1
        while nd<len(ops) and ISPRED.match(ops[nd]) and not ops[nd].startswith('!'): nd+=1
    # widths
    W64 = '64' in mods; W128='128' in mods
    dw=4 if W128 else 2 if W64 else 1     # dst width (loads, moves)
    sw=[1]*len(ops)                        # per-operand width for sources
    if base in ('DADD','DFMA','DMUL','DMNMX','DSETP'):
        dw=2 if base!='DSETP' else 1; sw=[2]*len(ops)
    if base in ('IMAD','UIMAD') and 'WIDE' in mods:
        dw=2
        if len(ops)>=1: sw[-1 if not ISPRED.match(ops[-1]) else -2]=2
        if 'X' in mods: pass
    if base in ('ISETP','UISETP') and ('U64' in mods or 'S64' in mods): sw=[2]*len(ops)
    if base in ('IADD','UIADD3','MOV','SEL','UMOV') and W64: sw=[2]*len(ops)
    if base in ('I2F','I2FP','UI2F'):
        dw=2 if 'F64' in mods else 1; sw=[2 if ('S64' in mods or 'U64' in mods) else 1]*len(ops)
    if base in ('F2I','UF2I'):
        dw=2 if ('S64' in mods or 'U64' in mods) else 1; sw=[2 if 'F64' in mods else 1]*len(ops)
    if base=='F2F':
        ty=[m for m in parts[1:] if re.match(r'^[FBH]F?\d+$|^BF16$|^F16$',m)]
        dw=2 if ty and ty[0]=='F64' else 1; sw=[2 if len(ty)>1 and ty[1]=='F64' else 1]*len(ops)
    if base=='CS2R' and '32' not in mods: dw=2
    if base in ('ST','STG','STL','STS','ATOMG','ATOM','ATOMS','RED','REDG') :
        sw=[2 if W64 or 'F64' in mods else 4 if W128 else 1]*len(ops)
        if base in ('ATOMG','ATOM','ATOMS') and ('F64' in mods): dw=2
    if base in ('SULD','SUST'):
        dim=2 if '2D' in mods else 3 if '3D' in mods else 1
    for j,o in enumerate(ops):
        if j<nd:
            w=dw
            if base in ('SHFL','R2UR','LOP3','ULOP3','FCHK') or ISPRED.match(o): w=1
            if base in ('TEX','TLD','TLD4'):
                msk=int(ops[-1],16) if re.match(r'0x[0-9a-f]+$',ops[-1]) else 0xf
                w=bin(msk).count('1') if ops[0] in ('RZ',) else 2
            defs|=set(regs_in(o,w))
            if base=='BMOV' and o.startswith('R'):
                uses|=set(r for oo in ops[1:] for r in regs_in(oo)); defs|=set(r for oo in ops[1:] for r in regs_in(oo))
        else:
            memw=None
            if base in ('SULD','SUST') and '[' in o: memw=dim
            if base in ('TEX','TLD','TLD4') and j==2:
                dims=[x for x in ops if x in ('1D','2D','3D','ARRAY_2D','ARRAY_1D','CUBE','ARRAY_CUBE')]
                d=dims[0] if dims else '2D'
                w={'1D':1,'2D':2,'3D':3,'ARRAY_1D':2,'ARRAY_2D':3,'CUBE':3,'ARRAY_CUBE':4}[d]
                uses|=set(regs_in(o,w)); continue
            uses|=set(regs_in(o,sw[j] if j<len(sw) else 1,memw))
    if base=='RET':
        for o in ops: uses|=set(regs_in(o.split()[0],2))
    if base in ('BSYNC','BREAK','WARPSYNC','BSSY') : pass
    defs={r for r in defs if r[0]!='B'}; uses={r for r in uses if r[0]!='B'}
    flags.add(base)
    return defs,uses,guard,flags,mods

def addr_sets(t):
    t = re.sub(r'\(\*.*?\*\)', '', t).replace('.reuse', '').strip()
    t = re.sub(r'^@(!?U?P\w+)\s+', '', t)
    mn, ops = split_ops(t)
    mods = set(mn.split('.')[1:])
    memw = None
    if mn.split('.')[0] in ('SULD', 'SUST'):
        memw = 2 if '2D' in mods else 3 if '3D' in mods else 1
    a = set(); k = set()
    for o in ops:
        if '[' not in o:
            continue
        for m in re.finditer(r'desc\[(UR\d+)\]', o):
            n = int(m.group(1)[2:]); k |= {('UR', n), ('UR', n + 1)}
        inner = re.sub(r'desc\[UR\d+\]', '', o)
        if '[' in inner:
            a |= set(regs_in(inner, 1, memw))
    return {r for r in a if r[0] != 'B'}, k


MASK = (1 << 41) - 1
L1 = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x([0-9a-f]{16}) \*/\s*$')
L2 = re.compile(r'^\s*/\* 0x([0-9a-f]{16}) \*/\s*$')


def names(regs):
    return ' '.join(f'{k}{n}' for k, n in sorted(regs)) or '-'


def main():
    nvd = os.environ.get('NVDISASM', 'nvdisasm')
    seen = set()
    for path in sys.argv[1:]:
        out = subprocess.run([nvd, '-hex', path], capture_output=True, text=True, check=True).stdout
        pend = None
        for line in out.splitlines():
            m = L1.match(line)
            if m:
                pend = (m.group(2), int(m.group(3), 16))
                continue
            m = L2.match(line)
            if m and pend:
                text, lo = pend
                hi = int(m.group(1), 16) & MASK
                pend = None
                if (lo, hi) in seen:
                    continue
                seen.add((lo, hi))
                d, u, g, _, _ = defuse(text)
                a, k = addr_sets(text)
                print(f'{lo:016x} {hi:016x} | {names(d)} | {names(u)} | {names(g)} | {names(a)} | {names(k)} | {text}')


if __name__ == '__main__':
    main()
