#!/usr/bin/env bash
# Loads an LDIF into a private OpenLDAP slapd (back-mdb) and starts it on a loopback port, set up
# like the Larch that larch-yardstick.sh starts, so the two servers can be measured side by side:
# the same indexes (those of config/larch.conf, Larch's defaults), the same size limit, and logging
# the same way (LOGGING). Everything it set is recorded in DIR (settings.txt, slapd.conf).
#
#   client-bench/scripts/slapd-yardstick.sh DIR DATA.ldif PORT   # prints the slapd PID
#   kill "$(cat DIR/slapd.pid)"                                  # stop it
#
# Environment:
#   LOGGING     off (default): loglevel 0, -d 0 and -s 0, nothing logged per operation (as Larch with
#               logging.access-log = false); slapd runs in the foreground, detached from this script,
#               which on this machine serves faster than daemonized. file: slapd's stats log (one
#               line per connection event, request and result, as loglevel stats) written to
#               DIR/slapd-access.log (as Larch's access log to a file). slapd 2.5 has no logfile-only,
#               and its logfile directive copies each line to standard error as well, so slapd runs
#               with -d stats -s 0 (in the foreground, detached from this script) with its standard
#               error going to the file: one write per line, no syslog.
#   THREADS     slapd's threads (its primary pool; 16, slapd's default), or sweep: tries
#               SWEEP_THREADS (2 4 8 16) with the harness (SWEEP_MIX messaging, SWEEP_CLIENTS 2 x
#               SWEEP_CLIENT_THREADS 4, SWEEP_WARMUP 5 s, SWEEP_DURATION 10 s each) and keeps slapd's
#               best (DIR/sweep.txt has each count's figures).
#   SIZE_LIMIT  most entries one search returns (500, the default of both servers; 0 = unlimited).
#   LOAD_ONLY   1: load DATA and stop there, slapd not started (import-side-by-side.sh times loads
#               this way); DIR/load-time.txt gets slapadd's "wall-s user-s system-s max-RSS-KiB".
#   KEEP_DATA   1: start on the store an earlier run loaded into DIR, if there is one, instead of
#               loading DATA again (to switch LOGGING or THREADS without a reload; the store keeps
#               the changes of the write mixes run against it, and settings.txt says it was kept).
#
# Needs: apt-get install -y slapd (the system instance it starts is not used).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DIR DATA.ldif PORT" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd); ldif=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); port=$3
here=$(cd "$(dirname "$0")/../.." && pwd)
logging=${LOGGING:-off}; threads=${THREADS:-16}; size_limit=${SIZE_LIMIT:-500}
[ -x /usr/sbin/slapd ] || { echo "slapd is not installed (apt-get install -y slapd)" >&2; exit 2; }
[ -r "$2" ] || { echo "cannot read $2" >&2; exit 2; }
[[ "$port" =~ ^[0-9]+$ ]] || { echo "PORT must be a number: $port" >&2; exit 2; }
case $logging in off | file) ;; *) echo "LOGGING must be off or file: $logging" >&2; exit 2 ;; esac
[[ "$threads" =~ ^[0-9]+$ && "$threads" -ge 2 || "$threads" == sweep ]] \
  || { echo "THREADS must be 2 or more (slapd's minimum), or sweep: $threads" >&2; exit 2; }
[[ "$size_limit" =~ ^[0-9]+$ ]] || { echo "SIZE_LIMIT must be a number (0 = unlimited): $size_limit" >&2; exit 2; }
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "something already listens on 127.0.0.1:$port" >&2; exit 2; fi

# Larch's default indexes, from the generated default configuration: "index.uid = equality, substring"
# becomes "index uid eq,sub". memberOf is left out: slapd keeps no memberOf without the memberof
# overlay (and the mixes do not search it), so its schema has no such attribute to index.
indexes() {
  sed -n 's/^index\.\([A-Za-z0-9-]*\) *= *\(.*\)$/\1 \2/p' "$here/config/larch.conf" | while read -r attr kinds; do
    [ "$attr" != memberOf ] || continue
    kinds=$(echo "$kinds" | sed -e 's/ //g' -e 's/equality/eq/; s/substring/sub/; s/presence/pres/; s/ordering/eq/')
    [ -z "$kinds" ] || [ "$kinds" = none ] || echo "index $attr $kinds"
  done
}

write_conf() { # THREADS
  local module=""
  [ -e /usr/lib/ldap/back_mdb.la ] && module=$'modulepath /usr/lib/ldap\nmoduleload back_mdb'
  cat > "$dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
$module
pidfile $dir/slapd.pid
# LOGGING=$logging: nothing goes to syslog; with file, -d stats writes the stats lines to the log file
loglevel 0
threads $1
# slapadd -q indexes with this many threads (slapd.conf(5): no more than the CPUs; the default is 1)
tool-threads $(nproc)
sizelimit $([ "$size_limit" = 0 ] && echo unlimited || echo "$size_limit")
database mdb
suffix "dc=example,dc=com"
rootdn "cn=admin,dc=example,dc=com"
rootpw secret
directory $dir/db
maxsize 17179869184
$(indexes)
CONF
}

