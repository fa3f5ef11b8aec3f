import sys, pickle, collections, re; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
data = pickle.load(open('data.pkl','rb'))
def op(t):
    t = t.split()
    if t and t[0].startswith('@'): t = t[1:]
    return t[0] if t else ''
CLS = [('FP64', r'^(DFMA|DADD|DMUL|DSETP|DMNMX)'), ('CVT64', r'^(F2I|I2F|F2F)\S*(64)'), ('MUFU64', r'^MUFU\.\w+64H'),
       ('FLOPOPC', r'^(FLO|POPC|BREV)'), ('MUFU', r'^MUFU\.(?!\w+64H)'), ('HALF', r'^(HSETP2|HMUL2|HADD2|HFMA2\.(?!MMA))'), ('IMMA', r'^IMMA')]
def cls(o):
    for n, r in CLS:
        if re.match(r, o): return n
    return None
# targets of branches: approximate block starts by any instruction after BRA/EXIT/RET/CALL or BSYNC / labels unknown -> use only windows without control flow
CF = re.compile(r'^(BRA|EXIT|RET|CALL|BSSY|BSYNC|WARPSYNC|BREAK|JMX|BRX|NOP)')
dist = collections.defaultdict(lambda: [collections.Counter(), collections.Counter()])
for (o, fn, x, y) in data:
    if len(x) != len(y): continue
    if all(p[3]>>41 == q[3]>>41 for p,q in zip(x,y)): continue
    ops = [op(p[1]) for p in x]
    for i in range(len(x)):
        a = cls(ops[i])
        if not a: continue
        d100 = d103 = 0
        for j in range(i+1, min(len(x), i+12)):
            d100 += ctl(x[j-1][3])['st']; d103 += ctl(y[j-1][3])['st']
            if CF.match(ops[j]): break
            b = cls(ops[j])
            if b:
                dist[(a,b)][0][d100] += 1; dist[(a,b)][1][d103] += 1
                break
for k, (c1, c2) in sorted(dist.items(), key=lambda kv: -sum(kv[1][0].values())):
    print(k, 'sm100', sorted(c1.items()), '\n      sm103', sorted(c2.items()))
