import sys, pickle; sys.path.insert(0, '/work/sm103-data/tools')
from sass import *
data = pickle.load(open('data.pkl','rb'))
for (o, fn, x, y) in data:
    if sys.argv[1] in o and fn == sys.argv[2]:
        for p,q in zip(x,y):
            if p[1].startswith('NOP') and p[3]>>41==0: continue
            print('%s %04x %-55s %s | %s' % ('**' if p[3]>>41 != q[3]>>41 else '  ', p[0], p[1][:55], fmt(p[3]), fmt(q[3])))
        break
