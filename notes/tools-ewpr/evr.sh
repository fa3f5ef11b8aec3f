#!/bin/bash
# evr.sh ARCH TAG: in the cwd, elfw -r of each X.o vs nvlink's X.r.cubin -> X.e-TAG.cubin; prints "X VERDICT first-diff"
E=${E:-/work/target-ewpr/debug/elfw}
for o in *.o; do b=${o%.o}; [ -f $b.r.cubin ] || continue
  $E -arch=$1 -r $o -o $b.e-$2.cubin 2>/dev/null; v=$($E cmp $b.r.cubin $b.e-$2.cubin 2>&1| head -2 | tr '\n' ' ' | cut -c1-300); echo "$b $v"; done
