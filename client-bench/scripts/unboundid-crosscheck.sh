#!/usr/bin/env bash
# The comparison of side-by-side.sh made again with an independent, standard client: the UnboundID
# LDAP SDK's searchrate, modrate and authrate (the SDK jar on client-bench's class path), each run
# against A, then B (ROUNDS pairs), with the same connections, duration and DirectoryMark data, and
# each server's CPU time over the measured run taken from /proc/PID/stat.
#
#   client-bench/scripts/unboundid-crosscheck.sh DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [TOOL...]
#   ... d100k.ldif /tmp/ucc slapd:3890:"$(cat /tmp/yard/slapd.pid)":/tmp/yard larch:3891:"$(cat /tmp/lyard/larch.pid)":/tmp/lyard
#
# TOOL defaults to searchrate modrate authrate:
#   searchrate  subtree searches for one person's mail (mail=...) drawn from DATA, asking cn, sn, mail, uid
#   modrate     replaces the description of a person drawn from DATA (12 random characters), bound as
#               BIND_DN (as the harness's modify mix)
#   onelevel    one-level searches under the parent in DATA with the most people (at 1,000,000 entries
#               200,335) for one of its people's uid, asking cn, sn, mail, uid: the scope must not
#               make the server visit every child when the filter names one
#   authrate    searches a person by uid, then binds as them. authrate binds every user with one password,
#               and each generated person's is their own uid: so AUTH_USERS (1000) people spread over
#               DATA get the same {SSHA} value of AUTH_PASSWORD on both servers before, and their own
#               values back from DATA after (the same scheme as every generated password).
# Environment: HOST (127.0.0.1), CONNECTIONS (8; one per tool thread), WARMUP (10 s: a run of the same
# tool before each measured run, not counted), DURATION (30 s), ROUNDS (2), BIND_DN, BIND_PASSWORD
# (cn=admin,dc=example,dc=com, secret), BASE (dc=example,dc=com).
# The CPU figures need the servers on this machine (the PIDs are read from /proc). A side's DIR is as
# for side-by-side.sh: its recorded settings are copied to OUT and printed, and sides that log
# differently are refused. Each run's output stays in OUT/TOOL-NAME-ROUND.txt; OUT/summary.txt gets one
# line per tool: each side's median ops/s, errors and server CPU per operation (microseconds), and B's
# throughput and CPU per operation over A's.
set -euo pipefail
usage() { echo "usage: $0 DATA.ldif OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR] [TOOL...]" >&2; exit 2; }
[ $# -ge 4 ] || usage
data=$1; out=$2; a=$3; b=$4; shift 4
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(searchrate modrate authrate)
for t in "${tools[@]}"; do
  case $t in searchrate | modrate | authrate | onelevel) ;; *) echo "unknown tool $t (searchrate, modrate, authrate or onelevel)" >&2; exit 2 ;; esac
done
[ -r "$data" ] || { echo "cannot read $data" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
host=${HOST:-127.0.0.1}; connections=${CONNECTIONS:-8}; duration=${DURATION:-30}; warmup=${WARMUP:-10}
rounds=${ROUNDS:-2}; base=${BASE:-dc=example,dc=com}
bind_dn=${BIND_DN:-cn=admin,dc=example,dc=com}; bind_password=${BIND_PASSWORD:-secret}
auth_users=${AUTH_USERS:-1000}; auth_password=${AUTH_PASSWORD:-crosscheck}
for n in "$connections" "$duration" "$warmup" "$rounds" "$auth_users"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "CONNECTIONS, DURATION, WARMUP, ROUNDS and AUTH_USERS must be numbers: $n" >&2; exit 2; }
done

# shellcheck source=sides-lib.sh
source "$(dirname "$0")/sides-lib.sh"
parse_sides "$a" "$b"
# the SDK jar of client-bench's class path (the built one, or LARCH_CLASSPATH as the launcher takes it)
unboundid=$({ [ -n "${LARCH_CLASSPATH:-}" ] && echo "$LARCH_CLASSPATH" || cat "$here/target/run/current/client-bench.classpath"; } 2>/dev/null \
  | tr ':' '\n' | grep unboundid-ldapsdk | head -n1 || true)
