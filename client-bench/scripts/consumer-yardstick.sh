#!/usr/bin/env bash
# Larch as a replication consumer against OpenLDAP slapd as one, from the same slapd provider, in one
# sitting (issue 32's closing measurement); then two Larch multi-provider members against one server.
#
#   client-bench/scripts/consumer-yardstick.sh [N] [OUT]     # N people (default 1000000), OUT under /tmp
#   ROUNDS=1 LAG_DURATION=20 DOWN_SECONDS=20 client-bench/scripts/consumer-yardstick.sh 20000 /tmp/cons-20k
#
# The provider, once per sitting: slapd (back-mdb, syncprov, serverID 1, `threads 16`, `threadqueues 1`,
# loglevel 0, durable commits; indexes objectClass eq; uid, mail, cn, sn, givenName eq+sub; member,
# uniqueMember, manager, secretary eq; entryUUID, entryCSN eq). It is filled from the LDIF
# (`./larch gen --entries N`, kept as /tmp/larch-repl-N.ldif) through a Larch that imported it (server
# ID 9): slapd consumes from that Larch once, then restarts as a plain provider. slapadd takes over
# 40 minutes here for a million entries with these substring indexes; this takes a quarter of that.
# The loaded database is kept as PROVIDER_KEEP (default /tmp/slapd-provider-N) for later sittings.
#
# For each round (ROUNDS, default 1) the consumers take turns, slapd then Larch, each starting empty:
#   slapd:  back-mdb, dbnosync, syncprov (for the observer below), the provider's indexes (which are
#           Larch's defaults: a consumer that serves the same searches maintains the same indexes
#           while it refreshes), syncrepl rid=001 refreshAndPersist attrs="*,+" as the provider's rootdn.
#   Larch:  `./larch serve`, storage.durable-writes = false (as dbnosync: both consumers leave syncing
#           to the kernel, and a commit per entry, as slapd's syncrepl makes, is not bound by the disk),
#           server ID 2, access log off, replication.consumer.1 refreshAndPersist as the provider's rootdn.
# Then, per consumer:
#   1. refresh: from its start to every provider contextCSN value present on the consumer (a base search
#      every 0.5 s), then every entry counted. The consumer's CPU (utime+stime) and peak RssAnon, and
#      the provider's CPU, are reported.
#   2. lag at CONNECTIONS (8) and MANY (64) connections on the provider: ReplicationLag.java (read its
#      javadoc) drives the harness's modify mix back to back for LAG_WARMUP (10) + LAG_DURATION (60) s
#      and watches each change arrive through a sync search on the consumer: modifies/s the provider
#      took (all of which the consumer applied unless some are "missing") and the lag p50/p99.
#   3. catch-up: the consumer stopped (SIGTERM), DOWN_SECONDS (60) of the modify mix at CONNECTIONS
#      connections on the provider, the consumer started again: seconds to its first answer and to
#      holding the provider's contextCSN.
# Then, unless MULTI=0, two Larch multi-provider members (server IDs 1 and 2, durable writes, each a
# consumer of the other, retrying every 10 s at most) on the LDIF of MULTI_N people (default N; member 1
# imports it, member 2 refreshes from member 1, then member 1 from member 2, timed):
# the modify mix's modifies/s at CONNECTIONS and MANY connections against member 1 alone (before
# member 2 starts) and split evenly over both members (two load programs at once, summed), and the
# seconds until both hold the same contextCSN after each load.
# CONSUMERS=0 skips the provider and the consumers (the multi-provider part alone).
# Everything runs under `nice -n 10`. OUT gets results.txt, summary.txt, machine.txt, loads.txt and
# each run's directory (configurations, logs, lag samples).
set -euo pipefail
n=${1:-1000000}
out=${2:-/tmp/consumer-yardstick-$n-$(date +%Y%m%d-%H%M%S)}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number, not '$n'" >&2; exit 2; }
case "$out" in /tmp/*) ;; *) echo "OUT must be under /tmp, not '$out'" >&2; exit 2 ;; esac
[ -x /usr/sbin/slapd ] || { echo "slapd is not installed (apt-get install -y slapd)" >&2; exit 2; }
command -v ldapsearch >/dev/null || { echo "ldapsearch is not installed (apt-get install -y ldap-utils)" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
scripts="$here/client-bench/scripts"
rounds=${ROUNDS:-1}; connections=${CONNECTIONS:-8}; many=${MANY:-64}
lag_warmup=${LAG_WARMUP:-10}; lag_duration=${LAG_DURATION:-60}; down_seconds=${DOWN_SECONDS:-60}
keep=${PROVIDER_KEEP:-/tmp/slapd-provider-$n}
suffix="dc=example,dc=com"; admin="cn=admin,$suffix"; password=secret
ticks=$(getconf CLK_TCK)
mkdir -p "$out"
# shellcheck source=replication-lib.sh
source "$scripts/replication-lib.sh"

ldif=/tmp/larch-repl-$n.ldif
[ -s "$ldif" ] || nice -n 10 "$here/larch" gen --entries "$n" --out "$ldif" >&2 # builds Larch when stale
entries=$(grep -c '^dn:' "$ldif")
"$here/larch" build >&2 # a build while servers run would restart nothing, but would skew the figures
# A Larch started without its class cache spends its first ten seconds or more loading classes: the
# catch-up after a restart would measure that. Built once per build (about a minute), as an operator would.
"$here/larch" warm-cache >&2
unboundid=$(tr ':' '\n' < "$here/target/run/current/client-bench.classpath" | grep unboundid-ldapsdk | head -n1)
[ -r "$unboundid" ] || { echo "no unboundid-ldapsdk jar in the client-bench class path" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

{
  echo "date: $(date -u +%FT%TZ)  N: $n people, $entries entries  rounds: $rounds"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
  echo "slapd: $(/usr/sbin/slapd -VV 2>&1 | head -n1)"
  echo "larch: $(git -C "$here" rev-parse --short HEAD); load programs on $("$java" -version 2>&1 | head -n1)"
  echo "lag: $connections and $many connections, warm-up $lag_warmup s, $lag_duration s measured; down $down_seconds s"
} | tee "$out/machine.txt" >&2

provider_indexes=$(printf '%s\n' 'index uid,mail,cn,sn,givenName eq,sub' \
  'index member,uniqueMember,manager,secretary eq' 'index entryUUID,entryCSN eq' 'overlay syncprov' \
  'syncprov-checkpoint 100 10' 'syncprov-sessionlog 10000')

# The slapd consumer's indexes: the provider's, without its overlay lines.
consumer_indexes=$(grep '^index ' <<< "$provider_indexes")

larch_serve() { # DIR: starts ./larch serve on DIR/larch.conf and DIR/db; prints the PID (the JVM's: ./larch execs it)
  nice -n 10 "$here/larch" serve --config "$1/larch.conf" --data "$1/db" \
    > "$1/serve.log" 2>&1 < /dev/null &
  echo $!
}

await_csn() { # URL BIND_DN CSNS PID LOG: waits until every value of CSNS is among the server's contextCSN
  local have
  while :; do
    have=$(context_csn "$1" "$2")
    local all=1
    for c in $3; do [[ " $have " == *" $c "* ]] || all=0; done
    [ "$all" = 1 ] && return
    kill -0 "$4" 2>/dev/null || { tail -n 20 "$5" >&2; echo "the server at $1 exited" >&2; exit 1; }
    sleep 0.5
  done
}

await_persist() { # URL PID LOG: waits until every replication session of a Larch is in its persist stage
  local states
  while :; do
    states=$(ldapsearch -x -LLL -o ldif-wrap=no -H "$1" -D "$admin" -w "$password" -b "cn=Replication,cn=Monitor" \
      '(larchReplicaState=*)' larchReplicaState 2>/dev/null | awk '/^larchReplicaState:/ {print $2}' | sort -u || true)
    [ "$states" = persist ] && return
    kill -0 "$2" 2>/dev/null || { tail -n 20 "$3" >&2; echo "the server at $1 exited" >&2; exit 1; }
    sleep 1
  done
}

count_entries() { # URL BIND_DN
  ldapsearch -x -LLL -o ldif-wrap=no -H "$1" -D "$2" -w "$password" -b "$suffix" -z 0 1.1 | grep -c '^dn:'
}

lag_run() { # PROVIDER_PORT CONSUMER_HOST:PORT|- CONSUMER_DN CONNECTIONS SECONDS OUT_FILE: prints the summary line
  nice -n 10 "$java" -Xmx512m -cp "$unboundid" "$scripts/ReplicationLag.java" "127.0.0.1:$1" "$admin" \
    "$password" "$2" "$3" "$password" "$ldif" "$4" "$lag_warmup" "$5" 0 "$6" 2> "$6.log" | tail -n1
}

if [ "${CONSUMERS:-1}" != 0 ]; then
# ---- the provider ----------------------------------------------------------------------------------
pdir="$out/provider"; pport=$(free_port); purl="ldap://127.0.0.1:$pport"
mkdir -p "$pdir"
slapd_conf "$pdir" "$admin" "serverID 1" "$provider_indexes" > "$pdir/slapd.conf"
if [ -s "$keep/data.mdb" ]; then
  echo "provider: the database kept in $keep" >&2
  mkdir -p "$pdir/db"; cp --sparse=always "$keep/data.mdb" "$pdir/db/"
else
  load "provider fill"
  sdir="$out/source"; sport=$(free_port); mkdir -p "$sdir"
  printf '%s\n' "listen.host = 127.0.0.1" "listen.port = $sport" "logging.access-log = false" \
    "security.admin-password = $admin_hash" "replication.server-id = 9" > "$sdir/larch.conf"
  t0=$(date +%s.%N)
  nice -n 10 "$here/larch" import --config "$sdir/larch.conf" --data "$sdir/db" "$ldif" > "$sdir/load.log" 2>&1 \
    || { cat "$sdir/load.log" >&2; exit 1; }
  spid=$(larch_serve "$sdir"); PIDS+=("$spid")
  await_answer "ldap://127.0.0.1:$sport" "$admin" "$spid" "$sdir/serve.log"
  scsn=$(context_csn "ldap://127.0.0.1:$sport" "$admin")
  mkdir -p "$pdir/fill/db"
  slapd_conf "$pdir/fill" "$admin" "serverID 1" "$(printf '%s\n' "$provider_indexes" 'dbnosync' \
    'syncrepl rid=009' "  provider=ldap://127.0.0.1:$sport" '  bindmethod=simple' "  binddn=\"$admin\"" \
    "  credentials=\"$password\"" "  searchbase=\"$suffix\"" '  filter="(objectClass=*)"' '  scope=sub' \
    '  attrs="*,+"' '  schemachecking=off' '  type=refreshAndPersist' '  retry="1 +"')" > "$pdir/fill/slapd.conf"
  fpid=$(start_slapd "$pdir/fill" "$pport"); PIDS+=("$fpid")
  await_csn "$purl" "$admin" "$scsn" "$fpid" "$pdir/fill/slapd.log"
  stop "$fpid"; stop "$spid"; rm -rf "$sdir/db"
  mv "$pdir/fill/db" "$pdir/db"
  echo "provider filled through Larch in $(echo "$(date +%s.%N) - $t0" | bc) s" | tee "$pdir/fill.txt" >&2
  mkdir -p "$keep"; cp --sparse=always "$pdir/db/data.mdb" "$keep/"
fi
ppid=$(start_slapd "$pdir" "$pport"); PIDS+=("$ppid")
await_answer "$purl" "$admin" "$ppid" "$pdir/slapd.log"
pcount=$(count_entries "$purl" "$admin")
echo "provider pid $ppid on $purl holds $pcount entries (the LDIF has $entries)" | tee -a "$out/machine.txt" >&2
[ "$pcount" -eq "$entries" ] || { echo "the provider does not hold the LDIF" >&2; exit 1; }
fi

# ---- the consumers ---------------------------------------------------------------------------------
start_consumer() { # NAME DIR PORT: sets CPID, CDN, CLOG
  local name=$1 dir=$2 port=$3
  if [ "$name" = slapd ]; then
    CDN="cn=consumer,$suffix"; CLOG="$dir/slapd.log"
    CPID=$(start_slapd "$dir" "$port")
  else
    CDN=$admin; CLOG="$dir/serve.log"
    CPID=$(larch_serve "$dir")
  fi
  PIDS+=("$CPID")
}

one_consumer() { # NAME ROUND
  local name=$1 round=$2 dir="$out/$1-$2" cport curl csn t0 t1 c0 c1 p0 p1 peak rss count
  cport=$(free_port); curl="ldap://127.0.0.1:$cport"
  rm -rf "$dir"; mkdir -p "$dir/db"
  if [ "$name" = slapd ]; then
    slapd_conf "$dir" "cn=consumer,$suffix" "" "$(printf '%s\n' 'dbnosync' "$consumer_indexes" \
      'syncrepl rid=001' "  provider=$purl" '  bindmethod=simple' "  binddn=\"$admin\"" \
      "  credentials=\"$password\"" "  searchbase=\"$suffix\"" '  filter="(objectClass=*)"' '  scope=sub' \
      '  attrs="*,+"' '  schemachecking=off' '  type=refreshAndPersist' '  retry="1 +"' \
      'overlay syncprov')" > "$dir/slapd.conf"
  else
    printf '%s\n' "listen.host = 127.0.0.1" "listen.port = $cport" "logging.access-log = false" \
      "security.admin-password = $admin_hash" \
      "storage.durable-writes = false" "replication.server-id = 2" \
      "replication.consumer.1.provider-url = $purl" "replication.consumer.1.bind-dn = $admin" \
      "replication.consumer.1.bind-password = $password" > "$dir/larch.conf"
  fi
  csn=$(context_csn "$purl" "$admin")

  # 1. the initial refresh
  load "$name-$round refresh"
  p0=$(cpu_ticks "$ppid"); t0=$(date +%s.%N)
  start_consumer "$name" "$dir" "$cport"
  peak=0
  while :; do
    rss=$(rss_anon "$CPID" 2>/dev/null || echo 0); [ "$rss" -gt "$peak" ] && peak=$rss
    local have all=1; have=$(context_csn "$curl" "$CDN")
    for c in $csn; do [[ " $have " == *" $c "* ]] || all=0; done
    [ "$all" = 1 ] && break
    kill -0 "$CPID" 2>/dev/null || { tail "$CLOG" >&2; echo "$name: the consumer exited" >&2; exit 1; }
    [ $(($(date +%s) - ${t0%.*})) -lt 10800 ] || { echo "$name: the refresh took over 3 h" >&2; exit 1; }
    sleep 0.5
  done
  t1=$(date +%s.%N); p1=$(cpu_ticks "$ppid"); c1=$(cpu_ticks "$CPID")
  load "$name-$round refreshed"
  count=$(count_entries "$curl" "$CDN")
  local refresh_s pcpu_s ccpu_s peak_mib
  refresh_s=$(echo "$t1 - $t0" | bc); pcpu_s=$(echo "scale=1; ($p1 - $p0) / $ticks" | bc)
  ccpu_s=$(echo "scale=1; $c1 / $ticks" | bc); peak_mib=$((peak / 1024))
  echo "$name refresh $refresh_s s ($(echo "$count / $refresh_s" | bc) entries/s), consumer CPU $ccpu_s s," \
    "consumer RssAnon peak $peak_mib MiB, provider CPU $pcpu_s s; the consumer holds $count of $entries" \
    | tee "$dir/refresh.txt" >&2
  [ "$count" -eq "$entries" ] || echo "$name: WARNING the consumer holds $count entries, not $entries" >&2

  # 2. lag and sustained changes at two connection counts
  local lags=()
  for c in "$connections" "$many"; do
    load "$name-$round lag $c"
    local line; line=$(lag_run "$pport" "127.0.0.1:$cport" "$CDN" "$c" "$lag_duration" "$dir/lag-$c-ms.txt")
    echo "$name lag at $c connections: $line" | tee -a "$dir/lag.txt" >&2
    # lag: 1234 samples (20.5 modifies/s), 0 missing, 0 errors; ms p50 1.00 p90 2.00 p99 3.00 max 4.00; ...
    lags+=("$(awk '{gsub(/[(,;]/, ""); print $4, $6, $12, $16}' <<< "$line")")
  done

  # 3. catch-up after DOWN_SECONDS down under load
  load "$name-$round down"
  stop "$CPID"
  local down; down=$(lag_run "$pport" - - "$connections" "$down_seconds" "$dir/down.txt")
  csn=$(context_csn "$purl" "$admin")
  t0=$(date +%s.%N)
  start_consumer "$name" "$dir" "$cport"
  await_answer "$curl" "$CDN" "$CPID" "$CLOG"
  local answered; answered=$(echo "$(date +%s.%N) - $t0" | bc)
  await_csn "$curl" "$CDN" "$csn" "$CPID" "$CLOG"
  local caught; caught=$(echo "$(date +%s.%N) - $t0" | bc)
  load "$name-$round caught up"
  echo "$name catch-up after $down_seconds s down ($down): answering after $answered s, caught up after $caught s" \
    | tee "$dir/catch-up.txt" >&2
  local down_rate; down_rate=$(awk '{gsub(/[(]/, ""); print $4}' <<< "$down")
  echo "$name $round $entries $refresh_s $ccpu_s $peak_mib $pcpu_s ${lags[0]} ${lags[1]} ${down_rate:-0} $answered $caught" \
    | awk '{printf "%-6s %s %8d %9.1f %7.1f %8d %7.1f | %8.1f %4d %7.2f %8.2f | %8.1f %4d %7.2f %8.2f | %8.1f %8.2f %8.2f\n",
      $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18}' >> "$out/results.txt"
  stop "$CPID"
  rm -rf "$dir/db"
}

if [ "${CONSUMERS:-1}" != 0 ]; then
echo "name   r  entries refresh_s cpu_s  rss_MiB pcpu_s | mods/s@$connections miss p50_ms p99_ms | mods/s@$many miss p50_ms p99_ms | down_mods/s answer_s caught_s" \
  > "$out/results.txt"
for round in $(seq 1 "$rounds"); do
  for name in slapd larch; do one_consumer "$name" "$round"; done
done
stop "$ppid"
fi

# ---- two Larch multi-provider members against one ----------------------------------------------------
if [ "${MULTI:-1}" != 0 ]; then
  m1="$out/member-1"; m2="$out/member-2"; mkdir -p "$m1" "$m2/db"
  port1=$(free_port); port2=$(free_port)
  multi_n=${MULTI_N:-$n}; ldif=/tmp/larch-repl-$multi_n.ldif
  [ -s "$ldif" ] || nice -n 10 "$here/larch" gen --entries "$multi_n" --out "$ldif" >&2
  member_conf() { # PORT SID OTHER_PORT OTHER_SID
    printf '%s\n' "listen.host = 127.0.0.1" "listen.port = $1" "logging.access-log = false" \
      "security.admin-password = $admin_hash" \
      "replication.server-id = $2" "replication.multi-provider = true" \
      "replication.consumer.$4.provider-url = ldap://127.0.0.1:$3" "replication.consumer.$4.bind-dn = $admin" \
      "replication.consumer.$4.bind-password = $password" "replication.consumer.$4.max-retry-seconds = 10"
  }
  member_conf "$port1" 1 "$port2" 2 > "$m1/larch.conf"
  member_conf "$port2" 2 "$port1" 1 > "$m2/larch.conf"
  load "member-1 import"
  nice -n 10 "$here/larch" import --config "$m1/larch.conf" --data "$m1/db" "$ldif" > "$m1/load.log" 2>&1 \
    || { cat "$m1/load.log" >&2; exit 1; }
  pid1=$(larch_serve "$m1"); PIDS+=("$pid1")
  await_answer "ldap://127.0.0.1:$port1" "$admin" "$pid1" "$m1/serve.log"
  mp_line() { # LABEL CONNECTIONS: one load on member 1, or split over both when LABEL is "pair"
    local label=$1 c=$2 rate
    if [ "$label" = single ]; then
      rate=$(lag_run "$port1" - - "$c" "$lag_duration" "$out/mp-$label-$c.txt" | awk '{gsub(/[(]/, ""); print $4}')
    else
      lag_run "$port1" - - $((c / 2)) "$lag_duration" "$out/mp-$label-$c-1.txt" > "$out/mp-$label-$c-1.line" &
      local l1=$!
      lag_run "$port2" - - $((c - c / 2)) "$lag_duration" "$out/mp-$label-$c-2.txt" > "$out/mp-$label-$c-2.line"
      wait "$l1"
      rate=$(cat "$out/mp-$label-$c-1.line" "$out/mp-$label-$c-2.line" | awk '{gsub(/[(]/, ""); s += $4} END {print s}')
    fi
    local t0 csn1 csn2; t0=$(date +%s.%N)
    while :; do # both members hold the same contextCSN: every change has reached both
      csn1=$(context_csn "ldap://127.0.0.1:$port1" "$admin"); csn2=$(context_csn "ldap://127.0.0.1:$port2" "$admin" 2>/dev/null || true)
      [ "$label" = single ] || [ "$csn1" = "$csn2" ] && break
      [ $(($(date +%s) - ${t0%.*})) -lt 1800 ] || { echo "the members did not converge within 30 min" >&2; exit 1; }
      sleep 0.5
    done
    printf 'multi-provider %-6s %3d connections: %9.1f modifies/s; converged %.1f s after the load\n' "$label" "$c" \
      "$rate" "$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$out/multi-provider.txt" >&2
  }
  for c in "$connections" "$many"; do load "single $c"; mp_line single "$c"; done
  load "member-2 refresh"
  t0=$(date +%s.%N)
  pid2=$(larch_serve "$m2"); PIDS+=("$pid2")
  await_csn "ldap://127.0.0.1:$port2" "$admin" "$(context_csn "ldap://127.0.0.1:$port1" "$admin")" "$pid2" "$m2/serve.log"
  echo "member 2 refreshed from member 1 (Larch to Larch, durable) in $(echo "$(date +%s.%N) - $t0" | bc) s" \
    | tee -a "$out/multi-provider.txt" >&2
  # Member 1's session to member 2 failed while member 2 was empty and retries after its back-off; the
  # pair is measured once both sessions are in persist (member 1's refresh from member 2 skips every entry).
  await_persist "ldap://127.0.0.1:$port2" "$pid2" "$m2/serve.log"
  await_persist "ldap://127.0.0.1:$port1" "$pid1" "$m1/serve.log"
  echo "both members in persist $(echo "$(date +%s.%N) - $t0" | bc) s after member 2 started" \
    | tee -a "$out/multi-provider.txt" >&2
  for c in "$connections" "$many"; do load "pair $c"; mp_line pair "$c"; done
  c1=$(count_entries "ldap://127.0.0.1:$port1" "$admin"); c2=$(count_entries "ldap://127.0.0.1:$port2" "$admin")
  echo "members hold $c1 and $c2 entries ($(grep -c '^dn:' "$ldif") in the LDIF)" | tee -a "$out/multi-provider.txt" >&2
  stop "$pid1"; stop "$pid2"; rm -rf "$m1/db" "$m2/db"
fi

{
  cat "$out/machine.txt"
  echo "consumers (refresh: start to the provider's contextCSN held; cpu_s and rss_MiB: the consumer's;"
  echo "pcpu_s: the provider's during the refresh; mods/s@C: the modify mix back to back from C connections"
  echo "on the provider, each change seen arriving through a sync search on the consumer, lag from the"
  echo "provider's response, ms; catch-up: answer_s and caught_s from the consumer's restart after"
  echo "$down_seconds s down under the mix at $connections connections):"
  [ -f "$out/results.txt" ] && cat "$out/results.txt"
  [ -f "$out/multi-provider.txt" ] && cat "$out/multi-provider.txt"
  echo "load average (1 min) range over the phases: $(awk '{print $(NF - 2)}' "$out/loads.txt" | sort -g | sed -n '1p;$p' | tr '\n' ' ')"
} | tee "$out/summary.txt"
