#!/bin/bash
# Scoreboard from run.sh's results.txt ($RESULTS): one verdict per program x arch (the worst of its link steps), and per link step.
RESULTS=${RESULTS:-target/fresh/results.txt}
rank() { case $1 in elfw-crash) echo 9;; refusal-mismatch) echo 8;; cmp-error) echo 7;; DIFFERENT*) echo 6;; EQUIVALENT*) echo 5;; *msgdiff) echo 4;; refusal-match) echo 2;; EQUAL) echo 1;; IDENTICAL) echo 0;; *) echo -1;; esac; }
ARCHS="sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120"
for mode in program step; do
  echo "== per $mode"
  declare -A C=(); V=()
  while read p a v; do
    if [ "$v" = skip ] || [ "$v" = nvcc-reject ]; then C[$a,$v]=$((${C[$a,$v]:-0}+1)); continue; fi
    IFS=, read -ra s <<< "$v"
    if [ $mode = program ]; then w=""; wr=-2; for x in "${s[@]}"; do r=$(rank $x); [ $r -gt $wr ] && { wr=$r; w=$x; }; done; s=("$w"); fi
    for x in "${s[@]}"; do C[$a,$x]=$((${C[$a,$x]:-0}+1)); done
  done < "$RESULTS"
  verdicts=$(for k in "${!C[@]}"; do echo ${k#*,}; done | sort -u)
  printf "%-22s" verdict; for a in $ARCHS; do printf "%7s" $a; done; printf "%7s\n" total
  for v in $verdicts; do printf "%-22s" $v; t=0; for a in $ARCHS; do n=${C[$a,$v]:-0}; t=$((t+n)); printf "%7s" $n; done; printf "%7s\n" $t; done
  unset C
done
