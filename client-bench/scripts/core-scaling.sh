#!/usr/bin/env bash
# Processor scaling, two running servers side by side: for N = 1 up to all CPUs but one, both servers
# are pinned to CPUs 0..N-1 and the harness to the rest (side-by-side.sh with SERVER_CPUS), the mix runs
# against A, then B, ROUNDS times, and OUT/scaling.txt gets one line per N: each side's median ops/s,
# its ops/s per server core, and B over A. The load needs CPUs of its own, so a machine with C CPUs
# measures up to C-1 server cores (on 2 CPUs, 1 core against 1 core); docs/benchmarks.md says what
# the design gives beyond.
#
#   client-bench/scripts/core-scaling.sh DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [MIX]
#
# MIX is messaging by default. CORES (e.g. "1 2 4") picks the server core counts to try instead of all.
# ROUNDS, CLIENTS, THREADS, WARMUP, DURATION and BENCH_OPTS are side-by-side.sh's; each count's runs
# and settings stay in OUT/cores-N/.
set -euo pipefail
[ $# -ge 4 ] && [ $# -le 5 ] || { echo "usage: $0 DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [MIX]" >&2; exit 2; }
data=$1; out=$2; a=$3; b=$4; mix=${5:-messaging}
here=$(dirname "$0")
# shellcheck source=sides-lib.sh
source "$here/sides-lib.sh"
cpus=$(expand_cpus "$(cat /sys/devices/system/cpu/online)" | wc -l)
[ "$cpus" -ge 2 ] || { echo "core scaling needs at least 2 CPUs: one for the servers, one for the load" >&2; exit 2; }
counts=${CORES:-$(seq 1 $((cpus - 1)) | paste -sd' ' -)}
for n in $counts; do
  [[ "$n" =~ ^[1-9][0-9]*$ && "$n" -lt "$cpus" ]] \
    || { echo "CORES: $n is not a count of server cores from 1 to $((cpus - 1)) on this machine" >&2; exit 2; }
done
mkdir -p "$out"
: > "$out/scaling.txt"
for n in $counts; do
  list=0; [ "$n" -eq 1 ] || list="0-$((n - 1))"
  SERVER_CPUS=$list "$here/side-by-side.sh" "$data" "$out/cores-$n" "$a" "$b" "$mix" > "$out/cores-$n.log" 2>&1 \
    || { cat "$out/cores-$n.log" >&2; echo "the run on $n server core(s) failed" >&2; exit 1; }
  # "messaging  one     123.4 ops/s p99 ... | two     234.5 ops/s p99 ... | two/one 1.90"
  awk -v n="$n" '{
      for (i = 1; i <= NF; i++) if ($(i + 1) == "ops/s") { ops[++k] = $i; name[k] = $(i - 1) }
      printf "cores %3d  %s %10.1f ops/s %9.1f per core | %s %10.1f ops/s %9.1f per core | %s %s\n",
        n, name[1], ops[1], ops[1] / n, name[2], ops[2], ops[2] / n, $(NF - 1), $NF
    }' "$out/cores-$n/summary.txt" | tee -a "$out/scaling.txt"
done
