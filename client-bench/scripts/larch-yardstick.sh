#!/usr/bin/env bash
# Loads an LDIF into a private Larch (./larch import) and starts it on a loopback port, set up like
# the slapd that slapd-yardstick.sh starts: Larch's default indexes (slapd's copy them), the same size
# limit, no look-through limit (slapd sets none on unindexed candidates either), and logging the same
# way (LOGGING). Everything it set is recorded in DIR: settings.txt, larch.conf (the file it wrote)
# and effective.conf (every setting as the server reads it, from ./larch config check).
#
#   client-bench/scripts/larch-yardstick.sh DIR DATA.ldif PORT   # prints the server's PID
#   kill "$(cat DIR/larch.pid)"                                  # stop it
#
# Environment:
#   LOGGING         off (default): logging.access-log = false, nothing logged per operation. file: the
#                   access log (one line per completed operation) written to DIR/larch-access.log.
#                   stdout: the access log on standard output, a fresh install's default (DIR/larch.out).
#   IO_THREADS      listen.io-threads (0, the default: one per core).
#   WORKER_THREADS  limits.worker-threads (0, the default: one per core).
#   SIZE_LIMIT      most entries one search returns (500, the default of both servers; 0 = unlimited).
#   ADMIN_PASSWORD  cn=admin's password (secret, as the slapd yardstick's rootpw).
#   LOAD_ONLY       1: import DATA and stop there, the server not started (import-side-by-side.sh times
#                   imports this way); DIR/load-time.txt gets the import's "wall-s user-s system-s
#                   max-RSS-KiB".
#   KEEP_DATA       1: start on the store an earlier run imported into DIR, if there is one, instead of
#                   importing DATA again (to switch LOGGING without a reload; the store keeps the
#                   changes of the write mixes run against it, and settings.txt says it was kept).
#   LARCH_SETTINGS  more lines for larch.conf, e.g. "server.warm-up-seconds = 0" (recorded with the rest).
# Binds keep the generated {SSHA} values, as slapd does (security.rehash-on-bind = false: a rehash to
# PBKDF2 at each first bind would compare another hash and another store).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DIR DATA.ldif PORT" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd); ldif=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); port=$3
here=$(cd "$(dirname "$0")/../.." && pwd)
logging=${LOGGING:-off}; size_limit=${SIZE_LIMIT:-500}
io_threads=${IO_THREADS:-0}; worker_threads=${WORKER_THREADS:-0}
[ -r "$2" ] || { echo "cannot read $2" >&2; exit 2; }
[[ "$port" =~ ^[0-9]+$ ]] || { echo "PORT must be a number: $port" >&2; exit 2; }
case $logging in off | file | stdout) ;; *) echo "LOGGING must be off, file or stdout: $logging" >&2; exit 2 ;; esac
for n in "$size_limit" "$io_threads" "$worker_threads"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "SIZE_LIMIT, IO_THREADS and WORKER_THREADS must be numbers: $n" >&2; exit 2; }
done
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "something already listens on 127.0.0.1:$port" >&2; exit 2; fi

rm -f "$dir/larch-access.log"*
{
  echo "# written by client-bench/scripts/larch-yardstick.sh (LOGGING=$logging); the rest are defaults"
  if [ "$logging" = off ]; then
    echo "logging.access-log = false"
  elif [ "$logging" = stdout ]; then
    echo "logging.access-log = true"
  else
    echo "logging.access-log = true"
    echo "logging.access-log-file = $dir/larch-access.log"
  fi
  echo "security.rehash-on-bind = false"
  echo "limits.size-limit = $size_limit"
  echo "limits.look-through-limit = 0"
  echo "listen.io-threads = $io_threads"
  echo "limits.worker-threads = $worker_threads"
  [ -z "${LARCH_SETTINGS:-}" ] || printf '%s\n' "$LARCH_SETTINGS"
} > "$dir/larch.conf"

# every setting as the server will read it, written while the import runs
"$here/larch" config check --config "$dir/larch.conf" > "$dir/effective.conf" 2>&1 & check=$!
entries=$(grep -c '^dn:' "$ldif")
# the check's JVM would take CPU from a timed import
[ "${LOAD_ONLY:-0}" != 1 ] || wait "$check" || { cat "$dir/effective.conf" >&2; exit 1; }
if [ "${KEEP_DATA:-0}" = 1 ] && [ -s "$dir/data/data.mdb" ]; then
  loaded="kept from an earlier import into $dir/data: it also holds the changes of any writes run against it since"
else
  rm -rf "$dir/data"
  /usr/bin/time -o "$dir/load-time.txt" -f '%e %U %S %M' \
    "$here/larch" import --config "$dir/larch.conf" --data "$dir/data" "$ldif" > "$dir/import.log" 2>&1 \
    || { cat "$dir/import.log" >&2; exit 1; }
  echo "larch import: $entries entries in $(cut -d' ' -f1 "$dir/load-time.txt") s; $(du -sh "$dir/data" | cut -f1) on disk" >&2
  loaded="loaded by ./larch import"
fi
[ "${LOAD_ONLY:-0}" != 1 ] || exit 0
wait "$check" || { cat "$dir/effective.conf" >&2; exit 1; }

start_command=("$here/larch" serve --config "$dir/larch.conf" --data "$dir/data" --port "$port")
# the launcher execs the JVM: $! is the server
LARCH_ADMIN_PASSWORD=${ADMIN_PASSWORD:-secret} "${start_command[@]}" > "$dir/larch.out" 2>&1 < /dev/null &
pid=$!
echo "$pid" > "$dir/larch.pid"
for _ in $(seq 1 600); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { echo "larch stopped at its start; see $dir/larch.out" >&2; exit 1; }
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "larch did not open port $port in 60 s; see $dir/larch.out" >&2; exit 1; }

cores=$(nproc)
setting() { sed -n "s/^$1 = \\([^ ]*\\).*/\\1/p" "$dir/effective.conf"; } # KEY: its value, as the server reads it
per_core() { [ "$1" = 0 ] && echo "$cores (0: one per core)" || echo "$1"; }
{
  echo "server: larch"
  echo "version: $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown); $("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | head -n1)"
  echo "recorded: $(date -u +%FT%TZ)"
  echo "machine: $cores cores, $(uname -sr)"
  echo "data: $ldif ($entries entries, $loaded)"
  case $logging in
    off) where="logging.access-log = false: nothing per operation" ;;
    stdout) where="access log, one line per operation, to standard output ($dir/larch.out)" ;;
    *) where="access log, one line per operation, to $dir/larch-access.log" ;;
  esac
  echo "logging: $logging ($where)"
  echo "threads: io $(per_core "$io_threads"), workers $(per_core "$worker_threads")"
  echo "size limit: $([ "$size_limit" = 0 ] && echo unlimited || echo "$size_limit") (limits.size-limit; cn=admin is exempt); no look-through limit"
  echo "time limit: $(setting limits.time-limit-seconds) s"
  echo "durable writes: $(setting storage.durable-writes) (storage.durable-writes)"
  echo "access: the built-in rules (anyone reads all but userPassword, authPassword and pwdHistory; only cn=admin writes, and each person their own password)"
  echo "indexes: $(sed -n 's/^index\.\([^ ]*\) = \(.*\)$/\1 \2/p' "$dir/effective.conf" | sed 's/ *# default$//' \
    | paste -sd ';' | sed 's/;/; /g')"
  echo "started: LARCH_ADMIN_PASSWORD=... ${start_command[*]}"
  echo "config: larch.conf (every setting: effective.conf)"
} > "$dir/settings.txt"
echo "$pid"
