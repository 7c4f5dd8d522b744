# Shell functions the two-server comparisons share (side-by-side.sh, unboundid-crosscheck.sh; sourced,
# not run). A side is NAME:PORT:PID[:DIR], DIR being where slapd-yardstick.sh or larch-yardstick.sh set
# the server up and recorded how (settings.txt and the configuration files). They read and set the
# caller's variables: out (the results directory); name_a, port_a, pid_a, dir_a (and _b).

parse_side() { # NAME:PORT:PID[:DIR] a|b: checks it, then sets name_a, port_a, pid_a, dir_a (or _b)
  local spec=$1 name port pid dir
  IFS=: read -r name port pid dir <<< "$spec"
  [[ -n "$name" && "$port" =~ ^[0-9]+$ && "$pid" =~ ^[0-9]+$ ]] \
    || { echo "$spec: expected NAME:PORT:PID[:DIR], e.g. slapd:3890:12345:/tmp/yard" >&2; exit 2; }
  [ -z "$dir" ] || [ -r "$dir/settings.txt" ] \
    || { echo "$spec: $dir/settings.txt is missing (DIR is the directory a yardstick script set the server up in)" >&2; exit 2; }
  kill -0 "$pid" 2>/dev/null || { echo "$spec: no process $pid" >&2; exit 2; }
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$spec: nothing listens on 127.0.0.1:$port" >&2; exit 2; }
  printf -v "name_$2" %s "$name"
  printf -v "port_$2" %s "$port"
  printf -v "pid_$2" %s "$pid"
  printf -v "dir_$2" %s "$dir"
}

# Both sides parsed, with different names and, when both recorded their settings, logging the same
# way: a server that logs each operation against one that logs nothing measures the log, not the server.
parse_sides() { # SIDE_A SIDE_B
  parse_side "$1" a
  parse_side "$2" b
  [ "$name_a" != "$name_b" ] || { echo "the two sides need different names" >&2; exit 2; }
  local logging_a logging_b
  logging_a=$(recorded_logging "$dir_a"); logging_b=$(recorded_logging "$dir_b")
  [ -z "$logging_a" ] || [ -z "$logging_b" ] || [ "$logging_a" = "$logging_b" ] \
    || { echo "$name_a logs $logging_a, $name_b logs $logging_b: a comparison needs both off or both file (LOGGING)" >&2; exit 2; }
}
recorded_logging() { [ -z "$1" ] || sed -n 's/^logging: \([a-z]*\).*/\1/p' "$1/settings.txt"; } # DIR: off, file or nothing

# Writes OUT/settings.txt (and prints it): LOAD, one line saying how the load was made, then each
# side's recorded settings, whose files are copied to OUT/NAME-settings/.
record_settings() { # LOAD
  {
    echo "== load: $1"
    record_side "$name_a" "$dir_a"
    record_side "$name_b" "$dir_b"
  } | tee "$out/settings.txt"
}
record_side() { # NAME DIR
  if [ -z "$2" ]; then
    echo "== $1: no settings recorded (NAME:PORT:PID:DIR names the directory of slapd-yardstick.sh or larch-yardstick.sh)"
    return
  fi
  mkdir -p "$out/$1-settings"
  local f
  for f in settings.txt slapd.conf larch.conf effective.conf sweep.txt; do
    [ ! -e "$2/$f" ] || cp "$2/$f" "$out/$1-settings/"
  done
  echo "== $1 (set up in $2; its files in $1-settings/)"
  cat "$2/settings.txt"
}

median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# CPU placement (side-by-side.sh's SERVER_CPUS). A CPU list is what taskset -c takes: 0, 0-3, 0,2-5.
expand_cpus() { # LIST: one CPU number a line
  local part from to
  IFS=, read -ra parts <<< "$1"
  for part in "${parts[@]}"; do
    [[ "$part" =~ ^([0-9]+)(-([0-9]+))?$ ]] || { echo "not a CPU list: $1 (e.g. 0, 0-3 or 0,2-5)" >&2; return 2; }
    from=${BASH_REMATCH[1]}; to=${BASH_REMATCH[3]:-$from}
    seq "$from" "$to"
  done
}
cpus_left_for_load() { # SERVER_CPUS: prints the online CPUs not in it as a list, or refuses
  local online servers left
  online=$(expand_cpus "$(cat /sys/devices/system/cpu/online)")
  servers=$(expand_cpus "$1") || exit 2
  while read -r c; do
    grep -qx "$c" <<< "$online" || { echo "SERVER_CPUS=$1: CPU $c is not online (online: $(cat /sys/devices/system/cpu/online))" >&2; exit 2; }
  done <<< "$servers"
  left=$(grep -vxF -f <(echo "$servers") <<< "$online" | paste -sd, -)
  [ -n "$left" ] || { echo "SERVER_CPUS=$1 leaves no CPU for the load" >&2; exit 2; }
  echo "$left"
}
pinned=() # "PID LIST" of each server pinned, with the CPU list it had before
pin_servers() { # LIST PID...: every thread of each process to LIST, remembering what each had
  local list=$1 pid before; shift
  for pid in "$@"; do
    before=$(taskset -c -p "$pid" | sed 's/.*: //')
    taskset -a -c -p "$list" "$pid" > /dev/null
    pinned+=("$pid $before")
  done
}
unpin_servers() { # gives each pinned server the CPUs it had before pin_servers (last pinned first:
  local i entry    # a process named twice gets what it had before the first)
  for ((i = ${#pinned[@]} - 1; i >= 0; i--)); do
    entry=${pinned[$i]}
    taskset -a -c -p "${entry#* }" "${entry%% *}" > /dev/null 2>&1 || true
  done
  pinned=()
}
