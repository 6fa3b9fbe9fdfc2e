# fanout import --format edgelist: facebook-combined (.gz, # comments) with --undirected --csc
# --csr, and small hand-made edge lists for the separators, comments, CRLF, several inputs,
# --dedup, --remove-self-loops, --num-nodes, --index-dtype and --relabel.
. "$(dirname "$0")/common.bash"

echo "== facebook-combined --undirected: 4039 nodes, 176468 edges"
fo import --format edgelist --undirected --csc --csr data/facebook-combined/facebook_combined.tsv.gz -o fb
ls fb
fo import --undirected --json data/facebook-combined/facebook_combined.tsv.gz -o fb-json

echo "== separators (tab, space, comma), # and % comments, CRLF, blank lines, extra columns, two inputs"
printf '# comment\n%% comment\n0,1\r\n1\t2 ignored 9\n\n3 3\n0 1\n' > a.txt
printf '2 0\n' > b.txt
fo import a.txt b.txt -o ab
fo import --dedup --remove-self-loops --num-nodes 6 --index-dtype int64 --csc --csr a.txt b.txt -o ab-clean
fo info ab-clean
fo import --dedup --remove-self-loops --num-nodes 6 --index-dtype int32 --json a.txt b.txt -o ab-int32
fo info ab-int32

echo "== --relabel: any integer ids, sorted, become 0..n-1; node_orig keeps them"
printf '5 -1\n-1 700\n' > neg.txt
fo import --relabel neg.txt -o relabeled
fo info relabeled
fo sample relabeled --fanout -1 --seeds 0,1,2 --orig-ids --json
fo sample relabeled --fanout -1 --seeds 0,1,2 --json
