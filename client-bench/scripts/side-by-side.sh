#!/usr/bin/env bash
# Two running LDAP servers measured side by side in one sitting: each mix runs against A, then B,
# then A, then B (ROUNDS pairs), with the same harness, data and load, and the servers' resident
# anonymous memory (RssAnon) is sampled every second throughout.
#
#   client-bench/scripts/side-by-side.sh DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [MIX...]
#   ... d1m.ldif /tmp/sbs slapd:3890:"$(cat /tmp/yard/slapd.pid)":/tmp/yard larch:3891:"$(cat /tmp/lyard/larch.pid)":/tmp/lyard
#
# DIR is where slapd-yardstick.sh or larch-yardstick.sh recorded how it set its server up: its
# settings.txt and configuration files are copied to OUT/NAME-settings/, and both sides' settings are
# printed and written to OUT/settings.txt with the harness's load, so that a reader can check the
# comparison. Two sides that log differently (one LOGGING=off, the other file) are refused.
# MIX defaults to messaging addressing modify mixed churn; modify and mixed bind as BIND_DN with
# BIND_PASSWORD (cn=admin,dc=example,dc=com and secret: the yardstick's and the README's). Environment:
# ROUNDS (2), CLIENTS (2), THREADS (4), WARMUP (10), DURATION (30), BENCH_OPTS (more harness options).
# SERVER_CPUS (a taskset CPU list, e.g. 0 or 0-3): both servers, every thread, run on those CPUs only
# and the harness on all the others, so that the load does not take the servers' cores
# (core-scaling.sh sweeps it); each server gets its own affinity back when the script ends.
# Each run's results go to OUT/MIX-NAME-ROUND/ (the harness's JSON, CSV and HTML); OUT/summary.txt gets
# one line per mix: the median ops/s and p99 of each side, and B's throughput over A's.
set -euo pipefail
usage() { echo "usage: $0 DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [MIX...]" >&2; exit 2; }
[ $# -ge 4 ] || usage
data=$1; out=$2; a=$3; b=$4; shift 4
mixes=("$@")
[ ${#mixes[@]} -gt 0 ] || mixes=(messaging addressing modify mixed churn)
[ -r "$data" ] || { echo "cannot read $data" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${ROUNDS:-2}
bind_dn=${BIND_DN:-cn=admin,dc=example,dc=com}; bind_password=${BIND_PASSWORD:-secret}

# shellcheck source=sides-lib.sh
source "$(dirname "$0")/sides-lib.sh"
parse_sides "$a" "$b"
pin=()
placement="no CPU pinning"
if [ -n "${SERVER_CPUS:-}" ]; then
  load_cpus=$(cpus_left_for_load "$SERVER_CPUS")
  pin_servers "$SERVER_CPUS" "$pid_a" "$pid_b"
  pin=(taskset -c "$load_cpus")
  placement="servers pinned to CPUs $SERVER_CPUS, the harness to CPUs $load_cpus"
fi
mkdir -p "$out"
record_settings "./larch bench, ${CLIENTS:-2} clients x ${THREADS:-4} threads, warm-up ${WARMUP:-10} s,\
 ${DURATION:-30} s a run, $rounds round(s) of each mix alternated; $(nproc) cores, $placement; ${BENCH_OPTS:-}"

sample_rss() { # PID NAME: one line a second, "epoch name KiB", until the process is gone
  while kill -0 "$1" 2>/dev/null; do
    echo "$(date +%s) $2 $(awk '/^RssAnon/ {print $2}' "/proc/$1/status" 2>/dev/null)" >> "$out/rss.txt"
    sleep 1
  done
}
sample_rss "$pid_a" "$name_a" & sampler_a=$!
sample_rss "$pid_b" "$name_b" & sampler_b=$!
trap 'kill $sampler_a $sampler_b 2>/dev/null || true; unpin_servers' EXIT

for mix in "${mixes[@]}"; do
  bind=()
  case $mix in modify | mixed) bind=(--bind-dn "$bind_dn" --bind-password "$bind_password") ;; esac
  mix_start=$(date +%s)
  for round in $(seq 1 "$rounds"); do
    for s in a b; do
      if [ $s = a ]; then name=$name_a port=$port_a pid=$pid_a; else name=$name_b port=$port_b pid=$pid_b; fi
      run="$out/$mix-$name-$round"
      echo "$(date +%s) $mix $name $round start" >> "$out/marks.txt"
      # shellcheck disable=SC2086
      "${pin[@]}" "$here/larch" bench --mix "$mix" --port "$port" --clients "${CLIENTS:-2}" --threads "${THREADS:-4}" \
        --warmup "${WARMUP:-10}" --duration "${DURATION:-30}" --runs 1 --data "$data" --out "$run" \
        --server-pid "$pid" "${bind[@]}" ${BENCH_OPTS:-} > "$run.log" 2>&1 \
        || { echo "$mix against $name failed; see $run.log" >&2; exit 1; }
      echo "$(date +%s) $mix $name $round end" >> "$out/marks.txt"
    done
  done
  # "summary (run 1): 10027.2 ops/s, p50 0.599 ms, p99 3.785 ms, ..."
  logs() { for round in $(seq 1 "$rounds"); do echo "$out/$mix-$1-$round.log"; done; } # this call's runs only
  ops() { logs "$1" | xargs -d '\n' awk '/^summary/ {for (i = 1; i < NF; i++) if ($(i + 1) == "ops/s,") print $i}' | median; }
  p99() { logs "$1" | xargs -d '\n' awk '/^summary/ {for (i = 1; i < NF; i++) if ($i == "p99") print $(i + 1)}' | median; }
  rss() { awk -v n="$1" -v from="$mix_start" -v to="$(date +%s)" \
    '$2 == n && $1 >= from && $1 <= to && $3 > max {max = $3} END {printf "%.0f", max / 1024}' "$out/rss.txt"; }
  ops_a=$(ops "$name_a"); ops_b=$(ops "$name_b")
  printf '%-10s %s %9.1f ops/s p99 %6.3f ms RssAnon<=%5s MiB | %s %9.1f ops/s p99 %6.3f ms RssAnon<=%5s MiB | %s/%s %.2f\n' \
    "$mix" "$name_a" "$ops_a" "$(p99 "$name_a")" "$(rss "$name_a")" "$name_b" "$ops_b" "$(p99 "$name_b")" \
    "$(rss "$name_b")" "$name_b" "$name_a" "$(awk -v a="$ops_a" -v b="$ops_b" 'BEGIN {print b / a}')" | tee -a "$out/summary.txt"
done
