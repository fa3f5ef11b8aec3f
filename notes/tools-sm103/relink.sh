#!/bin/bash
# relink each sm_100 object for sm_103 with nvlink -r; out dir rl/
T=/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13
mkdir -p rl
i=0
while read o; do
  i=$((i+1)); n=$(echo $o | sed 's|/work/fresh-m1sb/||; s|/|__|g')
  cp $o rl/$n.100.o
  nice $T/bin/nvlink -r -arch=sm_103 $o -o rl/$n.103.o 2> rl/$n.err || echo "FAIL $o"
done < objs.txt
