# fanout verify DIR: ok on fresh datasets; exit 1 naming the file on a flipped byte (xxh64
# mismatch), a truncated array or a missing manifest. The sampler reports a corrupt index as
# FO_EFORMAT instead of crashing.
. "$(dirname "$0")/common.bash"
# flip_byte FILE OFFSET: xor the byte at OFFSET with 1, in place.
flip_byte() {
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\x$(printf %02x $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null
"$FANOUT" import --undirected --csc --csr -q data/facebook-combined/facebook_combined.tsv.gz -o fb >/dev/null

echo "== fresh datasets verify"
fo verify cora
fo verify fb

echo "== one byte flipped in csc_indices.npy after its 128-byte header"
cp -r cora flipped
flip_byte flipped/csc_indices.npy 200
fo verify flipped
echo "opening is O(1) and does not hash, so info still works:"
"$FANOUT" info flipped >/dev/null 2>&1; echo "info exit=$?"

echo "== a flipped byte in the CSR of a two-direction dataset"
cp -r fb fb-flipped
flip_byte fb-flipped/csr_indices.npy 4000
fo verify fb-flipped

echo "== an index out of range: sample stops with FO_EFORMAT, verify names the file"
cp -r cora badindex
printf '\377\377\377\177' | dd of=badindex/csc_indices.npy bs=1 seek=128 conv=notrunc status=none
fo sample badindex --fanout -1 --seeds 0 --json
fo verify badindex
echo "== the same with the manifest's checksum updated: the bounds check names array and position"
new=$("$FANOUT" verify badindex 2>&1 | sed -n 's/.*: xxh64 \([0-9a-f]*\), manifest says.*/\1/p')
sed -i "s/0cf1e3815210309f/$new/" badindex/fanout.json
fo verify badindex

echo "== truncated array, missing manifest"
cp -r cora truncated
truncate -s -4 truncated/csc_indices.npy
fo verify truncated
cp -r cora nomanifest
rm nomanifest/fanout.json
fo verify nomanifest
fo verify missing

echo "== usage"
fo verify
fo verify cora fb
fo verify --bogus cora
