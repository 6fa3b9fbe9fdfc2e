#!/usr/bin/env bash
# tests/support/install_pkgconfig.sh BUILD CC CMAKE: `cmake --install BUILD --prefix TMP` installs
# the library, headers, `fanout` and fanout.pc, and a C program built only with
# `pkg-config --cflags --libs fanout` against TMP links and runs (CTest install_pkgconfig,
# label cli; not in sanitizer builds, whose static library needs the sanitizer runtime).
set -u
build=${1:?usage: install_pkgconfig.sh BUILD CC CMAKE}
cc=${2:?}
cmake=${3:?}
work=$(mktemp -d "${TMPDIR:-/tmp}/fanout-install.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install"; }
for f in include/fanout/fanout.h bin/fanout; do
  [ -e "$work/prefix/$f" ] || fail "cmake --install did not install $f"
done
pc=$(find "$work/prefix" -name fanout.pc -print -quit)
[ -n "$pc" ] || fail "no fanout.pc under the prefix"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs fanout) || fail "pkg-config --cflags --libs fanout"
case $flags in *"-I$work/prefix"*) ;; *) fail "pkg-config flags do not point into the prefix: $flags" ;; esac
cat > "$work/use.c" << 'C'
#include <fanout/fanout.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  fo_dataset_t *d = NULL;
  int rc = fo_dataset_open("/nonexistent/x.fanout", NULL, &d);
  printf("%s %s %s\n", fo_version(), fo_status_name(rc), strstr(fo_last_error(), "x.fanout") ? "named" : "unnamed");
  return rc == FO_EIO && d == NULL ? 0 : 1;
}
C
# shellcheck disable=SC2086
"$cc" -std=c11 "$work/use.c" -o "$work/use" $flags || fail "cc use.c \$(pkg-config --cflags --libs fanout)"
out=$("$work/use") || fail "the program built with pkg-config: $out"
echo "ok   cmake --install + pkg-config: a program built with '$flags' prints: $out"
"$work/prefix/bin/fanout" --help > /dev/null || fail "the installed fanout --help"
echo "ok   the installed fanout runs"
