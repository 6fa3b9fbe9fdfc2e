/*
 * tests/fuzz/fixture.h: the small real datasets the dataset-level harnesses work on, made once
 * per process under fz_tmpdir() from data/cora (Cora, 2708 nodes, 10556 edges once undirected):
 *   "cora"   single dataset: CSC + CSR, uint8 features (exact: Cora's are 0/1; the first 24
 *            of its 1433 columns, fixture.c says why), labels and the Planetoid split;
 *   "cora2"  its 2-part hash partition (array book + rank directories);
 *   "cora3"  its 3-part range partition (range book in the manifest);
 *   "coraw"  Cora's cites with an edge weight per edge (relabeled to 0..2707, undirected, CSC +
 *            CSR): the "weight" and "weight_alias" arrays of weighted sampling;
 *   "typed"  Cora as a typed dataset (format_version 2): paper cites paper, paper has_class
 *            class, their reverse types, string ids, CSC + CSR;
 *   "typed2" its 2-part hash partition (format_version 2: a book and rank directories per
 *            node type, per edge type CSC and CSR rows of the parts);
 *   "corat"  Cora's cites relabeled, undirected, with a time per edge ("time" arrays, rows
 *            sorted by time) and node times ("node_time");
 *   "coran"  the same with node times only (rows ordered by neighbor time, "row_order");
 *   "typedl" "typed" with labels-only (supervision) edge types paper likes class (positive)
 *            and paper dislikes class (hard negative) for some papers (format_version 3);
 *   "typedl2" its 2-part hash partition (the parts carry the anchors' supervision CSR rows).
 * fz_fixture(k) returns the path of fixture k (0 .. FZ_N_ALL_FIXTURES - 1).
 */
#ifndef FO_FUZZ_FIXTURE_H
#define FO_FUZZ_FIXTURE_H

/* fuzz_dataset picks among the first FZ_N_FIXTURES (its inputs' byte 0 mod that); the labels
 * fixtures follow (fuzz_wire's LABEL branch). */
#define FZ_N_FIXTURES 8
#define FZ_FIXTURE_TYPEDL 8
#define FZ_FIXTURE_TYPEDL2 9
#define FZ_N_ALL_FIXTURES 10
const char *fz_fixture(int k);
/* Every reader on the dataset at `path` (see fuzz_dataset.c): open (mmap and huge-page loads,
 * all parts and one part), the info calls, verify, sample, a loader with features and labels,
 * the partition quality report and, for a single dataset that verifies, partition. Aborts if a
 * reader breaks a promise (a crash or sanitizer report aborts by itself). */
void fz_run_readers(const char *path, unsigned flags);



/* Recompute the xxh64 of every array listed in the manifests of the dataset at `dir` (and its
 * parts) from the files as they are, so that fo_dataset_verify checks the content past the
 * hashes. Manifests that do not parse are left alone. Files with more than one link (hard links
 * to the fixture: unchanged) keep the hash they have, as it is theirs unless the manifest's
 * text was changed. */
void fz_rehash(const char *dir);
#endif