[ -r "$unboundid" ] || { echo "no unboundid-ldapsdk jar in the client-bench class path (build with ./larch build)" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
mkdir -p "$out"
record_settings "UnboundID LDAP SDK $(basename "$unboundid" .jar): $connections connections, warm-up $warmup s,\
 $duration s a run, $rounds round(s) of each tool alternated, against $host; $(nproc) cores"

# The people of DATA: their DNs, mails and uids, one a line (the tools' [file:...] value patterns draw
# a line at random for each request).
awk -v dns="$out/dns.txt" -v mails="$out/mails.txt" -v uids="$out/uids.txt" '
  /^dn: / {dn = substr($0, 5)}
  /^mail: / {mail = substr($0, 7)}
  /^uid: / {uid = substr($0, 6)}
  /^objectClass: inetOrgPerson$/ {person = 1}
  /^$/ {if (person && mail != "" && uid != "") {print dn > dns; print mail > mails; print uid > uids}
        dn = mail = uid = ""; person = 0}
  END {if (person && mail != "" && uid != "") {print dn > dns; print mail > mails; print uid > uids}}' "$data"
people=$(wc -l < "$out/dns.txt")
[ "$people" -gt 0 ] || { echo "no inetOrgPerson with mail and uid in $data (make it with ./larch gen)" >&2; exit 2; }
# onelevel's parent: the one with the most people (a DN's parent is what follows its first unescaped comma)
parent_of() { sed -E 's/^([^,\\]|\\.)*,//'; }
onelevel_base=$(parent_of < "$out/dns.txt" | sort | uniq -c | sort -rn | head -n1 | sed -E 's/^ *[0-9]+ //')
paste -d'\t' <(parent_of < "$out/dns.txt") "$out/uids.txt" \
  | awk -F'\t' -v p="$onelevel_base" '$1 == p {print $2}' > "$out/onelevel-uids.txt"

# authrate's people: every (people / AUTH_USERS)th, with their DN, uid and stored password from DATA.
auth_setup() {
  local step=$(((people + auth_users - 1) / auth_users))
  [ "$step" -ge 1 ] || step=1
  awk -v step="$step" 'NR % step == 1 || step == 1' "$out/dns.txt" > "$out/auth-dns.txt"
  awk -v step="$step" 'NR % step == 1 || step == 1' "$out/uids.txt" > "$out/auth-uids.txt"
  local hash; hash=$(/usr/sbin/slappasswd -h '{SSHA}' -s "$auth_password")
  awk -v h="$hash" '{print "dn: " $0 "\nchangetype: modify\nreplace: userPassword\nuserPassword: " h "\n"}' \
    "$out/auth-dns.txt" > "$out/auth-set.ldif"
  # the values DATA gave them, to put back
  awk 'NR == FNR {want[$0] = 1; next}
    /^dn: / {dn = substr($0, 5); keep = (dn in want)}
    keep && /^userPassword:/ {print "dn: " dn "\nchangetype: modify\nreplace: userPassword\n" $0 "\n"}' \
    "$out/auth-dns.txt" "$data" > "$out/auth-restore.ldif"
}
modify_both() { # LDIF
  local port
  for port in "$port_a" "$port_b"; do
    ldapmodify -x -H "ldap://$host:$port" -D "$bind_dn" -w "$bind_password" -f "$1" > /dev/null \
      || { echo "ldapmodify $1 against port $port failed" >&2; return 1; }
  done
}
for t in "${tools[@]}"; do
  if [ "$t" = authrate ]; then
    auth_setup
    trap 'modify_both "$out/auth-restore.ldif" || echo "restore the passwords with: ldapmodify ... -f $out/auth-restore.ldif" >&2' EXIT
    modify_both "$out/auth-set.ldif"
  fi
done

tool_args() { # TOOL PORT: the tool's main class and options, less threads and timing, one a line
  local common=(-h "$host" -p "$2")
  case $1 in
    searchrate)
      printf '%s\n' com.unboundid.ldap.sdk.examples.SearchRate "${common[@]}" -b "$base" -s sub \
        -f "(mail=[file:$out/mails.txt])" -A cn -A sn -A mail -A uid ;;
    onelevel)
      printf '%s\n' com.unboundid.ldap.sdk.examples.SearchRate "${common[@]}" -b "$onelevel_base" -s one \
        -f "(uid=[file:$out/onelevel-uids.txt])" -A cn -A sn -A mail -A uid ;;
    modrate)
      printf '%s\n' com.unboundid.ldap.sdk.examples.ModRate "${common[@]}" -D "$bind_dn" -w "$bind_password" \
        --entryDN "[file:$out/dns.txt]" --attribute description --valueLength 12 ;;
    authrate)
      printf '%s\n' com.unboundid.ldap.sdk.examples.AuthRate "${common[@]}" -b "$base" -s sub \
        -f "(uid=[file:$out/auth-uids.txt])" -C "$auth_password" ;;
  esac
}
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; } # utime + stime, after "(comm) "
ticks=$(getconf CLK_TCK)

