#!/usr/bin/env bash
# How long a modify DN of an entry with many descendants takes on two servers, alternated: adds the
# same subtree to both (an organizationalUnit under BASE with DESCENDANTS people), then renames its
# top there and back, and a leaf's RDN (what a rename costs a server when nothing moves with it).
# Each round sends, per server and kind, one ldapmodify of RENAMES renames on one bound connection
# and times it from start to exit, less the time of the same ldapmodify with nothing to do (its start
# and its bind, timed just before): a rename's time is the rest over RENAMES. The bind must not count:
# BIND_DN's password is hashed differently on each server (Larch's administrator password with
# PBKDF2, about 20 ms a bind here, which over 40 renames had added 0.5 ms to each). A first round per
# server is a warm-up and not counted. The subtree is deleted again at the end (KEEP=1 leaves it).
#
#   client-bench/scripts/rename-side-by-side.sh OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR]
#   ... /tmp/rename slapd:3890:"$(cat /tmp/yard/slapd.pid)":/tmp/yard larch:3891:"$(cat /tmp/lyard/larch.pid)":/tmp/lyard
#
# Environment: HOST (127.0.0.1), BASE (dc=example,dc=com), BIND_DN, BIND_PASSWORD
# (cn=admin,dc=example,dc=com, secret), DESCENDANTS (10000), RENAMES (20, an even number), ROUNDS (3),
# KEEP (0). OUT/summary.txt gets one line per kind of rename: each side's median milliseconds per
# rename over the rounds, and B's over A's; OUT/fixed-NAME.ms the milliseconds of each round's
# ldapmodify that did nothing (start and bind), which were taken off. After each batch a descendant is read under the subtree's
# name on that server; a rename that left it behind fails the script.
set -euo pipefail
usage() { echo "usage: $0 OUT NAME:PORT:PID[:DIR] NAME:PORT:PID[:DIR]" >&2; exit 2; }
[ $# -eq 3 ] || usage
out=$1; a=$2; b=$3
host=${HOST:-127.0.0.1}; base=${BASE:-dc=example,dc=com}
bind_dn=${BIND_DN:-cn=admin,dc=example,dc=com}; bind_password=${BIND_PASSWORD:-secret}
descendants=${DESCENDANTS:-10000}; renames=${RENAMES:-20}; rounds=${ROUNDS:-3}; keep=${KEEP:-0}
for n in "$descendants" "$renames" "$rounds"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "DESCENDANTS, RENAMES and ROUNDS must be positive numbers: $n" >&2; exit 2; }
done
[ $((renames % 2)) = 0 ] || { echo "RENAMES must be even (there and back): $renames" >&2; exit 2; }
command -v ldapmodrdn > /dev/null || { echo "ldapmodrdn is missing: apt-get install -y ldap-utils" >&2; exit 1; }

# shellcheck source=sides-lib.sh
source "$(dirname "$0")/sides-lib.sh"
parse_sides "$a" "$b"
mkdir -p "$out"
record_settings "ldapmodify (ldap-utils), a subtree of $descendants people under one organizationalUnit,\
 $rounds rounds of $renames renames (there and back) of its top and of a leaf on each server, alternated,\
 after a warm-up round, against $host; $(nproc) cores"

top=ou=rename-$$
leaf=uid=rename-leaf-$$
people=rename-$$ # uids of their own: a server may keep uid unique (Larch does by default)
ldap() { # TOOL PORT ARGS...: as BIND_DN
  local tool=$1 port=$2; shift 2
  "$tool" -x -H "ldap://$host:$port" -D "$bind_dn" -w "$bind_password" "$@"
}

{
  printf 'dn: %s,%s\nobjectClass: organizationalUnit\nou: %s\n\n' "$top" "$base" "${top#ou=}"
  for i in $(seq 1 "$descendants"); do
    printf 'dn: uid=%s-%d,%s,%s\nobjectClass: inetOrgPerson\nuid: %s-%d\ncn: Rename %d\nsn: %d\n\n' \
      "$people" "$i" "$top" "$base" "$people" "$i" "$i" "$i"
  done
  printf 'dn: %s,%s\nobjectClass: inetOrgPerson\nuid: %s\ncn: Leaf\nsn: Leaf\n\n' "$leaf" "$base" "${leaf#uid=}"
} > "$out/subtree.ldif"

