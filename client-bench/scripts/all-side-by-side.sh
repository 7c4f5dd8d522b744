#!/usr/bin/env bash
# Every side-by-side comparison of docs/benchmarks.md in one sitting, unattended, gathered into one
# table: the bulk loads (import-side-by-side.sh); then, for each logging mode in turn, slapd and Larch
# started on the stores those loads left (slapd-yardstick.sh and larch-yardstick.sh with KEEP_DATA=1),
# and at each connection count the harness's mixes (side-by-side.sh) and UnboundID's tools
# (unboundid-crosscheck.sh); then, logging off, the paged search of the whole tree
# (paged-side-by-side.sh) and the modify DNs (rename-side-by-side.sh). Each comparison alternates
# the two servers as its own script does, and records both servers' settings beside its figures.
#
#   client-bench/scripts/all-side-by-side.sh DATA.ldif OUT
#
# Environment:
#   LOGGINGS       the logging modes, in order (off file): both servers log the same way in each.
#   CONNECTIONS    connection counts (8 64). The harness runs N as 2 clients x N/2 threads, or as 8
#                  clients x N/8 threads from 64 on; UnboundID's tools as N connections.
#   MIXES          the harness's mixes (messaging addressing modify mixed churn).
#   TOOLS          UnboundID's tools (searchrate modrate authrate onelevel).
#   IMPORT_ROUNDS  loads of each side (2); the stores of the last are the ones served.
#   SLAPD_THREADS  slapd's threads (2, its best on a 2-core machine; sweep to sweep them again).
#   SLAPD_PORT, LARCH_PORT  the loopback ports the servers listen on (3890, 3891).
# Each script's own settings pass through (ROUNDS, WARMUP, DURATION, PAGE, DESCENDANTS, ...).
# OUT/table.txt gathers every summary under a heading naming the comparison; each comparison's
# runs and settings stay in its own directory (OUT/import, OUT/LOGGING/mixes-N, OUT/LOGGING/tools-N,
# OUT/paged, OUT/renames). The servers are stopped at the end, or when a step fails. The stores stay
# in OUT/import/slapd and OUT/import/larch (delete them when done).
# Needs: apt-get install -y slapd ldap-utils time; a built Larch (./larch build).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 DATA.ldif OUT" >&2; exit 2; }
data=$1; out=$(mkdir -p "$2" && cd "$2" && pwd)
[ -r "$data" ] || { echo "cannot read $data" >&2; exit 2; }
scripts=$(cd "$(dirname "$0")" && pwd)
read -ra loggings <<< "${LOGGINGS:-off file}"
read -ra connections <<< "${CONNECTIONS:-8 64}"
read -ra mixes <<< "${MIXES:-messaging addressing modify mixed churn}"
read -ra tools <<< "${TOOLS:-searchrate modrate authrate onelevel}"
slapd_port=${SLAPD_PORT:-3890}; larch_port=${LARCH_PORT:-3891}
for l in "${loggings[@]}"; do
  case $l in off | file) ;; *) echo "LOGGINGS: $l is not off or file" >&2; exit 2 ;; esac
done
for n in "${connections[@]}"; do
  [[ "$n" =~ ^[1-9][0-9]*$ && $((n % 2)) = 0 ]] || { echo "CONNECTIONS: $n is not an even number" >&2; exit 2; }
  [ "$n" -lt 64 ] || [ $((n % 8)) = 0 ] || { echo "CONNECTIONS: $n (64 or more) is not a multiple of 8" >&2; exit 2; }
done
[ ${#loggings[@]} -gt 0 ] && [ ${#connections[@]} -gt 0 ] || { echo "LOGGINGS and CONNECTIONS may not be empty" >&2; exit 2; }

slapd_pid=""; larch_pid=""
stop_servers() {
  local pid
  for pid in $slapd_pid $larch_pid; do
    kill "$pid" 2> /dev/null || continue
    for _ in $(seq 1 120); do kill -0 "$pid" 2> /dev/null || break; sleep 0.5; done
  done
  slapd_pid=""; larch_pid=""
}
trap stop_servers EXIT

start_servers() { # LOGGING: both servers on the loaded stores, logging that way
  THREADS=${SLAPD_THREADS:-2} LOGGING=$1 KEEP_DATA=1 "$scripts/slapd-yardstick.sh" "$out/import/slapd" "$data" "$slapd_port" > "$out/$1/slapd-start.log"
  slapd_pid=$(cat "$out/import/slapd/slapd.pid")
  LOGGING=$1 KEEP_DATA=1 "$scripts/larch-yardstick.sh" "$out/import/larch" "$data" "$larch_port" > "$out/$1/larch-start.log"
  larch_pid=$(cat "$out/import/larch/larch.pid")
}
sides() { echo "slapd:$slapd_port:$slapd_pid:$out/import/slapd larch:$larch_port:$larch_pid:$out/import/larch"; }

table=$out/table.txt
: > "$table"
section() { # HEADING SUMMARY-FILE
  { echo "== $1"; cat "$2"; echo; } >> "$table"
}

echo "bulk loads" >&2
ROUNDS=${IMPORT_ROUNDS:-2} "$scripts/import-side-by-side.sh" "$data" "$out/import" > /dev/null
section "bulk load (import-side-by-side.sh)" "$out/import/summary.txt"

for logging in "${loggings[@]}"; do
  mkdir -p "$out/$logging"
  start_servers "$logging"
  for n in "${connections[@]}"; do
    if [ "$n" -ge 64 ]; then clients=8; else clients=2; fi
    if [ ${#mixes[@]} -gt 0 ]; then
      echo "logging $logging, $n connections: the harness's mixes" >&2
      # shellcheck disable=SC2046 # two sides, split on purpose
      CLIENTS=$clients THREADS=$((n / clients)) "$scripts/side-by-side.sh" "$data" "$out/$logging/mixes-$n" $(sides) "${mixes[@]}" > /dev/null
      section "logging $logging, $n connections ($clients clients x $((n / clients)) threads): the harness (side-by-side.sh)" "$out/$logging/mixes-$n/summary.txt"
    fi
    if [ ${#tools[@]} -gt 0 ]; then
      echo "logging $logging, $n connections: UnboundID's tools" >&2
      # shellcheck disable=SC2046
      CONNECTIONS=$n "$scripts/unboundid-crosscheck.sh" "$data" "$out/$logging/tools-$n" $(sides) "${tools[@]}" > /dev/null
      section "logging $logging, $n connections: UnboundID's tools (unboundid-crosscheck.sh)" "$out/$logging/tools-$n/summary.txt"
    fi
  done
  stop_servers
done

mkdir -p "$out/off"
start_servers off
echo "logging off: paged search and modify DN" >&2
# shellcheck disable=SC2046
"$scripts/paged-side-by-side.sh" "$out/paged" $(sides) > /dev/null
section "logging off: paged search of the whole tree (paged-side-by-side.sh)" "$out/paged/summary.txt"
# shellcheck disable=SC2046
"$scripts/rename-side-by-side.sh" "$out/renames" $(sides) > /dev/null
section "logging off: modify DN (rename-side-by-side.sh)" "$out/renames/summary.txt"
stop_servers
cat "$table"
