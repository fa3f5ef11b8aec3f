import sys, collections, os
C='/work/lead/tests/corpus'
groups=[('sm_75',['sm_75']),('sm_80',['sm_80']),('sm_86-89',['sm_86','sm_87','sm_88','sm_89']),('sm_90/90a',['sm_90','sm_90a']),('sm_100 group',['sm_100','sm_100a','sm_100f','sm_103','sm_103a','sm_103f']),('sm_110',['sm_110','sm_110a','sm_110f']),('sm_120 group',['sm_120','sm_120a','sm_120f','sm_121','sm_121a'])]
tab=collections.defaultdict(collections.Counter); per=collections.defaultdict(collections.Counter)
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)<2 or p[0].startswith('pass='): continue
    name=p[0]; v=p[1] if p[1]!='FAIL:' else p[2]
    t=open(os.path.join(C,name,'target')).read().strip()
    per[t][v]+=1
    for g,ts in groups:
        if t in ts: tab[g][v]+=1; break
    else: tab['other:'+t][v]+=1
tot=collections.Counter()
for g,_ in groups+[(k,None) for k in tab if k.startswith('other')]:
    c=tab[g]; tot+=c
    print(f"{g:14} {sum(c.values()):4} " + ' '.join(f"{k}={v}" for k,v in sorted(c.items())))
print(f"{'all':14} {sum(tot.values()):4} " + ' '.join(f"{k}={v}" for k,v in sorted(tot.items())))
for t in sorted(per): print('  ',t, dict(per[t]))