run_tool() { # TOOL PORT SECONDS OUTPUT: one interval of SECONDS, as CSV
  local args
  mapfile -t args < <(tool_args "$1" "$2") # one argument a line: a base DN may hold spaces
  "$java" -Xmx256m -cp "$unboundid" "${args[@]}" -t "$connections" -i "$3" -I 1 --csv > "$4" 2>&1
}

for tool in "${tools[@]}"; do
  for round in $(seq 1 "$rounds"); do
    for s in a b; do
      if [ $s = a ]; then name=$name_a port=$port_a pid=$pid_a; else name=$name_b port=$port_b pid=$pid_b; fi
      run="$out/$tool-$name-$round.txt"
      [ "$warmup" = 0 ] || run_tool "$tool" "$port" "$warmup" "$run.warmup" \
        || { echo "$tool against $name failed; see $run.warmup" >&2; exit 1; }
      before=$(cpu_ticks "$pid")
      run_tool "$tool" "$port" "$duration" "$run" || { echo "$tool against $name failed; see $run" >&2; exit 1; }
      after=$(cpu_ticks "$pid")
      # "Recent Searches/Sec,...,Recent Errors/Sec,Overall Searches/Sec,Overall Avg Dur ms" and one row
      # (the columns differ by tool): "ops/s errors cpu-seconds"
      awk -F, -v cpu="$((after - before))" -v ticks="$ticks" -v seconds="$duration" '
        /^Recent / {for (i = 1; i <= NF; i++) {if ($i ~ /^Overall .*\/Sec$/) o = i; if ($i == "Recent Errors/Sec") e = i}}
        o && e && /^[0-9.]+,/ {ops = $o; errors = $e * seconds}
        END {if (ops == "") exit 1
             printf "%s %.0f %.6f\n", ops, errors, cpu / ticks}' "$run" > "$run.figures" \
        || { echo "no figures in $run" >&2; exit 1; }
    done
  done
  figure() { # NAME COLUMN: the median of that column over this tool's rounds
    for round in $(seq 1 "$rounds"); do awk -v c="$2" '{print $c}' "$out/$tool-$1-$round.txt.figures"; done | median
  }
  cpu_per_op() { # NAME: median over rounds of server CPU microseconds per operation
    for round in $(seq 1 "$rounds"); do
      awk -v d="$duration" '{print ($1 > 0 ? $3 * 1e6 / ($1 * d) : 0)}' "$out/$tool-$1-$round.txt.figures"
    done | median
  }
  ops_a=$(figure "$name_a" 1); ops_b=$(figure "$name_b" 1)
  cpu_a=$(cpu_per_op "$name_a"); cpu_b=$(cpu_per_op "$name_b")
  printf '%-10s %s %9.1f ops/s %s errors %7.1f us CPU/op | %s %9.1f ops/s %s errors %7.1f us CPU/op | %s/%s ops %.2f CPU/op %.2f\n' \
    "$tool" "$name_a" "$ops_a" "$(figure "$name_a" 2)" "$cpu_a" "$name_b" "$ops_b" "$(figure "$name_b" 2)" "$cpu_b" \
    "$name_b" "$name_a" "$(awk -v a="$ops_a" -v b="$ops_b" 'BEGIN {print (a > 0 ? b / a : 0)}')" \
    "$(awk -v a="$cpu_a" -v b="$cpu_b" 'BEGIN {print (a > 0 ? b / a : 0)}')" | tee -a "$out/summary.txt"
done
