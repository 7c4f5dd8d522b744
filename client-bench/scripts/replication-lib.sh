# Shell functions the replication yardsticks share (sourced, not run). They read the caller's
# variables: out (the results directory), suffix, password, ticks (getconf CLK_TCK). Every PID added
# to PIDS is stopped when the script exits.

# The administrator's password as both servers keep it: one salted SHA-1 hash from slappasswd, so that a
# bind costs the two alike. Given in LARCH_ADMIN_PASSWORD, Larch would keep a PBKDF2 hash (100,000
# iterations, some 40 ms a bind here) while slapd compares its cleartext rootpw: the contextCSN polls
# every 0.5 s then took a fifth of the Larch consumer's CPU during a refresh (JFR) and nothing of slapd's.
admin_hash=$(/usr/sbin/slappasswd -s "$password")

load() { echo "$(date +%s) $1 $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/loads.txt"; }
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; } # utime + stime, after "(comm) "
rss_anon() { awk '/^RssAnon/ {print $2}' "/proc/$1/status"; }              # KiB
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
context_csn() { # URL BIND_DN: the suffix's contextCSN values, sorted, on one line (empty if none yet)
  ldapsearch -x -LLL -o ldif-wrap=no -H "$1" -D "$2" -w "$password" -b "$suffix" -s base contextCSN 2>/dev/null \
    | awk '/^contextCSN:/ {print $2}' | sort | tr '\n' ' ' || true
}
await_answer() { # URL BIND_DN PID LOG
  for _ in $(seq 1 1200); do
    ldapsearch -x -H "$1" -D "$2" -w "$password" -b "" -s base >/dev/null 2>&1 && return
    kill -0 "$3" 2>/dev/null || { tail -n 20 "$4" >&2; echo "the server at $1 exited" >&2; exit 1; }
    sleep 0.25
  done
  echo "the server at $1 did not answer within 300 s" >&2; exit 1
}
stop() { # PID: SIGTERM, then wait for the process to be gone
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 600); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
}
PIDS=()
trap 'for p in "${PIDS[@]}"; do stop "$p"; done' EXIT

slapd_conf() { # DIR ROOT_DN EXTRA_GLOBAL EXTRA_DATABASE
  local module=""
  [ -e /usr/lib/ldap/back_mdb.la ] && module=$'modulepath /usr/lib/ldap\nmoduleload back_mdb\nmoduleload syncprov'
  cat <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
$module
pidfile $1/slapd.pid
argsfile $1/slapd.args
loglevel 0
threads 16
threadqueues 1
$3
database mdb
suffix "$suffix"
rootdn "$2"
rootpw $admin_hash
directory $1/db
maxsize 17179869184
index objectClass eq
$4
CONF
}

start_slapd() { # DIR PORT: prints the PID of slapd
  # In the foreground (-d 0: no debug output), detached, as slapd-yardstick.sh starts it: daemonized,
  # slapd 2.5 served reads about 26% slower here, with twice the p99
  rm -f "$1/slapd.pid"
  nice -n 10 /usr/sbin/slapd -d 0 -s 0 -f "$1/slapd.conf" -h "ldap://127.0.0.1:$2/" > "$1/slapd.log" 2>&1 < /dev/null &
  for _ in $(seq 1 100); do [ -s "$1/slapd.pid" ] && break; sleep 0.1; done
  cat "$1/slapd.pid"
}
