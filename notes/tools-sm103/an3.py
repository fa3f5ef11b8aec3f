import sys, pickle, collections, re; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
data = pickle.load(open('data.pkl','rb'))
def op(t):
    t = t.split()
    if t and t[0].startswith('@'): t = t[1:]
    return t[0] if t else ''
FP64 = re.compile(r'^(DFMA|DADD|DMUL|DSETP|DMNMX|MUFU\.\w+64H|F2F\.F64|F2F\.F32\.F64|F2I.*(F64|S64|U64)|I2F.*(F64|S64|U64)|FRND\.F64)')
def trig(o): return bool(FP64.match(o))
cnt = collections.Counter()
for (o, fn, x, y) in data:
    ctlsame = len(x)==len(y) and all(p[3]>>41 == q[3]>>41 for p,q in zip(x,y))
    ops = [op(p[1]) for p in x]
    t = any(trig(a) for a in ops)
    cnt[(t, 'same' if ctlsame else ('len' if len(x)!=len(y) else 'ctl'))] += 1
    if not t and not ctlsame:
        firstdiff = next((i for i,(p,q) in enumerate(zip(x,y)) if p[3]>>41 != q[3]>>41), None)
        interesting = sorted(set(a for a in ops if re.match(r'(POPC|FLO|BREV|MUFU|IMMA|R2P|I2F|F2I|F2F|HMMA|FRND|SGXT|BMSK|HSETP2|HMUL2)', a)))
        print('NONFP64', o.split('__')[1], fn[:30], 'len' if len(x)!=len(y) else '', 'first diff @%s %s' % (firstdiff, x[firstdiff][1][:40] if firstdiff is not None else ''), interesting)
print(cnt)
