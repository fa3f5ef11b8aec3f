#!/bin/bash
# evf.sh ARCH TAG: final link of nvlink's X.r.cubin by nvlink (X.f.cubin, made once) and elfw (X.fe-TAG.cubin)
export PATH=/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13/bin:$PATH
E=${E:-/work/target-ewpr/debug/elfw}
for r in *.r.cubin; do b=${r%.r.cubin}
  [ -f $b.f.cubin ] || [ -f $b.f.refused ] || { nvlink -arch=$1 $r -o $b.f.cubin >/dev/null 2>$b.f.err || { rm -f $b.f.cubin; touch $b.f.refused; }; }
  [ -f $b.f.cubin ] || continue
  $E -arch=$1 $r -o $b.fe-$2.cubin 2>/dev/null; v=$($E cmp $b.f.cubin $b.fe-$2.cubin 2>&1| head -2 | tr '\n' ' ' | cut -c1-300); echo "$b $v"; done
