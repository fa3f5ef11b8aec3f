import sys, glob, collections, pickle; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
def op(t):
    t = t.split()
    if t and t[0].startswith('@'): t = t[1:]
    return t[0] if t else ''
data = []  # (obj, func, x100, x103)
for f100 in sorted(glob.glob('rl/*.100.o')):
    f103 = f100.replace('.100.o', '.103.o')
    try: a, b = sass(f100), sass(f103)
    except Exception as e: continue
    for fn in a:
        if fn in b: data.append((f100, fn, a[fn], b[fn]))
pickle.dump(data, open('data.pkl', 'wb'))
cls = collections.Counter(); fields = collections.Counter(); byop = collections.defaultdict(collections.Counter)
for (o, fn, x, y) in data:
    if len(x) != len(y): cls['LEN'] += 1; continue
    if any(p[2] != q[2] or p[3] & BODY != q[3] & BODY for p, q in zip(x, y)): cls['BODY'] += 1; continue
    if all(p[3] == q[3] for p, q in zip(x, y)): cls['SAME'] += 1; continue
    cls['CTL'] += 1
    for p, q in zip(x, y):
        if p[3] == q[3]: continue
        c, d = ctl(p[3]), ctl(q[3])
        for k in c:
            if c[k] != d[k]: fields[k] += 1; byop[op(p[1])][k] += 1
print(cls); print(fields)
for k, v in sorted(byop.items(), key=lambda kv: -sum(kv[1].values())): print(k, dict(v))
