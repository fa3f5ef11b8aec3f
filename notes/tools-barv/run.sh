#!/bin/bash
# run.sh name arch : compiles name.cu, links with nvlink and elfw-ens, m1eval dump of every kernel
T=/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13; export PATH=$T/bin:$PATH
n=$1; a=${2:-sm_100}; d=/work/barv-exp/$n-$a; mkdir -p $d; cd $d
nvcc -I$T/include -dc -arch=$a ../$n.cu -o k.o || exit 1
nvlink -arch=$a k.o -o ref.cubin || exit 1
/work/barv-tools/elfw-ens -arch=$a k.o -o ens.cubin || exit 1
echo "$n-$a $d/ref.cubin $d/ens.cubin" > l.lst
DUMP=${DUMP:-.text} /work/target-barv/debug/examples/m1eval l.lst
