#!/usr/bin/env bash
# A paged search of the whole tree on two servers, alternated: ldapsearch -E pr=PAGE/noprompt as
# BIND_DN (the administrator, whom neither server's size limit stops), every entry with all its user
# attributes, written as LDIF to a file under OUT (deleted after each run). Each run is timed from
# start to exit, and takes the server's CPU time from /proc/PID/stat and the client's own (user and
# system) from /usr/bin/time: on a small machine ldapsearch formatting LDIF takes a core of its own,
# so the client's CPU says how far the client bounds what either server can show.
#
#   client-bench/scripts/paged-side-by-side.sh OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR]
#   ... /tmp/paged slapd:3890:"$(cat /tmp/yard/slapd.pid)":/tmp/yard larch:3891:"$(cat /tmp/lyard/larch.pid)":/tmp/lyard
#
# Environment: HOST (127.0.0.1), BASE (dc=example,dc=com), BIND_DN, BIND_PASSWORD
# (cn=admin,dc=example,dc=com, secret), PAGE (1000 entries a page), ROUNDS (3). A first run per
# server is a warm-up and not counted. Each run's line (entries, seconds, server and client CPU) goes
# to OUT/runs.txt; OUT/summary.txt gets each side's medians: entries/s, server CPU microseconds per
# entry, client CPU seconds, and B's entries/s and CPU per entry over A's. Sides that return
# different numbers of entries fail the script: the comparison would not be of the same work.
set -euo pipefail
usage() { echo "usage: $0 OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR]" >&2; exit 2; }
[ $# -eq 3 ] || usage
out=$1; a=$2; b=$3
host=${HOST:-127.0.0.1}; base=${BASE:-dc=example,dc=com}
bind_dn=${BIND_DN:-cn=admin,dc=example,dc=com}; bind_password=${BIND_PASSWORD:-secret}
page=${PAGE:-1000}; rounds=${ROUNDS:-3}
for n in "$page" "$rounds"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "PAGE and ROUNDS must be positive numbers: $n" >&2; exit 2; }
done
command -v ldapsearch > /dev/null || { echo "ldapsearch is missing: apt-get install -y ldap-utils" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 1; }

# shellcheck source=sides-lib.sh
source "$(dirname "$0")/sides-lib.sh"
parse_sides "$a" "$b"
mkdir -p "$out"
record_settings "ldapsearch -E pr=$page/noprompt of $base, subtree, (objectClass=*), all user attributes, as $bind_dn,\
 LDIF to a file; a warm-up run, then $rounds round(s) alternated, against $host; $(nproc) cores"

clock_ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # PID: user + system, in clock ticks

run() { # NAME PORT PID ROUND: one paged search; appends its line to runs.txt unless ROUND is 0
  local name=$1 port=$2 pid=$3 round=$4 ldif="$out/$1-$4.ldif" before after start end entries
  before=$(cpu_ticks "$pid"); start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$out/$name-$round.time" \
    ldapsearch -x -LLL -H "ldap://$host:$port" -D "$bind_dn" -w "$bind_password" -b "$base" \
    -E "pr=$page/noprompt" '(objectClass=*)' > "$ldif" 2> "$out/$name-$round.err" \
    || { echo "$name: ldapsearch failed (exit $?): $(head -c 500 "$out/$name-$round.err")" >&2; exit 1; }
  end=$(date +%s.%N); after=$(cpu_ticks "$pid")
  entries=$(grep -c '^dn:' "$ldif" || true)
  rm -f "$ldif"
  [ "$round" != 0 ] || return 0
  read -r user sys < "$out/$name-$round.time"
  awk -v n="$name" -v r="$round" -v e="$entries" -v s="$start" -v t="$end" -v c="$((after - before))" \
    -v hz="$clock_ticks" -v u="$user" -v y="$sys" \
    'BEGIN {printf "%s %s %d %.3f %.3f %.3f\n", n, r, e, t - s, c / hz, u + y}' | tee -a "$out/runs.txt"
}

: > "$out/runs.txt"
run "$name_a" "$port_a" "$pid_a" 0
run "$name_b" "$port_b" "$pid_b" 0
for round in $(seq 1 "$rounds"); do
  run "$name_a" "$port_a" "$pid_a" "$round"
  run "$name_b" "$port_b" "$pid_b" "$round"
done

entries_of() { awk -v n="$1" '$1 == n {print $3}' "$out/runs.txt" | sort -u; } # NAME: the distinct counts
[ "$(entries_of "$name_a")" = "$(entries_of "$name_b")" ] && [ "$(entries_of "$name_a" | wc -l)" = 1 ] \
  || { echo "the runs returned different numbers of entries: $name_a $(entries_of "$name_a" | paste -sd,)," \
    "$name_b $(entries_of "$name_b" | paste -sd,)" >&2; exit 1; }
# NAME: per run "entries/s server-us-per-entry client-s", one a line
figures() { awk -v n="$1" '$1 == n {printf "%.1f %.3f %.3f\n", $3 / $4, $5 * 1e6 / $3, $6}' "$out/runs.txt"; }
med() { figures "$1" | cut -d' ' -f"$2" | median; } # NAME COLUMN
{
  printf 'paged  %s %10.1f entries/s %7.2f us CPU/entry client %6.2f s CPU' \
    "$name_a" "$(med "$name_a" 1)" "$(med "$name_a" 2)" "$(med "$name_a" 3)"
  printf ' | %s %10.1f entries/s %7.2f us CPU/entry client %6.2f s CPU' \
    "$name_b" "$(med "$name_b" 1)" "$(med "$name_b" 2)" "$(med "$name_b" 3)"
  awk -v n="$name_b/$name_a" -v ea="$(med "$name_a" 1)" -v eb="$(med "$name_b" 1)" \
    -v ca="$(med "$name_a" 2)" -v cb="$(med "$name_b" 2)" \
    'BEGIN {printf " | %s entries/s %.2f CPU/entry %.2f\n", n, eb / ea, cb / ca}'
} | tee "$out/summary.txt"
