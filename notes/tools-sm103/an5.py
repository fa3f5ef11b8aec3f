import sys, pickle, collections; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
data = pickle.load(open('data.pkl','rb'))
c100 = collections.Counter(); c103 = collections.Counter(); ch = collections.Counter()
for (o, fn, x, y) in data:
    if len(x) != len(y): continue
    for p, q in zip(x, y):
        if p[1].startswith('NOP') or p[1].startswith('BRA 0x') and p[3]>>41 == 0: continue
        a, b = ctl(p[3]), ctl(q[3])
        c100[(a['st'], a['y'])] += 1; c103[(b['st'], b['y'])] += 1
        if (a['st'], a['y']) != (b['st'], b['y']): ch[((a['st'], a['y']), (b['st'], b['y']))] += 1
print('sm100 (st,y)', sorted(c100.items())); print('sm103 (st,y)', sorted(c103.items()))
print('changes', ch.most_common(25))
