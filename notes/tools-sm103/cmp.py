import sys; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
a, b = sass(sys.argv[1]), sass(sys.argv[2])
verbose = len(sys.argv) > 3
for f in a:
    x, y = a[f], b.get(f)
    if y is None: print(f, 'missing'); continue
    same = len(x)==len(y) and all(p[2]==q[2] and p[3]==q[3] for p,q in zip(x,y))
    body = len(x)==len(y) and all(p[2]==q[2] and p[3]&BODY==q[3]&BODY for p,q in zip(x,y))
    print(f, len(x), len(y), 'SAME' if same else ('CTL' if body else 'BODY'))
    if verbose and not same:
        for p,q in zip(x,y):
            mark = '  ' if p[3]==q[3] else '**'
            print('   %s %04x %-50s %s | %s' % (mark, p[0], p[1][:50], fmt(p[3]), fmt(q[3]) if p[2]==q[2] and p[3]&BODY==q[3]&BODY else 'BODY '+q[1]))
