# fanout import onto an existing output: refused without --force (exit 1, nothing changed),
# replaced with --force, and never replaces something that is not a dataset.
. "$(dirname "$0")/common.bash"

printf '0 1\n1 2\n2 0\n' > three.txt
printf '0 1\n' > two.txt
fo import three.txt -o ds -q
echo "== existing dataset, no --force: exit 1, the dataset is unchanged"
fo import two.txt -o ds
fo info ds
echo "== --force replaces it"
fo import --force two.txt -o ds
fo info ds
fo verify ds
echo "== --force does not replace a directory or file that is not a dataset"
mkdir notes && printf 'keep me\n' > notes/x.txt
fo import two.txt -o notes
fo import --force two.txt -o notes
cat notes/x.txt
printf 'keep me too\n' > afile
fo import two.txt -o afile
fo import --force two.txt -o afile
cat afile
echo "== a failed --force import leaves the old dataset in place"
printf '0 1\nbad line\n' > bad.txt
fo import --force bad.txt -o ds
fo info ds
ls -A
