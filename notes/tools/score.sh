#!/bin/bash
# Usage: SC=/tmp/sc-x CORPUS=.../tests/corpus ELFW=/path/elfw score.sh ['glob ...']
# Runs each corpus case with elfw (as "nvlink"), compares image (elfw cmp) and status/stdout/stderr.
# Prints "case verdict detail"; last line pass=N fail=M. Pass = IDENTICAL/EQUAL/MATCH.
SC=${SC:-/tmp/sc}; CORPUS=${CORPUS:-/work/lead/tests/corpus}; ELFW=${ELFW:?}
GLOB=${1:-*}
rm -rf "$SC"; mkdir -p "$SC/bin" "$SC/w"; cp "$ELFW" "$SC/bin/nvlink"; cp "$ELFW" "$SC/bin/elfw"
mkdir -p "$SC/w/_toolkit"; ln -s "$CORPUS/_toolkit/lib" "$SC/w/_toolkit/lib"; ln -s /root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13/nvvm "$SC/w/_toolkit/nvvm"
pass=0; fail=0
cd "$CORPUS"
for c in $GLOB; do
  [ -d "$CORPUS/$c" ] || continue; case $c in _*) continue;; esac
  w="$SC/w/$c"; cp -r "$CORPUS/$c" "$w"; rm -f "$w"/expected.cubin "$w"/nvlink.std* "$w"/nvlink.status
  mapfile -t A < "$CORPUS/$c/args"
  ( cd "$w" && timeout 300 "$SC/bin/nvlink" "${A[@]}" > "$w/.out" 2> "$w/.err"; echo $? > "$w/.st" )
  st=$(cat "$w/.st"); est=$(cat "$CORPUS/$c/nvlink.status" | tr -d ' \n')
  o=""; prev=""
  for ((i=0;i<${#A[@]};i++)); do a=${A[$i]}; if [ "$prev" = "-o" ] || [ "$prev" = "--output-file" ] || [ "$prev" = "-output-file" ]; then o=$a; fi; case $a in -o=*) o=${a#-o=};; --output-file=*) o=${a#--output-file=};; esac; prev=$a; done
  msg=same
  [ "$st" = "$est" ] || msg="status $est/$st"
  if [ "$msg" = same ]; then
    cmp -s <(sed 's/^\(ptxas info    : Compile time = \).*/\1/' "$CORPUS/$c/nvlink.stderr") <(sed 's/^\(ptxas info    : Compile time = \).*/\1/' "$w/.err") || msg="stderr: $(diff <(cat "$CORPUS/$c/nvlink.stderr") "$w/.err" | sed -n 2p)"
  fi
  if [ "$msg" = same ]; then
    cmp -s <(sed 's/^\(ptxas info    : Compile time = \).*/\1/' "$CORPUS/$c/nvlink.stdout") <(sed 's/^\(ptxas info    : Compile time = \).*/\1/' "$w/.out") || msg="stdout: $(diff "$CORPUS/$c/nvlink.stdout" "$w/.out" | sed -n 2p)"
  fi
  if [ -f "$CORPUS/$c/expected.cubin" ]; then
    if [ -n "$o" ] && [ -f "$w/$o" ]; then v=$("$SC/bin/elfw" cmp "$CORPUS/$c/expected.cubin" "$w/$o" 2>&1 | head -3 | tr '\n' ' '); else v="FAILED no image"; fi
  else
    if [ -n "$o" ] && [ -f "$w/$o" ] && [ "$est" != 0 ]; then v="MISMATCH image"; else v=MATCH; fi
  fi
  ok=0
  case "$v" in IDENTICAL*|EQUAL*|MATCH*) [ "$msg" = same ] && ok=1;; esac
  if [ $ok = 1 ]; then pass=$((pass+1)); echo "$c ${v%% *}"; rm -rf "$w"; else fail=$((fail+1)); echo "$c FAIL: $v | $msg"; fi
done
echo "pass=$pass fail=$fail"
