import sys, pickle, collections; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
data = pickle.load(open('data.pkl','rb'))
def op(t):
    t = t.split()
    if t and t[0].startswith('@'): t = t[1:]
    return t[0] if t else ''
def base(o): return o.split('.')[0]
same_ops = collections.Counter(); chg_ops = collections.Counter(); kinds = {}
for (o, fn, x, y) in data:
    ops = set(base(op(p[1])) for p in x)
    if len(x) != len(y): k='LEN'
    elif any(p[2] != q[2] or p[3] & BODY != q[3] & BODY for p, q in zip(x, y)): k='BODY'
    elif all(p[3] == q[3] for p, q in zip(x, y)): k='SAME'
    else: k='CTL'
    kinds[(o,fn)] = k
    for b in ops: (same_ops if k=='SAME' else chg_ops)[b] += 1
print('opcode: in changed fns / in same fns')
for b, n in sorted(chg_ops.items(), key=lambda kv: -kv[1]):
    if same_ops[b] < 0.3*(same_ops[b]+n) or n > 20: print(' ', b, n, same_ops[b])
# BODY examples
for (o, fn, x, y) in data:
    if kinds[(o,fn)]=='BODY':
        d=[(p,q) for p,q in zip(x,y) if p[2]!=q[2] or p[3]&BODY!=q[3]&BODY]
        print('BODY', o, fn[:40], len(d), d[0][0][1][:50], '|', d[0][1][1][:50]); 
for (o, fn, x, y) in data:
    if kinds[(o,fn)]=='LEN':
        print('LEN', o, fn[:40], len(x), len(y), collections.Counter(op(q[1]) for q in y)-collections.Counter(op(p[1]) for p in x))
