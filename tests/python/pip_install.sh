#!/usr/bin/env bash
# tests/python/pip_install.sh SRC PYTHON BUILD_PY: `pip install .` as docs/PYTHON.md tells a user
# to (CTest python_pip_install, labels python;slow). SRC is the source tree, PYTHON the system
# interpreter (/usr/bin/python3), BUILD_PY the build tree's python/ directory (its module is
# the reference). In a temporary directory: copy SRC (without build directories, so the
# checkout is not touched), make a venv with --system-site-packages, `pip install
# --no-build-isolation --no-index .` in the copy (offline, Debian's setuptools), then from
# another directory, without PYTHONPATH: `import fanout` comes from the venv's site-packages
# with its extension, has the project's version, and samples Cora's batches with the same
# digests as the build tree's module (the same library and flags); `pip uninstall` removes it.
set -u
src=${1:?usage: pip_install.sh SRC PYTHON BUILD_PY}
py=${2:?}
build_py=${3:?}
work=$(mktemp -d "${TMPDIR:-/tmp}/fanout-pip.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
unset PYTHONPATH
mkdir "$work/src" && tar -C "$src" --exclude='./build*' --exclude=./.git --exclude='*.fanout' \
  -cf - . | tar -C "$work/src" -xf - || fail "copy $src"
"$py" -m venv --system-site-packages "$work/venv" || fail "python3 -m venv (python3-venv)"
vpy=$work/venv/bin/python
start=$(date +%s)
(cd "$work/src" && "$vpy" -m pip install --no-build-isolation --no-index . > "$work/pip.log" 2>&1) ||
  { tail -40 "$work/pip.log"; fail "pip install --no-build-isolation --no-index . (log above)"; }
echo "ok   pip install --no-build-isolation --no-index . in a venv: $(($(date +%s) - start)) s"
want_version=$(sed -n 's/^project(fanout VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

# the digests of three batches of a Cora loader, and where the module came from
cat > "$work/probe.py" << 'PROBE'
import sys, tempfile
import fanout
data = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    fanout.import_dataset([f"{data}/cora/cora.content.gz", f"{data}/cora/cora.cites"],
                          f"{d}/cora", format="planetoid", undirected=True)
    ds = fanout.Dataset(f"{d}/cora")
    loader = fanout.NeighborLoader(ds, num_neighbors=[5, 5], batch_size=64, shuffle=True,
                                   seed=3, input_nodes="train")
    digests = [b.digest() for b in loader]
print(fanout.__file__, fanout._fanout.__file__, fanout.__version__,
      fanout.digest_sequence(digests))
PROBE
mkdir "$work/elsewhere" && cd "$work/elsewhere" || exit 1
read -r init ext version digest <<< "$("$vpy" "$work/probe.py" "$src/data")" ||
  fail "import fanout from the venv"
site=$("$vpy" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
platsite=$("$vpy" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
case $init in "$site"/fanout/__init__.py) ;; *) fail "fanout came from $init, not $site" ;; esac
case $ext in "$platsite"/fanout/_fanout*.so) ;; *) fail "the extension is $ext, not in $platsite/fanout" ;; esac
[ "$version" = "$want_version" ] || fail "fanout.__version__ $version, CMakeLists.txt says $want_version"
echo "ok   import fanout from $PWD: $init, $(basename "$ext"), version $version"
read -r _ _ _ ref <<< "$(PYTHONPATH=$build_py "$py" "$work/probe.py" "$src/data")" ||
  fail "the build tree's module ($build_py)"
[ -n "$digest" ] && [ "$digest" = "$ref" ] ||
  fail "epoch digest $digest from the installed module, $ref from the build tree's"
echo "ok   the installed module's Cora epoch digest $digest = the build tree's"
"$vpy" -m pip uninstall -y -q fanout || fail "pip uninstall"
if "$vpy" -c 'import fanout' 2> /dev/null; then fail "fanout still imports after pip uninstall"; fi
echo "ok   pip uninstall fanout removes it"
