import re, subprocess, sys, os
T='/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13'
def sass(path):
    out = subprocess.run([T+'/bin/cuobjdump','-sass',path],capture_output=True,text=True).stdout
    funcs = {}; cur=None; pend=None
    for line in out.split('\n'):
        m = re.match(r'\s*Function : (\S+)', line)
        if m: cur = funcs.setdefault(m.group(1), []); continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*/\* 0x([0-9a-f]{16}) \*/', line)
        if m and cur is not None:
            pend = [int(m.group(1),16), m.group(2).rstrip(' ;'), int(m.group(3),16)]; continue
        m = re.match(r'\s*/\* 0x([0-9a-f]{16}) \*/', line)
        if m and pend is not None:
            pend.append(int(m.group(1),16)); cur.append(tuple(pend)); pend=None
    return funcs
def ctl(hi):
    c = hi >> 41
    return dict(st=c&15, y=(c>>4)&1, w=(c>>5)&7, r=(c>>8)&7, wt=(c>>11)&63, ru=(c>>17)&15)
def fmt(hi):
    c=ctl(hi)
    return 'S%02d%s w%s r%s W%02x u%x' % (c['st'], 'Y' if c['y'] else '-', c['w'] if c['w']!=7 else '-', c['r'] if c['r']!=7 else '-', c['wt'], c['ru'])
BODY=(1<<41)-1