clean_up() {
  [ "$keep" = 1 ] && return
  local port
  for port in "$port_a" "$port_b"; do
    # -z max: the subtree is larger than a search's default size limit
    ldap ldapdelete "$port" -r -z max "$top,$base" > /dev/null 2>&1 \
      || ldap ldapdelete "$port" -r -z max "$top-b,$base" > /dev/null 2>&1 || true
    ldap ldapdelete "$port" "$leaf,$base" > /dev/null 2>&1 || ldap ldapdelete "$port" "$leaf-b,$base" > /dev/null 2>&1 || true
  done
}
trap clean_up EXIT
for port in "$port_a" "$port_b"; do
  ldap ldapadd "$port" -f "$out/subtree.ldif" > "$out/add-$port.log" 2>&1 \
    || { echo "adding the subtree on port $port failed; see $out/add-$port.log" >&2; exit 1; }
done

batch() { # OUT FROM: RENAMES modify DN records renaming BASE's FROM to FROM-b and back
  local i
  for i in $(seq 1 $((renames / 2))); do
    printf 'dn: %s,%s\nchangetype: modrdn\nnewrdn: %s-b\ndeleteoldrdn: 1\n\n' "$2" "$base" "$2"
    printf 'dn: %s-b,%s\nchangetype: modrdn\nnewrdn: %s\ndeleteoldrdn: 1\n\n' "$2" "$base" "$2"
  done > "$1"
}
batch "$out/subtree-renames.ldif" "$top"
batch "$out/leaf-renames.ldif" "$leaf"
: > "$out/nothing.ldif"
idle_ns() { # PORT: nanoseconds of an ldapmodify that starts, binds and has nothing to send
  local t0 t1
  t0=$(date +%s%N)
  ldap ldapmodify "$1" -f "$out/nothing.ldif" > /dev/null
  t1=$(date +%s%N)
  echo $((t1 - t0))
}
per_rename() { # PORT KIND CHECK IDLE_NS: runs the batch, prints milliseconds per rename beyond IDLE_NS, checks CHECK exists after
  local t0 t1
  t0=$(date +%s%N)
  ldap ldapmodify "$1" -f "$out/$2-renames.ldif" > /dev/null
  t1=$(date +%s%N)
  ldap ldapsearch "$1" -LLL -b "$3" -s base 1.1 > /dev/null \
    || { echo "after the $2 renames on port $1, $3 is missing" >&2; exit 1; }
  # Never below zero: with a handful of renames the tool's own jitter can exceed their time.
  awk -v ns=$((t1 - t0 - $4)) -v n="$renames" 'BEGIN {printf "%.2f\n", (ns > 0 ? ns : 0) / 1e6 / n}'
}
for round in $(seq 0 "$rounds"); do
  for s in a b; do
    if [ $s = a ]; then name=$name_a port=$port_a; else name=$name_b port=$port_b; fi
    idle=$(idle_ns "$port")
    subtree_ms=$(per_rename "$port" subtree "uid=$people-$descendants,$top,$base" "$idle")
    leaf_ms=$(per_rename "$port" leaf "$leaf,$base" "$idle")
    [ "$round" = 0 ] && continue # the warm-up
    echo "$subtree_ms" >> "$out/subtree-$name.ms"
    echo "$leaf_ms" >> "$out/leaf-$name.ms"
    awk -v ns="$idle" 'BEGIN {printf "%.2f\n", ns / 1e6}' >> "$out/fixed-$name.ms"
  done
done
for kind in subtree leaf; do
  ms_a=$(median < "$out/$kind-$name_a.ms"); ms_b=$(median < "$out/$kind-$name_b.ms")
  printf '%-8s %s %8.2f ms | %s %8.2f ms | %s/%s %.2f\n' "$kind" "$name_a" "$ms_a" "$name_b" "$ms_b" \
    "$name_b" "$name_a" "$(awk -v a="$ms_a" -v b="$ms_b" 'BEGIN {print (a > 0 ? b / a : 0)}')" | tee -a "$out/summary.txt"
done
