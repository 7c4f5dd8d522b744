#!/usr/bin/env bash
# Replication from Larch against replication from OpenLDAP slapd, one sitting, slapd as the consumer
# in both cases (issue 31's closing measurement):
#
#   client-bench/scripts/replication-yardstick.sh [N] [OUT]     # N people (default 1000000), OUT under /tmp
#   ROUNDS=1 LAG_DURATION=30 client-bench/scripts/replication-yardstick.sh 20000 /tmp/repl-20k
#
# For each round (ROUNDS, default 2) the providers take turns, slapd then Larch, on the same LDIF
# (`./larch gen --entries N`, kept as /tmp/larch-repl-N.ldif for later runs):
#   slapd:  back-mdb, syncprov, serverID 1, loaded by `slapadd -q -S 1 -w` (entryCSNs carry sid 1 and
#           the contextCSN is written: see SlapdServer.provider's javadoc), started with -s 0 and
#           loglevel 0, `threads 16` and `threadqueues 1` (slapd.conf(5): the default pool of 16, one
#           queue "adequate for up to 8 CPU cores"), durable commits (no dbnosync).
#   Larch:  `./larch import`, then `./larch serve` (durable writes, group commit, access log off),
#           replication settings at their defaults, the administrator as the consumer's identity.
#   The same indexes on both: objectClass eq; uid, mail, cn, sn, givenName eq+sub; member,
#   uniqueMember, manager, secretary eq (Larch's defaults, which also index memberOf), and on slapd
#   entryUUID,entryCSN eq, which syncprov searches by (Larch keeps its own by-CSN change log).
# Then, against that provider:
#   1. refresh: a fresh slapd consumer (back-mdb, dbnosync as the test harness's, index
#      entryUUID,entryCSN eq, syncrepl refreshAndPersist attrs="*,+" as the provider's rootdn/admin)
#      starts; the time is from its start to its suffix's contextCSN equal to the provider's (a base
#      search every 0.5 s; slapd writes it when the refresh is done), then every entry is counted.
#      The provider's CPU (utime+stime of /proc/PID/stat) is taken before and after, its RssAnon
#      (/proc/PID/status) every 0.5 s in between: the peak is reported.
#   2. lag: ReplicationLag.java (next to this script; read its javadoc) drives the harness's modify
#      mix (replace a random person's description) from CONNECTIONS (8) connections for LAG_WARMUP
#      (10) + LAG_DURATION (60) seconds, back to back (LAG_RATE 0) or paced to LAG_RATE modifies/s in
#      all, each modify writing a value no other writes; the consumer also runs syncprov, and a
#      refreshAndPersist sync search on it for (description=lag*) sees each change as the consumer
#      commits it. Lag = provider's response received -> change seen from the consumer, per modify
#      (negative when the consumer shows it before the response arrives: counted as "early"), and
#      beside it request sent -> change seen (send_p50, send_p99: includes the provider's latency).
# Everything runs under `nice -n 10`. OUT gets results.txt (one line a run; lag_cpu_s is the provider's
# CPU during the lag phase), summary.txt (medians per provider, and the lag over all rounds' samples
# pooled), each run's directory (configurations, logs, lag samples), machine.txt and loads.txt.
set -euo pipefail
n=${1:-1000000}
out=${2:-/tmp/replication-yardstick-$n-$(date +%Y%m%d-%H%M%S)}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number, not '$n'" >&2; exit 2; }
case "$out" in /tmp/*) ;; *) echo "OUT must be under /tmp, not '$out'" >&2; exit 2 ;; esac
[ -x /usr/sbin/slapd ] && [ -x /usr/sbin/slapadd ] || { echo "slapd is not installed (apt-get install -y slapd)" >&2; exit 2; }
command -v ldapsearch >/dev/null || { echo "ldapsearch is not installed (apt-get install -y ldap-utils)" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
scripts="$here/client-bench/scripts"
rounds=${ROUNDS:-2}; connections=${CONNECTIONS:-8}
lag_warmup=${LAG_WARMUP:-10}; lag_duration=${LAG_DURATION:-60}; lag_rate=${LAG_RATE:-0}
suffix="dc=example,dc=com"; admin="cn=admin,$suffix"; password=secret
consumer_dn="cn=consumer,$suffix"
ticks=$(getconf CLK_TCK)
mkdir -p "$out"

ldif=/tmp/larch-repl-$n.ldif
[ -s "$ldif" ] || nice -n 10 "$here/larch" gen --entries "$n" --out "$ldif" >&2 # builds Larch when stale
entries=$(grep -c '^dn:' "$ldif")
unboundid=$(tr ':' '\n' < "$here/target/run/current/client-bench.classpath" | grep unboundid-ldapsdk | head -n1)
[ -r "$unboundid" ] || { echo "no unboundid-ldapsdk jar in the client-bench class path" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

{
  echo "date: $(date -u +%FT%TZ)  N: $n people, $entries entries  rounds: $rounds"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
  echo "slapd: $(/usr/sbin/slapd -VV 2>&1 | head -n1)"
  echo "larch: $(git -C "$here" rev-parse --short HEAD), $("$java" -version 2>&1 | head -n1)"
  echo "lag: $connections connections, warm-up $lag_warmup s, $lag_duration s measured, rate $lag_rate (0: back to back)"
} | tee "$out/machine.txt" >&2

# shellcheck source=replication-lib.sh
source "$scripts/replication-lib.sh"

start_provider() { # NAME DIR PORT: loads and starts it; sets PROVIDER_PID, PROVIDER_DN, LOAD_S
  local name=$1 dir=$2 port=$3 t0
  mkdir -p "$dir/db"
  t0=$(date +%s.%N)
  if [ "$name" = slapd ]; then
    slapd_conf "$dir" "$admin" "serverID 1" "$(printf '%s\n' \
      'index uid,mail,cn,sn,givenName eq,sub' 'index member,uniqueMember,manager,secretary eq' \
      'index entryUUID,entryCSN eq' 'overlay syncprov' 'syncprov-checkpoint 100 10' 'syncprov-sessionlog 10000')" \
      > "$dir/slapd.conf"
    nice -n 10 /usr/sbin/slapadd -q -S 1 -w -f "$dir/slapd.conf" -l "$ldif" > "$dir/load.log" 2>&1 \
      || { cat "$dir/load.log" >&2; exit 1; }
    LOAD_S=$(echo "$(date +%s.%N) - $t0" | bc)
    PROVIDER_PID=$(start_slapd "$dir" "$port")
  else
    printf '%s\n' "listen.host = 127.0.0.1" "listen.port = $port" "logging.access-log = false" \
      "security.admin-password = $admin_hash" > "$dir/larch.conf"
    nice -n 10 "$here/larch" import --config "$dir/larch.conf" --data "$dir/db" "$ldif" > "$dir/load.log" 2>&1 \
      || { cat "$dir/load.log" >&2; exit 1; }
    LOAD_S=$(echo "$(date +%s.%N) - $t0" | bc)
    nice -n 10 "$here/larch" serve --config "$dir/larch.conf" --data "$dir/db" \
      > "$dir/serve.log" 2>&1 &
    PROVIDER_PID=$! # ./larch execs the JVM: this is the server's PID
  fi
  PIDS+=("$PROVIDER_PID")
  PROVIDER_DN=$admin
  await_answer "ldap://127.0.0.1:$port" "$admin" "$PROVIDER_PID" "$dir/$([ "$name" = slapd ] && echo slapd || echo serve).log"
}

one_run() { # NAME ROUND
  local name=$1 round=$2 dir="$out/$1-$2" pport cport purl curl csn cpid t0 t1 c0 c1 peak rss count lag
  pport=$(free_port); cport=$(free_port)
  purl="ldap://127.0.0.1:$pport"; curl="ldap://127.0.0.1:$cport"
  rm -rf "$dir"; mkdir -p "$dir/consumer/db"
  load "$name-$round load"
  start_provider "$name" "$dir/provider" "$pport"
  echo "$name round $round: loaded $entries entries in $LOAD_S s, provider pid $PROVIDER_PID on $purl" >&2
  csn=$(context_csn "$purl" "$PROVIDER_DN")
  [ -n "$csn" ] || { echo "$name: the provider shows no contextCSN" >&2; exit 1; }
  slapd_conf "$dir/consumer" "$consumer_dn" "" "$(printf '%s\n' 'dbnosync' 'index entryUUID,entryCSN eq' \
    'syncrepl rid=001' "  provider=$purl" '  bindmethod=simple' "  binddn=\"$PROVIDER_DN\"" \
    "  credentials=\"$password\"" "  searchbase=\"$suffix\"" '  filter="(objectClass=*)"' '  scope=sub' \
    '  attrs="*,+"' '  schemachecking=off' '  type=refreshAndPersist' '  retry="1 +"' \
    'overlay syncprov')" > "$dir/consumer/slapd.conf"

  # 1. the initial refresh
  load "$name-$round refresh"
  peak=$(rss_anon "$PROVIDER_PID"); echo "provider RssAnon before the refresh: $peak KiB" > "$dir/refresh.txt"
  c0=$(cpu_ticks "$PROVIDER_PID"); t0=$(date +%s.%N)
  cpid=$(start_slapd "$dir/consumer" "$cport"); PIDS+=("$cpid")
  while :; do
    rss=$(rss_anon "$PROVIDER_PID"); [ "$rss" -gt "$peak" ] && peak=$rss
    [ "$(context_csn "$curl" "$consumer_dn")" = "$csn" ] && break
    kill -0 "$cpid" 2>/dev/null || { tail "$dir/consumer/slapd.log" >&2; echo "$name: the consumer exited" >&2; exit 1; }
    [ $(($(date +%s) - ${t0%.*})) -lt 7200 ] || { echo "$name: the refresh took over 2 h" >&2; exit 1; }
    sleep 0.5
  done
  t1=$(date +%s.%N); c1=$(cpu_ticks "$PROVIDER_PID")
  load "$name-$round refreshed"
  count=$(ldapsearch -x -LLL -o ldif-wrap=no -H "$curl" -D "$consumer_dn" -w "$password" -b "$suffix" -z 0 1.1 | grep -c '^dn:')
  local refresh_s cpu_s peak_mib consumer_cpu_s
  refresh_s=$(echo "$t1 - $t0" | bc); cpu_s=$(echo "scale=2; ($c1 - $c0) / $ticks" | bc)
  peak_mib=$((peak / 1024)); consumer_cpu_s=$(echo "scale=2; $(cpu_ticks "$cpid") / $ticks" | bc)
  echo "refresh $refresh_s s, provider CPU $cpu_s s, provider RssAnon peak $peak_mib MiB, consumer CPU $consumer_cpu_s s (with the count), consumer holds $count of $entries" \
    | tee -a "$dir/refresh.txt" >&2
  [ "$count" -eq "$entries" ] || echo "$name: WARNING the consumer holds $count entries, not $entries" >&2

  # 2. the lag under the modify mix
  load "$name-$round lag"
  c0=$(cpu_ticks "$PROVIDER_PID")
  lag=$(nice -n 10 "$java" -Xmx512m -cp "$unboundid" "$scripts/ReplicationLag.java" "127.0.0.1:$pport" "$PROVIDER_DN" \
    "$password" "127.0.0.1:$cport" "$consumer_dn" "$password" "$ldif" "$connections" "$lag_warmup" "$lag_duration" \
    "$lag_rate" "$dir/lag-ms.txt" 2> "$dir/lag.log" | tail -n1)
  c1=$(cpu_ticks "$PROVIDER_PID")
  load "$name-$round lagged"
  local lag_cpu_s; lag_cpu_s=$(echo "scale=2; ($c1 - $c0) / $ticks" | bc)
  echo "$lag; provider CPU $lag_cpu_s s" | tee "$dir/lag.txt" >&2
  # lag: 1234 samples (20.5 modifies/s), 0 missing, 0 errors; ms p50 1.00 p90 2.00 p99 3.00 max 4.00;
  #   5 seen before the response; from the request sent: p50 1.50 p99 3.50
  local p50 p99 samples rate missing early send_p50 send_p99
  read -r samples rate missing p50 p99 early send_p50 send_p99 \
    <<< "$(awk '{gsub(/[(,;]/, ""); print $2, $4, $6, $12, $16, $19, $29, $31}' <<< "$lag")"
  printf '%-6s %s %8d %9.1f %8.1f %11d %10.1f %7d %8.1f %7d %8.2f %8.2f %9.1f %6d %9.2f %9.2f\n' "$name" "$round" \
    "$entries" "$refresh_s" "$cpu_s" "$peak_mib" "$consumer_cpu_s" "$samples" "$rate" "$missing" "$p50" "$p99" \
    "$lag_cpu_s" "$early" "$send_p50" "$send_p99" >> "$out/results.txt"
  stop "$cpid"; stop "$PROVIDER_PID"
  rm -rf "$dir/provider/db" "$dir/consumer/db" # a million entries take gigabytes; the configurations stay
}

header='name   r  entries refresh_s    cpu_s rssanon_MiB cons_cpu_s samples   mods/s missing  lag_p50  lag_p99 lag_cpu_s  early  send_p50  send_p99'
echo "$header" > "$out/results.txt"
for round in $(seq 1 "$rounds"); do
  for name in slapd larch; do one_run "$name" "$round"; done
done

median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
{
  echo "medians over $rounds round(s), N = $entries entries; refresh: time to the consumer's contextCSN = provider's,"
  echo "provider CPU s and peak RssAnon during it; lag: provider response -> change seen from the consumer, ms"
  printf '%-6s %10s %8s %12s %10s %10s %10s\n' provider refresh_s cpu_s rssanon_MiB mods/s lag_p50 lag_p99
  for name in slapd larch; do
    col() { awk -v n="$name" -v c="$1" '$1 == n {print $c}' "$out/results.txt" | median; }
    printf '%-6s %10.1f %8.1f %12.0f %10.1f %10.2f %10.2f\n' "$name" "$(col 4)" "$(col 5)" "$(col 6)" "$(col 9)" "$(col 11)" "$(col 12)"
  done
  echo "lag over every round's samples pooled (a median of two rounds' p99 is their mean, and one noisy round moves it):"
  for name in slapd larch; do
    for from in response sent; do
      ext=""; [ $from = sent ] && ext=.from-send
      cat "$out/$name"-*/lag-ms.txt$ext | sort -g | awk -v n="$name" -v f="$from" '{v[NR] = $1}
        END {printf "%-6s from the %-8s %d samples, ms p50 %.2f p90 %.2f p99 %.2f\n", n, f, NR, v[int(NR * 0.5 + 0.999)], v[int(NR * 0.9 + 0.999)], v[int(NR * 0.99 + 0.999)]}'
    done
  done
  echo "load average (1, 5, 15 min) at each phase: see loads.txt; range of the 1-minute figure:"
  awk '{print $(NF - 2)}' "$out/loads.txt" | sort -g | sed -n '1p;$p' | tr '\n' ' '; echo
} | tee "$out/summary.txt"