start_command=()
start() { # starts slapd with the current slapd.conf; sets start_command
  rm -f "$dir/slapd.pid"
  if [ "$logging" = off ]; then
    # In the foreground (-d 0: no debug output), detached from this script, as with LOGGING=file:
    # daemonized, slapd 2.5 answered the addressing mix about 26% slower here, with twice the p99 on
    # messaging (alternated runs, 2026-11-30)
    start_command=(/usr/sbin/slapd -d 0 -s 0 -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$port/")
    "${start_command[@]}" > "$dir/slapd.out" 2>&1 < /dev/null &
  else
    start_command=(/usr/sbin/slapd -d stats -s 0 -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$port/")
    # appended: a sweep's restarts keep one log
    "${start_command[@]}" > "$dir/slapd.out" 2>> "$dir/slapd-access.log" < /dev/null &
  fi
  for _ in $(seq 1 100); do
    [ -s "$dir/slapd.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "slapd did not start; see $dir/slapd.out" >&2; exit 1
}

stop() {
  local pid; pid=$(cat "$dir/slapd.pid")
  kill "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "slapd $pid did not stop" >&2; exit 1
}

rm -f "$dir/slapd-access.log" "$dir/sweep.txt"
write_conf "$([ "$threads" = sweep ] && echo 16 || echo "$threads")"
entries=$(grep -c '^dn:' "$ldif")
if [ "${KEEP_DATA:-0}" = 1 ] && [ -s "$dir/db/data.mdb" ]; then
  loaded="kept from an earlier load into $dir/db: it also holds the changes of any writes run against it since"
else
  rm -rf "$dir/db"; mkdir -p "$dir/db"
  /usr/bin/time -o "$dir/load-time.txt" -f '%e %U %S %M' \
    /usr/sbin/slapadd -q -f "$dir/slapd.conf" -l "$ldif" > "$dir/slapadd.log" 2>&1 \
    || { cat "$dir/slapadd.log" >&2; exit 1; }
  echo "slapadd: $entries entries in $(cut -d' ' -f1 "$dir/load-time.txt") s; $(du -sh "$dir/db" | cut -f1) on disk" >&2
  loaded="loaded by slapadd -q"
fi
[ "${LOAD_ONLY:-0}" != 1 ] || exit 0

chosen="set by THREADS"
if [ "$threads" = sweep ]; then
  best=0
  for t in ${SWEEP_THREADS:-2 4 8 16}; do
    write_conf "$t"; start
    run="$dir/sweep-$t"
    "$here/larch" bench --mix "${SWEEP_MIX:-messaging}" --port "$port" --clients "${SWEEP_CLIENTS:-2}" \
      --threads "${SWEEP_CLIENT_THREADS:-4}" --warmup "${SWEEP_WARMUP:-5}" --duration "${SWEEP_DURATION:-10}" \
      --runs 1 --data "$ldif" --out "$run" > "$run.log" 2>&1 || { stop; echo "the sweep failed; see $run.log" >&2; exit 1; }
    stop
    ops=$(awk '/^summary/ {for (i = 1; i < NF; i++) if ($(i + 1) == "ops/s,") print $i}' "$run.log" | head -n1)
    echo "threads $t: ${ops:-?} ops/s (${SWEEP_MIX:-messaging})" | tee -a "$dir/sweep.txt" >&2
    if awk -v a="${ops:-0}" -v b="$best" 'BEGIN {exit !(a > b)}'; then best=$ops; threads=$t; fi
  done
  [ "$threads" != sweep ] || { echo "no thread count of the sweep gave a figure; see $dir/sweep-*.log" >&2; exit 1; }
  chosen="the best of a sweep over ${SWEEP_THREADS:-2 4 8 16} (sweep.txt)"
  echo "threads $threads kept" | tee -a "$dir/sweep.txt" >&2
  write_conf "$threads"
  rm -f "$dir/slapd-access.log" # the sweep's lines are not the measurement's
fi
start

{
  echo "server: slapd"
  echo "version: $(/usr/sbin/slapd -VV 2>&1 | head -n1 | sed 's/^.*\$OpenLDAP: //; s/ \$$//')"
  echo "recorded: $(date -u +%FT%TZ)"
  echo "machine: $(nproc) cores, $(uname -sr)"
  echo "data: $ldif ($entries entries, $loaded)"
  echo "logging: $logging ($([ "$logging" = off ] && echo "loglevel 0, -d 0, -s 0: nothing per operation, in the foreground" \
    || echo "stats lines (-d stats, -s 0) to $dir/slapd-access.log"))"
  echo "threads: $threads ($chosen); listener-threads 1 (the default)"
  echo "size limit: $([ "$size_limit" = 0 ] && echo unlimited || echo "$size_limit") (sizelimit; the rootdn is exempt)"
  echo "time limit: 3600 s (slapd's default)"
  echo "durable writes: true (back-mdb without dbnosync)"
  echo "access: no access directives (slapd's default: anyone reads everything; only the rootdn writes)"
  echo "indexes: $(indexes | sed 's/^index //' | paste -sd ';' | sed 's/;/; /g')"
  echo "started: ${start_command[*]}"
  echo "config: slapd.conf"
} > "$dir/settings.txt"
cat "$dir/slapd.pid"
