#!/usr/bin/env bash
# Fresh CUDA programs, tried as a new user would: each is compiled with `nvcc -dc` for every
# target and linked twice per link step, by nvlink and by elfw (run as `nvlink` so that the
# messages can be compared byte for byte), then the images are compared with `elfw cmp`.
#
# usage: tests/fresh/run.sh [-f] [prog ...]     (-f: recompile even when the sources did not change)
#   ARCHS="sm_80 sm_90" limits the targets (default: sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120)
#   ELFW_FRESH_WORK sets the work folder (default: target/fresh)
#   FRESH_NVCC_FLAGS adds nvcc flags to every build (e.g. -lineinfo, -G) and FRESH_LINK_FLAGS
#   nvlink flags to every link step (e.g. -g, as nvcc -G links): use another work folder
# Needs the toolchain (`cargo xtask toolchain`); builds elfw in release first. Writes
# <work>/results.txt (one line per program and target: the verdict of each link step) and
# prints the scoreboard (tests/fresh/scoreboard.sh). Verdicts: IDENTICAL/EQUAL/EQUIVALENT/
# DIFFERENT (the image under `elfw cmp`, `+msgdiff` when stdout/stderr differ), refusal-match
# (both refused with the same status and messages), refusal-mismatch, elfw-crash, skip.
# DIFFERENT:ctl: the images differ only in instruction control words (ctlmask.py; sm_100+
# finalizer scoreboard re-allocation).
#
# Each progs/<name>/spec (bash) defines ARCHS_OK (optional list of targets), build() (compiles
# into the current folder; $NVCC and $A are set) and links() (prints one nvlink command line
# per step, without the tool name; later steps may use earlier steps' -o outputs, taken from
# nvlink's run so that each step is judged on its own).
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FRESH=$REPO/tests/fresh
WORK=${ELFW_FRESH_WORK:-$REPO/target/fresh}
BIN=$(cd "$REPO" && cargo xtask toolchain) || { echo "no toolchain" >&2; exit 1; }
T=$(dirname "$BIN")
(cd "$REPO" && cargo build -q --release -p elfw-cli) || exit 1
ELFW=${CARGO_TARGET_DIR:-$REPO/target}/release/elfw
NVLINK=$BIN/nvlink
mkdir -p "$WORK/bin"
ln -sf "$ELFW" "$WORK/bin/nvlink"
ELFW_AS_NVLINK=$WORK/bin/nvlink
export PATH=$BIN:$PATH LC_ALL=C TZ=UTC
NVCC="nvcc -I$T/include -I$T/include/cccl ${FRESH_NVCC_FLAGS:-}"
ALL_ARCHS=${ARCHS:-"sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120"}
FORCE=0; [ "${1:-}" = -f ] && { FORCE=1; shift; }
PROGS=("$@"); [ ${#PROGS[@]} = 0 ] && PROGS=($(ls "$FRESH/progs"))
cd "$WORK"
: > results.new
for p in "${PROGS[@]}"; do
  for A in $ALL_ARCHS; do
    (
    ARCHS_OK=""; unset -f build links
    source "$FRESH/progs/$p/spec"
    if [ -n "$ARCHS_OK" ] && ! [[ " $ARCHS_OK " == *" $A "* ]]; then echo "$p $A skip"; exit; fi
    W=$WORK/build/$p/$A
    stamp=$(cat "$FRESH/progs/$p"/* | md5sum | cut -c1-16)
    if [ $FORCE = 1 ] || [ "$(cat "$W/.stamp" 2>/dev/null)" != "$stamp" ]; then
      rm -rf "$W"; mkdir -p "$W"; cp "$FRESH/progs/$p"/* "$W/"
      ( cd "$W" && set -e && build ) > "$W/build.log" 2>&1 || { echo "$p $A nvcc-reject"; exit; }
      echo "$stamp" > "$W/.stamp"
    fi
    cd "$W"; rm -rf ref elfw; mkdir ref elfw
    verdict=""; n=0
    while IFS= read -r line; do
      [ -z "$line" ] && continue
      n=$((n+1)); args=(${FRESH_LINK_FLAGS:-} $line); out=""
      for ((i=0;i<${#args[@]};i++)); do [ "${args[i]}" = -o ] && out=${args[i+1]}; done
      for tool in ref elfw; do
        cp ref/*.cubin . 2>/dev/null
        bin=$NVLINK; [ $tool = elfw ] && bin=$ELFW_AS_NVLINK
        rm -f "$out"
        timeout 300 "$bin" "${args[@]}" > $tool/step$n.stdout 2> $tool/step$n.stderr; echo $? > $tool/step$n.status
        [ -n "$out" ] && [ -f "$out" ] && mv "$out" "$tool/$out"
      done
      rs=$(cat ref/step$n.status); es=$(cat elfw/step$n.status)
      if { [ "$es" -ge 124 ] && [ "$es" != 255 ]; } || grep -q "panicked" elfw/step$n.stderr; then v=elfw-crash
      elif [ "$rs" != 0 ]; then
        if [ "$rs" = "$es" ] && cmp -s ref/step$n.stderr elfw/step$n.stderr && cmp -s ref/step$n.stdout elfw/step$n.stdout; then v=refusal-match; else v=refusal-mismatch; fi
      elif [ "$es" != 0 ]; then v=refusal-mismatch
      else
        "$ELFW" cmp "ref/$out" "elfw/$out" > cmp$n.txt 2>&1
        v=$(head -c 200 cmp$n.txt | head -1 | awk '{print $1}')
        case "$v" in IDENTICAL|EQUAL|EQUIVALENT|DIFFERENT) ;; *) v="cmp-error";; esac
        # DIFFERENT:ctl: the images are the same once every instruction's control word is cleared
        # (sm_100+: nvlink's finalizer re-allocates scoreboards)
        if [ "$v" = DIFFERENT ] && python3 "$FRESH/ctlmask.py" "ref/$out" ref/masked.ctl 2>/dev/null &&
          python3 "$FRESH/ctlmask.py" "elfw/$out" elfw/masked.ctl 2>/dev/null; then
          "$ELFW" cmp ref/masked.ctl elfw/masked.ctl > cmp$n.masked.txt 2>&1
          case "$(head -1 cmp$n.masked.txt | awk '{print $1}')" in IDENTICAL|EQUAL|EQUIVALENT) v=DIFFERENT:ctl;; esac
        fi
        if ! cmp -s ref/step$n.stderr elfw/step$n.stderr || ! cmp -s ref/step$n.stdout elfw/step$n.stdout; then v="$v+msgdiff"; fi
      fi
      verdict="$verdict${verdict:+,}$v"
    done < <(links)
    echo "$p $A $verdict"
    )
  done
done | tee -a results.new
if [ ${#@} = 0 ]; then mv results.new results.txt; else
  touch results.txt
  awk 'NR==FNR{k[$1" "$2]=$0;next} ($1" "$2) in k{print k[$1" "$2]; delete k[$1" "$2]; next} {print} END{for(x in k) print k[x]}' results.new results.txt > results.tmp && mv results.tmp results.txt && rm results.new
fi
RESULTS=$WORK/results.txt bash "$FRESH/scoreboard.sh"
