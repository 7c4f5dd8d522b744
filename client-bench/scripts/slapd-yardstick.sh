#!/usr/bin/env bash
# Loads an LDIF into a private OpenLDAP slapd (back-mdb) and starts it on a loopback port, with the
# same indexes as Larch's defaults, so the two servers can be measured side by side.
#
#   client-bench/scripts/slapd-yardstick.sh DIR DATA.ldif PORT   # prints the slapd PID
#   kill "$(cat DIR/slapd.pid)"                                  # stop it
#
# Needs: apt-get install -y slapd (the system instance it starts is not used).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DIR DATA.ldif PORT" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd); ldif=$2; port=$3
[ -x /usr/sbin/slapd ] || { echo "slapd is not installed (apt-get install -y slapd)" >&2; exit 2; }
[ -r "$ldif" ] || { echo "cannot read $ldif" >&2; exit 2; }
rm -rf "$dir/db"; mkdir -p "$dir/db"
module=""
[ -e /usr/lib/ldap/back_mdb.la ] && module=$'modulepath /usr/lib/ldap\nmoduleload back_mdb'
cat > "$dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
$module
pidfile $dir/slapd.pid
database mdb
suffix "dc=example,dc=com"
rootdn "cn=admin,dc=example,dc=com"
rootpw secret
directory $dir/db
maxsize 17179869184
index objectClass eq
index mail,uid,cn,sn,givenName eq,sub
index member eq
CONF
start=$(date +%s.%N)
/usr/sbin/slapadd -q -f "$dir/slapd.conf" -l "$ldif" > "$dir/slapadd.log" 2>&1 \
  || { cat "$dir/slapadd.log" >&2; exit 1; }
echo "slapadd: $(grep -c '^dn:' "$ldif") entries in $(echo "$(date +%s.%N) - $start" | bc) s; $(du -sh "$dir/db" | cut -f1) on disk" >&2
/usr/sbin/slapd -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$port/" > "$dir/slapd.log" 2>&1
for _ in $(seq 1 50); do [ -s "$dir/slapd.pid" ] && break; sleep 0.1; done
cat "$dir/slapd.pid"
