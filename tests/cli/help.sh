# fanout --help (and -h, help) and each command's --help, which print the option defaults.
# `fanout --version` changes with every release, so only its shape is checked.
set -u
export LC_ALL=C
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

fo --help
"$FANOUT" -h | cmp - <("$FANOUT" --help) && echo "-h is --help"
"$FANOUT" help | cmp - <("$FANOUT" --help) && echo "help is --help"
"$FANOUT" --version | sed -E 's/^fanout [0-9]+\.[0-9]+\.[0-9]+.*$/fanout X.Y.Z/'
for c in import info verify sample bench; do
  fo "$c" --help
done
