# Sourced by every tests/cli/<case>.sh (run by run_golden.cmake in a fresh $WORK directory):
# strict variables, a fixed locale, the shipped data as ./data, and fo().
set -u
export LC_ALL=C
ln -s "$DATA" data
# fo ARGS...: echo the command line, run it with stderr into stdout, print its exit status.
fo() {
  printf '$ fanout'
  for a in "$@"; do
    case $a in ''|*[!A-Za-z0-9_,./=:%+-]*) printf " '%s'" "$a" ;; *) printf ' %s' "$a" ;; esac
  done
  echo
  "$FANOUT" "$@" 2>&1
  echo "exit=$?"
}
