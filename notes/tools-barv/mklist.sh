#!/bin/bash
# Builds an m1eval list from corpus sm100_*/sm120_* cases: runs elfw-ens (no rescore) per case.
CORPUS=${CORPUS:-/work/barv/tests/corpus}; OUT=/work/barv-tools/ens; ENS=/work/barv-tools/elfw-ens
mkdir -p $OUT; : > /work/barv-tools/corpus.lst
cd $CORPUS
for c in sm100* sm120*; do
  [ -f $c/expected.cubin ] || continue
  w=$OUT/$c; rm -rf $w; cp -r $c $w; rm -f $w/expected.cubin
  mapfile -t A < $c/args
  o=""; prev=""; for a in "${A[@]}"; do [ "$prev" = -o ] && o=$a; case $a in -o=*) o=${a#-o=};; esac; prev=$a; done
  (cd $w && timeout 120 $ENS "${A[@]}" >/dev/null 2>&1)
  [ -f "$w/$o" ] || continue
  g=""; if grep -qE '(^| )-g( |$)|(^| )-G( |$)' $c/recipe $c/args 2>/dev/null; then g=g; fi
  echo "$c $CORPUS/$c/expected.cubin $w/$o $g" >> /work/barv-tools/corpus.lst
done
wc -l /work/barv-tools/corpus.lst
