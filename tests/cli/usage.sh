# Usage errors exit with status 2 and print the problem and a hint on stderr: no command, an
# unknown command, an unknown option, an option without its value, a missing operand.
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

fo
fo frobnicate
fo --frobnicate
for c in import info verify sample bench; do
  fo "$c" --frobnicate x
done
fo import -x in.txt -o out
fo sample ds --fanout
fo bench ds --fanout
fo info
fo verify
fo sample
fo bench
echo "== usage errors print nothing on stdout"
"$FANOUT" frobnicate 2>/dev/null | wc -c
"$FANOUT" info 2>/dev/null | wc -c
