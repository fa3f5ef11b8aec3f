#!/usr/bin/env python3
"""Variant sweep: for each corpus case, rewrite its link line (MODE) and run nvlink and elfw on it.
usage: sweep.py MODE ELFW case... ; MODE in g (add -g), dup (first input twice), rev (inputs reversed),
r (relocatable -r), v (-v), cg (--dump-callgraph), pr (--preserve-relocs),
rf (nvlink's -r of the inputs, then the final link of that image with both linkers). Prints: case verdict detail. Needs PATH with nvlink."""
import os, sys, subprocess, shutil, tempfile
mode, elfw, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
corpus = os.environ.get('CORPUS', '/work/lead/tests/corpus')
T = '/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13'
base = tempfile.mkdtemp(prefix='sweep-')
os.makedirs(base + '/bin'); shutil.copy(elfw, base + '/bin/nvlink')
os.makedirs(base + '/_toolkit'); os.symlink(corpus + '/_toolkit/lib', base + '/_toolkit/lib'); os.symlink(T + '/nvvm', base + '/_toolkit/nvvm')
INPUT = ('.o', '.cubin', '.a', '.fatbin', '.ptx', '.ltoir', '.obj', '.lib')
VAL = {'-o', '--output-file', '-output-file', '-arch', '-L', '-l', '-m', '--kernels-used', '-kernels-used', '-Xptxas', '-Xnvvm', '-maxrregcount', '--register-link-binaries', '-register-link-binaries', '-nvvmpath'}
def variant(args):
    a = list(args)
    if mode == 'g': return a + ['-g']
    if mode == 'v': return a + ['-v']
    if mode == 'cg': return a + ['--dump-callgraph']
    if mode == 'pr': return a + ['--preserve-relocs'] if '--preserve-relocs' not in a else None
    if mode == 'r': return a + ['-r'] if '-r' not in a else None
    idx = []
    i = 0
    while i < len(a):
        x = a[i]
        if x in VAL: i += 2; continue
        if not x.startswith('-') and x.lower().endswith(INPUT): idx.append(i)
        i += 1
    if not idx: return None
    if mode == 'rf':
        first = idx[0]
        final = [x for k, x in enumerate(a) if k not in idx]
        final.insert(first - sum(1 for k in idx if k < first), 'rf_part.cubin')
        return final
    if mode == 'dup': return a[:idx[0]+1] + [a[idx[0]]] + a[idx[0]+1:]
    if mode == 'rev':
        if len(idx) < 2: return None
        vals = [a[k] for k in idx][::-1]
        for k, v in zip(idx, vals): a[k] = v
        return a
    raise SystemExit('mode?')
def outname(a):
    for i, x in enumerate(a):
        if x in ('-o', '--output-file', '-output-file') and i + 1 < len(a): return a[i+1]
        if x.startswith('-o='): return x[3:]
    return None
for c in cases:
    src = os.path.join(corpus, c)
    args = open(src + '/args').read().split('\n')
    args = [x for x in args if x != '']
    v = variant(args)
    if v is None: print(c, 'n/a'); continue
    res = {}
    for who, exe in (('nv', os.path.join(T, 'bin/nvlink')), ('el', base + '/bin/nvlink')):
        w = os.path.join(base, c + '.' + who)
        shutil.copytree(src, w, symlinks=True)
        for f in ('expected.cubin', 'nvlink.stdout', 'nvlink.stderr', 'nvlink.status'):
            if os.path.exists(os.path.join(w, f)): os.remove(os.path.join(w, f))
        env = dict(os.environ, PATH=os.path.join(T, 'bin') + ':' + os.environ['PATH'])
        if mode == 'rf':
            ra = list(args)
            o = outname(ra)
            ra = [('rf_part.cubin' if x == o else x) for x in ra]
            if '-r' not in ra: ra.append('-r')
            pr = subprocess.run([os.path.join(T, 'bin/nvlink')] + ra, cwd=w, capture_output=True, env=env, timeout=600)
            if pr.returncode != 0 or not os.path.exists(os.path.join(w, 'rf_part.cubin')):
                res = None; break
        p = subprocess.run([exe] + v, cwd=w, capture_output=True, env=env, timeout=600)
        o = outname(v)
        img = os.path.join(w, o) if o and os.path.exists(os.path.join(w, o)) else None
        res[who] = (p.returncode, p.stdout, p.stderr, img)
    if res is None: print(c, 'n/a (-r refused)', flush=True); continue
    nv, el = res['nv'], res['el']
    msg = 'same'
    if nv[0] != el[0]: msg = f'status {nv[0]}/{el[0]}'
    elif nv[2] != el[2]: msg = 'stderr'
    elif nv[1] != el[1] and mode not in ('v',): msg = 'stdout'
    elif nv[1] != el[1]:
        strip = lambda b: b'\n'.join(l for l in b.split(b'\n') if not l.startswith(b'ptxas info    : Compile time'))
        if strip(nv[1]) != strip(el[1]): msg = 'stdout'
    if nv[3] and el[3]:
        r = subprocess.run([base + '/bin/nvlink', 'cmp', nv[3], el[3]], capture_output=True, text=True)
        verdict = r.stdout.strip().split('\n')[0] if r.stdout else r.stderr.strip()
        detail = ' '.join(r.stdout.strip().split('\n')[1:3])
    elif nv[3] or el[3]:
        verdict, detail = 'IMAGE-MISMATCH', f'nvlink image {bool(nv[3])} elfw image {bool(el[3])}'
    else:
        verdict, detail = 'MATCH', ''
    ok = verdict.split()[0] in ('IDENTICAL', 'EQUAL', 'MATCH') and msg == 'same'
    print(c, 'ok' if ok else 'DIFF', verdict, msg, detail[:200] if not ok else '', flush=True)
    if ok:
        shutil.rmtree(os.path.join(base, c + '.nv')); shutil.rmtree(os.path.join(base, c + '.el'))
print('work:', base)
