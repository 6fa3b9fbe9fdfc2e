# fanout topo: the worker runtime's CPU plan on synthetic hwloc topologies (never the host's,
# which differs between machines): adjacent and round-robin sibling numbering, two NUMA nodes
# (a split that avoids straddling, and one that cannot), no SMT with a remainder, more ranks
# than cores (refused, then shared), JSON; failures (exit 1) and usage errors (exit 2).
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

echo "== plans"
fo topo --procs 2 --threads 4 --synthetic "pack:2 core:4 pu:2"
fo topo --procs 2 --threads 4 --synthetic "pack:2 core:4 pu:2(indexes=2*8:1*2)"
fo topo --procs 3 --synthetic "core:4 pu:2(indexes=0,4,1,5,2,6,3,7)"
fo topo --procs 4 --threads 2 --synthetic "pack:2 numa:1 core:3 pu:2"
fo topo --procs 3 --threads 2 --synthetic "numa:2 core:4 pu:2"
fo topo --procs 4 --threads 1 --synthetic "core:6 pu:1"
fo topo --procs 6 --threads 1 --synthetic "core:4 pu:2" --allow-shared-cores
echo "== json"
fo topo --procs 2 --threads 8 --synthetic "pack:2 core:4 pu:2(indexes=2*8:1*2)" --json
fo topo --procs 4 --synthetic "pack:2 numa:1 core:3 pu:2" --json
echo "== exit 1"
fo topo --procs 9 --synthetic "pack:2 core:4 pu:2"
fo topo --procs 2 --synthetic "foo:3"
fo topo --procs 2 --topology missing.xml
printf '<not a topology>\n' > bad.xml
fo topo --procs 2 --topology bad.xml
echo "== exit 2"
fo topo
fo topo --synthetic "core:2"
fo topo --procs 0 --synthetic "core:2"
fo topo --procs x
fo topo --procs 2 --threads 0
fo topo --procs 2 --topology a.xml --synthetic "core:2"
fo topo --procs 2 extra
fo topo --procs 2 --bogus
fo topo --procs
echo "== help"
fo topo --help
