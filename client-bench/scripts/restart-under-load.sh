#!/usr/bin/env bash
# Restarts an LDAP server under load with a warm client, and compares its first 20 s after the port
# opens again with the steady state: `./larch bench --mix messaging` runs against the server; STOP_AT
# seconds into the measured phase the server gets SIGTERM, and once it has exited it is started again
# by the same command, on the same port and data; the harness reconnects by itself.
#
#   client-bench/scripts/restart-under-load.sh PORT DATA.ldif OUT [--page-cache FILE] -- COMMAND...
#
# COMMAND starts the server in the foreground (it is run twice; its PID is the one SIGTERM goes to):
#   ... 3891 d1m.ldif /tmp/r-larch --page-cache /tmp/larch1m/data.mdb -- \
#       ./larch serve --config bench.conf --data /tmp/larch1m --port 3891
#   ... 3890 d1m.ldif /tmp/r-slapd --page-cache /tmp/yard/db/data.mdb -- \
#       /usr/sbin/slapd -d 0 -s 0 -f /tmp/yard/slapd.conf -h ldap://127.0.0.1:3890/
# --page-cache FILE is read before each start, so the data is in the page cache as after a plain
# restart. Environment: LEAD (s between the first start and the load, 60), STOP_AT (90), DURATION (160),
# BENCH_OPTS (more harness options, e.g. the bind). Prints one line, also in OUT/summary.txt:
#   first 20 s / the 20 s before the stop, and first 20 s / the rest of the run after the restart.
set -euo pipefail
usage() { echo "usage: $0 PORT DATA.ldif OUT [--page-cache FILE] -- COMMAND..." >&2; exit 2; }
[ $# -ge 5 ] || usage
port=$1; data=$2; out=$3; shift 3
cache_file=""
if [ "$1" = --page-cache ]; then cache_file=$2; shift 2; fi
[ "${1:-}" = -- ] || usage
shift
[ $# -ge 1 ] || usage
[ -r "$data" ] || { echo "cannot read $data" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
lead=${LEAD:-60}; stop_at=${STOP_AT:-90}; duration=${DURATION:-160}
if [ "$stop_at" -lt 30 ] || [ "$duration" -lt $((stop_at + 60)) ]; then
  echo "STOP_AT must be at least 30 and DURATION at least STOP_AT + 60" >&2; exit 2
fi
mkdir -p "$out"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
server=""
start() { # the command; $start_no names its log
  [ -z "$cache_file" ] || cat "$cache_file" > /dev/null
  "$@" > "$out/server-$start_no.log" 2>&1 < /dev/null &
  server=$!
}
stop() { kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap stop EXIT

port_open && { echo "port $port is already in use" >&2; exit 2; }
start_no=1; start "$@"
until port_open; do
  kill -0 "$server" 2>/dev/null || { echo "the server exited; see $out/server-1.log" >&2; exit 1; }
  sleep 0.1
done
t0=$(( $(date +%s) + lead ))
# shellcheck disable=SC2086
"$here/larch" bench --mix messaging --port "$port" --clients 2 --threads 4 --warmup 0 --runs 1 \
  --duration "$duration" --interval 1 --data "$data" --out "$out/bench" --start-at "$t0" ${BENCH_OPTS:-} \
  > "$out/bench.log" 2>&1 &
bench=$!
while [ "$(date +%s)" -lt $((t0 + stop_at)) ]; do sleep 0.2; done
stop_t=$(date +%s.%N)
stop
start_no=2; start "$@"
until port_open; do
  kill -0 "$server" 2>/dev/null || { echo "the server exited; see $out/server-2.log" >&2; exit 1; }
  sleep 0.02
done
open_t=$(date +%s.%N)
wait "$bench" || { echo "the harness failed; see $out/bench.log" >&2; exit 1; }
# Intervals of run 1: "run 1 ... measure END_s ops/s RATE ..." covers [END - 1, END).
awk -v t0="$t0" -v stop="$stop_t" -v open="$open_t" '
  $1 == "run" && $2 == 1 && $4 == "measure" && $6 == "ops/s" {
    s = $5 + 0 - 1; r = $7 + 0
    first = int(open - t0) + ((open - t0) > int(open - t0) ? 1 : 0)
    if (s >= stop - t0 - 21 && s < stop - t0 - 1) { before += r; nb++ }
    if (s >= first && s < first + 20) { after += r; na++; seq = seq sprintf(" %.0f", r) }
    if (s >= first + 20) { rest += r; nr++ }
  }
  END {
    if (nb == 0 || na == 0 || nr == 0) { print "not enough intervals in the run" > "/dev/stderr"; exit 1 }
    printf "down %.1f s; before the stop %.0f ops/s (%d s); first 20 s after the port opened %.0f (%d s): %.3f;", \
      open - stop, before / nb, nb, after / na, na, (after / na) / (before / nb)
    printf " the rest after it %.0f (%d s): %.3f\n", rest / nr, nr, (after / na) / (rest / nr)
    printf "first 20 s, per second:%s\n", seq
  }' "$out/bench.log" | tee "$out/summary.txt"
