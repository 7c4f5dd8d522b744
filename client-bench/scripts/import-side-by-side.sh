#!/usr/bin/env bash
# Bulk loads timed side by side in one sitting: slapadd -q into slapd's back-mdb (slapd-yardstick.sh)
# and ./larch import (larch-yardstick.sh), the same LDIF and the same indexes (Larch's defaults, which
# the slapd yardstick copies), alternated ROUNDS times (slapd, Larch, slapd, Larch, ...), each into an
# empty store, with the page cache holding the LDIF for both (it is read once before the first load).
#
#   client-bench/scripts/import-side-by-side.sh DATA.ldif OUT
#
# Each load's wall-clock, user and system CPU seconds and peak resident memory come from
# /usr/bin/time; OUT/loads.txt has one line per load, OUT/summary.txt the median of each side and
# Larch's wall-clock time over slapadd's; OUT/slapd.conf and OUT/larch.conf are the configurations
# the loads used (slapd with tool-threads set to the core count, as slapd.conf(5) advises).
# Environment: ROUNDS (2). The stores are left in OUT/slapd and OUT/larch (delete them when done).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 DATA.ldif OUT" >&2; exit 2; }
data=$1; out=$(mkdir -p "$2" && cd "$2" && pwd)
[ -r "$data" ] || { echo "cannot read $data" >&2; exit 2; }
rounds=${ROUNDS:-2}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive number: $rounds" >&2; exit 2; }
scripts=$(cd "$(dirname "$0")" && pwd)
entries=$(grep -c '^dn:' "$data") # also brings the LDIF into the page cache for both sides

: > "$out/loads.txt"
for round in $(seq 1 "$rounds"); do
  for side in slapd larch; do
    # the port is never opened: LOAD_ONLY stops before the server starts
    LOAD_ONLY=1 "$scripts/$side-yardstick.sh" "$out/$side" "$data" 1 > /dev/null
    read -r wall user sys rss < "$out/$side/load-time.txt"
    size=$(du -sk "$out/$side/$([ $side = slapd ] && echo db || echo data)" | cut -f1)
    echo "$side $round $wall $user $sys $rss $size" | tee -a "$out/loads.txt"
  done
done
cp "$out/slapd/slapd.conf" "$out/slapd.conf"; cp "$out/larch/larch.conf" "$out/larch.conf"

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
column() { awk -v s="$1" -v c="$2" '$1 == s {print $c}' "$out/loads.txt" | median; } # SIDE COLUMN
{
  echo "bulk load of $data ($entries entries), $rounds round(s) alternated, $(nproc) cores"
  for side in slapd larch; do
    printf '%-6s wall %6.1f s  user %6.1f s  sys %5.1f s  peak RSS %5d MiB  on disk %5d MiB\n' "$side" \
      "$(column $side 3)" "$(column $side 4)" "$(column $side 5)" \
      "$(( $(column $side 6 | cut -d. -f1) / 1024 ))" "$(( $(column $side 7 | cut -d. -f1) / 1024 ))"
  done
  echo "larch / slapadd wall-clock: $(awk -v l="$(column larch 3)" -v s="$(column slapd 3)" 'BEGIN {printf "%.2f", l / s}')"
} | tee "$out/summary.txt"
