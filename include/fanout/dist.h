/*
 * fanout/dist.h: distributed sampling: several machines, each serving one part of a
 * partitioned dataset, several training processes per machine.
 *
 * Machine m serves part m. The processes of local rank i on every machine form worker group i;
 * a process's remote requests go to its group peers only. Per hop, a sampler splits its
 * frontier by owner, samples the nodes of its own part in place and sends every other part one
 * batched request; a server in every process answers its group's requests from its machine's
 * part with the same one-hop kernel, keyed by the same random streams, so batches are
 * bit-identical to sampling the unpartitioned dataset in one process. Features and labels of
 * remote nodes come in one batched request per remote machine per batch.
 *
 * Transports: MPI (fo_dist_init_mpi, when fanout is built with FO_WITH_MPI), and an in-process
 * transport (fo_dist_init_local) that runs the same requests, encoded and decoded, against parts
 * opened in the same process: the code path of a distributed run, testable in one process.
 *
 * Every remote call has a deadline (default 600 s, GLT's rpc_timeout). A peer that does not
 * answer in time is an FO_EMPI error naming its machine rank, local rank and the request; the
 * context then stays failed and tells every other rank (fo_dist_failed), so the job stops with
 * a message instead of hanging. Received messages are checked (sizes, counts, id ranges): a
 * malformed one is FO_EFORMAT, never a crash.
 */
#ifndef FANOUT_DIST_H
#define FANOUT_DIST_H

#include "common.h"
#include "dataset.h"
#include "ablp.h"
#include "link.h"
#include "loader.h"
#include "sampler.h"
#include "worker.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fo_dist fo_dist_t;

typedef struct fo_dist_opts {
  int32_t procs_per_machine; /**< MPI: processes per machine; 0 (default) = found with
                                  MPI_Comm_split_type(MPI_COMM_TYPE_SHARED); tests set it so
                                  that one host acts as several machines */
  double deadline_s;         /**< deadline of every remote call and of the final barrier, in
                                  seconds, finite and > 0; default 600 */
  int64_t max_message_bytes; /**< MPI: the largest request or answer either side sends or
                                  accepts, 4096 .. 2^32 bytes; 0 (default) = 2^32. A server
                                  refuses an answer over it with an ERROR answer naming both
                                  sizes (FO_ERANGE for the caller and every other rank); a
                                  request over it is FO_ERANGE before it is sent. The same on
                                  every process (checked) */
  bool init_worker;          /**< call fo_worker_init with this process's ranks and `worker`;
                                  default false */
  fo_worker_opts worker;     /**< for fo_worker_init (its rank fields are filled in) */
} fo_dist_opts;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_dist_opts_init(fo_dist_opts *o);

/**
 * Start a distributed context over MPI.
 *
 * Machines are the shared-memory domains of `comm` (MPI_Comm_split_type), numbered in the order
 * of their lowest rank, or, with procs_per_machine P > 0, ranks [m P, (m + 1) P) form machine
 * m. Worker group i is local rank i of every machine (MPI_Comm_split). Every process then runs
 * a server thread, until fo_dist_finalize, that answers its group's requests once
 * fo_dist_open_dataset has opened its part (requests that come earlier wait for it), and
 * stops the context when another process reports a failure (see fo_dist_failed).
 *
 * @param comm  a pointer to the caller's MPI_Comm (void * so that this header needs no mpi.h);
 *              it is duplicated (MPI_Comm_dup, with MPI_ERRORS_RETURN); MPI must be
 *              initialized with MPI_THREAD_MULTIPLE.
 * Start-up deadline: every collective of the start (each a nonblocking one polled against
 * one deadline, deadline_s from the call; MPI_Comm_split and MPI_Comm_split_type, which have
 * no nonblocking form, run only after a polled barrier) fails with FO_EMPI "dist init: ...:
 * not every process took part within D s" when a process never calls fo_dist_init_mpi (it
 * runs another program, is stopped or has died), instead of waiting forever.
 *
 * @return FO_OK; FO_ENOSYS when fanout was built without MPI; FO_EINVAL when MPI is not
 *         initialized with MPI_THREAD_MULTIPLE, or procs_per_machine does not divide the
 *         number of ranks or differs between ranks, or max_message_bytes is out of range or
 *         differs, or machines have different numbers of processes; FO_EMPI with MPI's
 *         message, or at the start-up deadline; FO_ENOMEM; fo_worker_init's errors with
 *         init_worker. Collective over `comm`, with the same options on every rank; once
 *         `comm` is duplicated it fails on every rank or on none (a rank whose own start
 *         failed has its message, the others name it), except at the start-up deadline, which
 *         each process that came reports by itself.
 */
FO_API int fo_dist_init_mpi(const void *comm, const fo_dist_opts *o, fo_dist_t **out);

/**
 * Start an in-process context: `d` is a partitioned dataset with every part opened; the process
 * acts as machine `machine` (0 <= machine < parts) and reaches the other parts through encoded
 * requests served in-process (the same code as over MPI).
 * @return FO_OK; FO_EINVAL if `d` is not a partitioned dataset with all parts open or machine
 *         is out of range; FO_ENOMEM.
 */
FO_API int fo_dist_init_local(const fo_dataset_t *d, int32_t machine, const fo_dist_opts *o,
                              fo_dist_t **out);

/**
 * End a context: a barrier with every process (with the deadline: a dead peer makes it fail
 * rather than hang), stop the server, free. After a failure (fo_dist_failed) there is no
 * barrier: it returns the failure's status and message. Accepts NULL. Returns the barrier's
 * status. Call it after destroying the context's samplers and loaders; datasets opened with
 * fo_dist_open_dataset may be closed after it.
 */
FO_API int fo_dist_finalize(fo_dist_t *dd);

/** This process's machine rank, number of machines, local rank, processes per machine, and
 *  global rank / number of processes. Cost: O(1). */
FO_API int32_t fo_dist_machine_rank(const fo_dist_t *dd);
FO_API int32_t fo_dist_num_machines(const fo_dist_t *dd);
FO_API int32_t fo_dist_local_rank(const fo_dist_t *dd);
FO_API int32_t fo_dist_local_size(const fo_dist_t *dd);
FO_API int32_t fo_dist_rank(const fo_dist_t *dd);
FO_API int32_t fo_dist_size(const fo_dist_t *dd);

/**
 * Open the partitioned dataset `path` as this process needs it: the top level and this
 * machine's part only. The first dataset opened this way is the one this process serves to
 * its worker group: it must stay open until fo_dist_finalize(dd). When that first open fails,
 * this process cannot serve, so the context fails too (as fo_dist_abort): every other process
 * is told at once instead of waiting for its deadline; start a new context to try again.
 * @return as fo_dataset_open; FO_EINVAL when `path` is not partitioned or the number of parts
 *         differs from the number of machines (the message gives both). Collective in effect:
 *         every process opens the same path.
 */
FO_API int fo_dist_open_dataset(fo_dist_t *dd, const char *path, const fo_dataset_opts *o,
                                fo_dataset_t **out);

/**
 * Fail the context on purpose: this process cannot go on (an exception in the training code,
 * a signal). Records FO_ECANCELED "rank R (machine M, local rank L) stopped the job: <reason>"
 * as the context's failure (unless it failed already) and sends it to every other process,
 * whose pending and later remote calls then fail with it (see fo_dist_failed), so the job
 * stops everywhere instead of waiting for deadlines. fo_dist_finalize then skips the barrier.
 * @return the context's status afterwards (FO_ECANCELED, or the earlier failure's);
 *         FO_EINVAL for a NULL context. Thread-safety: any thread. Cost: one small message per
 *         process.
 */
FO_API int fo_dist_abort(fo_dist_t *dd, const char *reason);

/**
 * fo_dist_abort with the failure's own status: `status` (a fanout error code, FO_EINVAL ..
 * FO_EINTERNAL) instead of FO_ECANCELED, for a process that stops the job because a call of its
 * own failed (a corrupt part found by its own sampler is FO_EFORMAT on every rank, as it is when
 * a server finds it). Message and effect as fo_dist_abort's.
 * @return the context's status afterwards (`status`, or the earlier failure's); FO_EINVAL for a
 *         NULL context or a status that is not an error code (the context is not failed then).
 *         Thread-safety: any thread. Cost: one small message per process.
 */
FO_API int fo_dist_abort_status(fo_dist_t *dd, int status, const char *reason);

/**
 * Whether the context has failed (a deadline, a peer's failure, a malformed message), and the
 * first failure's message. Thread-safety: any thread. Cost: O(1).
 */
FO_API bool fo_dist_failed(const fo_dist_t *dd, const char **message);

/**
 * The context's status: FO_OK while it has not failed; else the first failure's status as the
 * process that failed first reported it (FO_EMPI for a deadline or an MPI error, FO_EFORMAT for
 * a corrupt part or a malformed answer, FO_ECANCELED for fo_dist_abort, ...), which this call
 * also sets as the calling thread's error, with the failure's message (fo_last_error). A NULL
 * context is FO_OK. Thread-safety: any thread. Cost: O(1).
 */
FO_API int fo_dist_status(const fo_dist_t *dd);

/**
 * A sampler over `d` (opened with fo_dist_open_dataset, or all parts open) that samples this
 * machine's part in place and asks the other machines for theirs: the same batches as
 * fo_sampler_create over the unpartitioned dataset. Options and errors as fo_sampler_create
 * (edge_dir in only); remote failures come out of fo_sampler_sample as FO_EMPI (deadline, peer
 * failure) or FO_EFORMAT (malformed answer) naming the machine. The sampler must not outlive
 * `dd` or `d`. Thread-safety: as a sampler; any number of them may share `dd`. Not
 * collective: its options are not compared between processes (fo_dist_check_same can).
 */
FO_API int fo_dist_sampler_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_sampler_opts *o,
                                  fo_sampler_t **out);

/** One option that every process must give the same value (fo_dist_check_same). */
typedef struct fo_dist_option {
  const char *name;  /**< e.g. "fanouts" */
  const char *value; /**< its value as text, e.g. "10,5" (compared whole; up to 200 bytes are
                          shown in a message) */
} fo_dist_option;

/**
 * Check that every process gives the same options: `n` (0..64) name/value pairs, compared by a
 * 64-bit digest of each (an MPI_Iallgather of fixed-size records, then two MPI_Ibcasts of the
 * first differing one's texts from rank 0 and the first rank that differs), polled against
 * the deadline. Collective over the context's processes, in the same order on every process.
 * fo_dist_loader_create calls it with the loader's options; the CLI adds its own (--epochs,
 * --batches).
 * @return FO_OK; FO_EINVAL on every process when options differ: "WHAT: option fanouts
 *         differs between processes: rank 0 has 10,10, rank 3 has 10,5" (and how many ranks
 *         differ from rank 0), or when processes check different numbers of options; FO_EINVAL
 *         for n outside 0..64 or a NULL name or value (on that process only); FO_EMPI when not
 *         every process took part within the deadline, which fails the context (see
 *         fo_dist_failed). The in-process transport: FO_OK after the argument checks.
 * Thread-safety: one call at a time per context. Cost: 65 x 8 bytes per process gathered on
 * every process, two small broadcasts when options differ.
 */
FO_API int fo_dist_check_same(fo_dist_t *dd, const char *what, const fo_dist_option *opts, int n);

/** How the epoch's batches are dealt to the processes (global batch b goes to rank b mod R). */
typedef enum fo_dist_tail {
  FO_DIST_TAIL_KEEP = 0, /**< every batch once: ranks may get one batch fewer than others */
  FO_DIST_TAIL_DROP = 1, /**< every rank floor(batches / R): the last few are dropped */
  FO_DIST_TAIL_PAD = 2   /**< every rank ceil(batches / R): the last ones wrap to the epoch's
                              first batches (for synchronous training) */
} fo_dist_tail;

/**
 * A loader that produces this process's share of every epoch: global batches b with
 * b mod fo_dist_size(dd) == fo_dist_rank(dd) (fo_loader_batch_t.index is the global b), each
 * identical to batch b of a single-process loader with the same options over the unpartitioned
 * dataset; remote nodes' features and labels come in one request per remote machine per batch.
 * Collective: every process creates its loaders in the same order (one at a time), with the
 * same options; they are checked first (fo_dist_check_same: fanouts, replace, edge_dir,
 * disjoint, seed, batch_size, input_nodes (count and digest), split, shuffle, drop_last, epoch,
 * features, labels, tail, input_type, edge_type_fanouts (count and digest), weighted,
 * temporal (strategy, time attribute, strict, window), input_time (count and digest)), so
 * processes started with different options fail together instead of producing a mixture.
 * Weighted and temporal samplers work as single-process ones: each remote hop request carries
 * the mode and every node's time bound, and the part answering runs the same kernel.
 * @return as fo_loader_create; FO_EINVAL for a bad `tail`, or on every process for options
 *         that differ between processes (the message names the first such option and two
 *         ranks with their values); FO_EMPI when not every process created its loader within
 *         the deadline (the context fails). The loader must not outlive `dd`.
 */
FO_API int fo_dist_loader_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_loader_opts *o,
                                 fo_dist_tail tail, fo_loader_t **out);

/** Which seeds a process's batches hold. */
typedef enum fo_dist_seed_placement {
  /** Batch b of the epoch is batch b of a single-process loader with the same options over the
   *  unpartitioned dataset, for any number of machines (its seeds are wherever they are);
   *  global batch b goes to rank b mod R. Promise: the epoch's batches, their digests and
   *  their order are those of one process, whatever the machine count. */
  FO_DIST_SEEDS_GLOBAL = 0,
  /** Each machine's ranks take the input nodes its machine owns (GraphLearn-for-PyTorch's
   *  placement; with METIS parts most hops then stay on the machine): the epoch's order
   *  (fo_random_permutation when shuffled) restricted to machine m's inputs is cut into batches
   *  j = 0, 1, ..., and machine m's local rank l takes those with j mod local_size == l; a
   *  batch's index (fo_loader_batch_t.index, the random streams' batch key) is
   *  j * machines + m. drop_last drops each machine's last, smaller batch. Tails: keep (every
   *  seed once; ranks may have different counts), drop (every rank the fewest any rank of any
   *  machine has), pad (every rank the most; a rank wraps to its machine's first batches; an
   *  error when a machine owns no input node). Promise: a batch is a pure function of
   *  (dataset, partition book, machines, processes per machine, options, epoch, index): equal
   *  over thread counts and reruns, and each seed is in exactly one batch of an epoch with
   *  tail keep; but not the single-process batches, and different machine counts give
   *  different batches. */
  FO_DIST_SEEDS_LOCAL = 1
} fo_dist_seed_placement;

/** How a loader's remote feature cache chooses the rows it keeps (fo_dist_loader_opts). */
typedef enum fo_dist_cache_policy {
  /** Static: the remote nodes with the most edges into this machine's part (the in-neighbor
   *  lists it holds: how often a hop from its nodes can reach them), filled once when the
   *  loader is made. */
  FO_DIST_CACHE_DEGREE = 0,
  /** Static: the remote nodes that appear most often in a measured pre-sampling pass (the
   *  topology of up to 32 of this process's batches of another epoch, key epoch + 2^62, so
   *  that it estimates the inclusion frequencies without seeing the batches it will serve),
   *  filled once when the loader is made. */
  FO_DIST_CACHE_FREQUENCY = 1,
  /** Dynamic: batches are a pure function of their index, so the loader samples the topology
   *  of batches j+1 .. j+lookahead ahead of batch j's gather, and after each gather keeps the
   *  rows whose next use within that window is soonest (Belady's rule: the row whose next use
   *  is furthest, or beyond the window, goes first; a fetched row needed later than every
   *  kept row is not admitted). Each batch is sampled once: the loader takes the topology
   *  sampled ahead for that batch (whose counters then hold its hop requests). Several
   *  loader threads gather at once (no lock is held across a remote request). Memory:
   *  lookahead + 1 batches' topologies (and, with `pipeline`, their prefetched rows). */
  FO_DIST_CACHE_LOOKAHEAD = 2
} fo_dist_cache_policy;

/** Options of a distributed loader beyond fo_loader_opts. */
typedef struct fo_dist_loader_opts {
  fo_dist_tail tail;                     /**< default FO_DIST_TAIL_KEEP */
  fo_dist_seed_placement seed_placement; /**< default FO_DIST_SEEDS_GLOBAL */
  int64_t cache_bytes;                   /**< bytes of other machines' feature and label rows
                                              this loader keeps (row data only, not the index:
                                              about 24 bytes more per row); 0 (default) = no
                                              cache. Batches are the same with or without.
                                              Typed datasets: shared by all node types. */
  fo_dist_cache_policy cache_policy;     /**< default FO_DIST_CACHE_DEGREE */
  int32_t lookahead;                     /**< FO_DIST_CACHE_LOOKAHEAD: batches sampled ahead,
                                              1..1024; default 8 */
  int32_t pipeline;                      /**< FO_DIST_CACHE_LOOKAHEAD: threads of this
                                              process that sample the next `lookahead`
                                              batches ahead of the loader's threads, so that
                                              several batches' hop requests are in flight
                                              even with one loader thread; 0..64, default 0
                                              (each gather plans the batches after its own).
                                              Link and ABLP loaders: threads sampling their
                                              next `pipeline` batches (see
                                              fo_dist_link_loader_create). Per process (not
                                              checked to agree); batches are the same for
                                              every value. */
} fo_dist_loader_opts;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_dist_loader_opts_init(fo_dist_loader_opts *o);

/**
 * fo_dist_loader_create with the options of `dopts` (NULL: the defaults). Every process must
 * give the same (checked with fo_dist_check_same after the loader's own options: names
 * "seed_placement", and the other fields of fo_dist_loader_opts).
 * @return as fo_dist_loader_create; FO_EINVAL for an unknown seed_placement, or (seed
 *         placement local) tail pad when this machine owns no input node; FO_EFORMAT when an
 *         input node's book entry is not a machine.
 */
/* (cache options: checked as "cache_bytes", "cache_policy" and "lookahead"; FO_EINVAL for a
 * negative cache_bytes, an unknown policy or lookahead outside 1..1024, pipeline outside
 * 0..64 or pipeline > 0 without cache_policy lookahead and cache_bytes > 0 (pipeline is not
 * compared across processes) (typed datasets pipeline too); a cache's fill
 * requests fail as remote calls do. Typed datasets: one store per node type under the one
 * cache_bytes budget, split by the policy's ranking of (node type, node) pairs; docs/DIST.md.) */
FO_API int fo_dist_loader_create_ex(fo_dist_t *dd, const fo_dataset_t *d, const fo_loader_opts *o,
                                    const fo_dist_loader_opts *dopts, fo_loader_t **out);

/** Request and byte counters of this process's sampler and gather calls. */
typedef struct fo_dist_stats {
  int64_t hop_requests[64]; /**< remote hop requests sent, per hop */
  int64_t hop_bytes[64];    /**< bytes sent and received for them, per hop */
  int64_t fetch_requests;   /**< remote feature/label requests */
  int64_t fetch_bytes;
  int64_t served;           /**< requests this process answered */
} fo_dist_stats;

/** Read the counters. They count every request this process made, also those of batches a
 *  loader sampled ahead and that were never consumed (see fo_dist_batch_stats for one batch's).
 *  Thread-safety: any thread. Cost: O(1). */
FO_API void fo_dist_get_stats(fo_dist_t *dd, fo_dist_stats *out);

/** The remote traffic of one batch of a distributed loader, counted while it was produced. */
typedef struct fo_dist_batch_stats {
  int64_t hop_requests[64];   /**< remote hop requests sent, per hop */
  int64_t hop_bytes[64];      /**< bytes sent and received for them, per hop */
  int64_t hop_edges[64];      /**< sampled edges the remote machines answered, per hop */
  int64_t fetch_requests;     /**< remote feature/label requests */
  int64_t fetch_bytes;        /**< bytes sent and received for them */
  int64_t remote_rows;        /**< rows (x and/or y) of nodes other machines own */
  int64_t cache_hits;         /**< of those, rows found in the remote feature cache */
  int64_t cache_bytes_saved;  /**< feature and label bytes the hits did not fetch */
  int64_t ahead_requests;     /**< cache policy lookahead: remote hop requests of the batches
                                   sampled ahead during this batch's gather (they count again
                                   in hop_requests of the batch that uses them; pipelining
                                   threads count here for no batch) */
  int64_t ahead_bytes;        /**< their bytes */
  int64_t link_requests;      /**< link batches: LINK requests (strict-negative membership and
                                   seed-edge exclusion of rows other machines own): at most one
                                   per remote machine per round */
  int64_t link_bytes;         /**< bytes sent and received for them */
  int64_t link_rounds;        /**< rounds that sent at least one LINK request (the exclusion
                                   lookup counts as one, each redraw round of the strict
                                   negatives as one) */
  int64_t label_requests;     /**< ABLP batches: LABEL requests (supervision rows of anchors
                                   other machines own): at most one per remote machine */
  int64_t label_bytes;        /**< bytes sent and received for them */
} fo_dist_batch_stats;

/**
 * The remote traffic of batch `b` (from fo_loader_next of a loader made by
 * fo_dist_loader_create[_ex], before fo_loader_release): requests and bytes of this batch only,
 * whatever was sampled ahead. A cache fill that serves several batches (policy lookahead) is
 * counted with the batch that made it. For a loader of fo_loader_create every count is 0.
 * Thread-safety: as reading `b`. Cost: O(1).
 */
FO_API void fo_dist_batch_stats_get(const fo_loader_batch_t *b, fo_dist_batch_stats *out);

/* ---- link prediction over a distributed dataset (link.h semantics) ------------------------ */

/**
 * A link sampler (link.h) over `d` (opened with fo_dist_open_dataset): the same batches as
 * fo_link_sampler_create over the unpartitioned dataset (digests equal), with the node batch
 * sampled by a distributed sampler (fo_dist_sampler_create) and the rows other machines own
 * asked for in batched LINK requests:
 *  - strict negatives: every pending negative draws its next candidate from its own stream (the
 *    streams of link.h), then all candidates (u, v') are checked in v''s CSC row, this machine's
 *    rows here and every other machine's in ONE request per machine; rejected negatives draw
 *    again, up to FO_LINK_REDRAWS rounds (one request per machine that has pairs, per round).
 *    There is no exact fallback (parts store CSC rows), so a negative whose FO_LINK_REDRAWS
 *    candidates were all edges is missing, as over in-process parts without a CSR.
 *  - exclude_seed_edges: every seed edge's (and reverse's) (row, neighbor) pair is looked up
 *    once per batch, all excluded edge types in one request per machine, answered with the
 *    owning part's positions in the rows of the sampler's edge_dir (in: the CSC row of the
 *    edge's destination, out: the CSR row of its source); the node sampler makes them
 *    ineligible (fo__exclusion) in its in-place hops and carries them in its remote hop
 *    requests, whose servers skip them in every kernel (uniform, weighted, temporal uniform
 *    and last, as single process: the same batches).
 * Traffic per batch: fo_dist_link_loader_stats (link_requests, link_bytes, link_rounds).
 * @return as fo_link_sampler_create; FO_EINVAL when `d` does not have one part per machine
 *         with this machine's part open. Remote
 *         failures come out of fo_link_sampler_sample as FO_EMPI (deadline, peer failure) or
 *         FO_EFORMAT (malformed answer), and fail the context (fo_dist_failed).
 * Not collective. Thread-safety: as a link sampler; must not outlive `dd` or `d`.
 */
FO_API int fo_dist_link_sampler_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_link_opts *o,
                                       fo_link_sampler_t **out);

/**
 * A link loader (link.h: fo_link_loader_next, _num_batches, _start_epoch, _batch_digest work on
 * it) producing this process's share of every epoch, over the link sampler of
 * fo_dist_link_sampler_create; features of every node type come as the node loader's (this
 * machine's rows here, the others in one request per machine per batch).
 * Seed placement (dlo->seed_placement; NULL dlo: defaults):
 *  - FO_DIST_SEEDS_GLOBAL: global batch b (the single-process loader's batch b: seed edges,
 *    negatives, node batch, features, input_id) goes to rank b mod R, with dlo->tail keep, drop
 *    or pad as for fo_dist_loader_create. Promise: the epoch's batches and their digests are
 *    those of fo_link_loader_create over the unpartitioned dataset, for any number of machines.
 *  - FO_DIST_SEEDS_LOCAL: a seed edge belongs to the machine owning its destination (whose CSC
 *    row holds it, so its forward exclusion lookup stays home); the epoch's order restricted to
 *    machine m's seed edges is cut into batches j, machine m's local rank l takes those with
 *    j mod local_size == l, batch index j * machines + m; tail keep only (FO_ENOSYS otherwise).
 *    Promise: a batch is a pure function of (dataset, book, machines, processes per machine,
 *    options, epoch, index), each seed edge in exactly one batch of an epoch; not the
 *    single-process batches.
 * Collective: first every process's options are compared (fo_dist_check_same: fanouts,
 * edge_type_fanouts, replace, edge_dir, disjoint, seed, weighted, temporal, edge_type,
 * neg_sampling (mode and amount), strict, exclude_seed_edges, batch_size, edge_label_index,
 * edge_label and edge_label_time (count and digest), edge_split, shuffle, drop_last, epoch,
 * features, tail, seed_placement, cache_bytes, cache_policy, lookahead): processes that
 * differ fail together, naming the option (pipeline is per process: not compared).
 * Remote feature cache (dlo->cache_bytes > 0, dlo->cache_policy; docs/DIST.md): the node
 * loader's cache of other machines' rows (one store per node type on a typed dataset), the
 * gather copying hits and fetching misses in one request per machine. degree: the rows of the
 * remote nodes with the most edges into this part (static). frequency: the rows most often in
 * up to 32 of this process's batches of the epoch + 2^62 (static; a second loader of the same
 * options samples them once at creation). lookahead: Belady's rule with the next uses of this
 * process's next dlo->lookahead batches, sampled by a second loader of the same options that
 * runs ahead of this one (each batch is sampled twice: once ahead for the plan, once for the
 * batch; the look-ahead's hop and LINK traffic is counted in ahead_requests and ahead_bytes).
 * Batches are bit-identical with or without a cache. Cost: frequency adds 32 batches'
 * sampling at creation, lookahead one batch's sampling per batch.
 * Pipelining (dlo->pipeline = D > 0, with cache_policy lookahead and cache_bytes > 0): D
 * threads of the loader (each with a link sampler of its own) sample this process's next D
 * batches of the epoch ahead (topology, negatives, the LINK lookups), so that up to D batches'
 * hop and LINK requests are in flight while fo_link_loader_next hands out earlier ones; next
 * takes them in order and gathers the features on the caller's thread, so the cache's state,
 * every batch (digest) and its counters (fo_dist_link_loader_stats) are those of pipeline 0.
 * The look-ahead loader is pipelined the same way (D threads more). A thread's failure is that
 * batch's error from fo_link_loader_next (never a hang: the transport's deadline bounds it);
 * fo_link_loader_start_epoch and fo_link_loader_destroy wait for the threads' current batch.
 * @return as fo_link_loader_create; FO_EINVAL on every process for options that differ, for a
 *         bad tail or placement, a bad cache_policy or lookahead; FO_EINVAL (this process) for
 *         pipeline outside 0..64 or pipeline > 0 without cache_policy lookahead and
 *         cache_bytes > 0; FO_EIO when a thread does not start; FO_EMPI when not every process
 *         took part within the deadline.
 */
FO_API int fo_dist_link_loader_create(fo_dist_t *dd, const fo_dataset_t *d,
                                      const fo_link_loader_opts *o, const fo_dist_loader_opts *dlo,
                                      fo_link_loader_t **out);

/** The remote traffic of the last batch fo_link_loader_next gave (hop, fetch and link counters;
 *  zero for a loader of fo_link_loader_create). Cost: O(1). */
FO_API void fo_dist_link_loader_stats(const fo_link_loader_t *L, fo_dist_batch_stats *out);

/* ---- anchor-based link prediction over a distributed dataset (ablp.h semantics) ---------- */

/**
 * An ABLP loader (ablp.h: fo_ablp_loader_next, _num_batches, _start_epoch, _batch_digest work on
 * it) producing this process's share of every epoch over a dataset opened with
 * fo_dist_open_dataset (one part per machine). Global placement only: batch b of the epoch (the
 * single-process loader's batch b: anchors, label columns, random negatives, node batch,
 * features, input_id) goes to rank b mod R, with dlo->tail keep, drop or pad as for
 * fo_dist_loader_create. Promise: the epoch's batches and their digests are those of
 * fo_ablp_loader_create over the unpartitioned dataset, for any number of machines.
 * Per batch: the distinct anchors' positive and hard-negative supervision rows (labels-only edge
 * types, which the sampler never traverses) are read in this machine's part for the anchors it
 * owns, and asked of every other owning machine in ONE LABEL request per machine (both types in
 * it); then the node batch is sampled by a distributed sampler (fo_dist_sampler_create) and the
 * feature rows gathered as the node loader's. Traffic: fo_dist_ablp_loader_stats
 * (label_requests, label_bytes, and the hop and fetch counters).
 * Collective: first every process's options are compared (fo_dist_check_same: fanouts,
 * edge_type_fanouts, replace, edge_dir, disjoint, seed, weighted, temporal,
 * supervision_edge_type, negative_edge_type, no_hard_negatives, num_random_negatives, strict,
 * batch_size, input_nodes (count and digest), shuffle, drop_last, epoch, features, tail,
 * seed_placement, cache_bytes, cache_policy, lookahead): processes that differ fail
 * together, naming the option (pipeline is per process: not compared). The remote feature
 * cache: every policy, as fo_dist_link_loader_create's (the pass and look-ahead loaders are
 * ABLP loaders of the same options). Pipelining (dlo->pipeline): as
 * fo_dist_link_loader_create's, D threads sampling the next D batches (topology, supervision
 * rows with their LABEL requests, random negatives); batches and counters as pipeline 0.
 * @return as fo_ablp_loader_create (an unknown supervision type is FO_EINVAL on every process,
 *         after the comparison); FO_EINVAL for a NULL argument, options that differ (on every
 *         process), a bad tail or placement, a dataset without one part per machine and this
 *         machine's part open, a bad cache_policy or lookahead, pipeline outside 0..64 or
 *         pipeline > 0 without cache_policy lookahead and cache_bytes > 0; FO_EIO when a
 *         thread does not start; FO_EMPI when not every process took part within the
 *         deadline.
 *         Remote failures come out of fo_ablp_loader_next as FO_EMPI (deadline, peer failure)
 *         or FO_EFORMAT (malformed answer) and fail the context (fo_dist_failed).
 * Thread-safety: as an ABLP loader; must not outlive `dd` or `d`.
 */
FO_API int fo_dist_ablp_loader_create(fo_dist_t *dd, const fo_dataset_t *d,
                                      const fo_ablp_loader_opts *o, const fo_dist_loader_opts *dlo,
                                      fo_ablp_loader_t **out);

/** The remote traffic of the last batch fo_ablp_loader_next gave (label, hop and fetch
 *  counters; zero for a loader of fo_ablp_loader_create). Cost: O(1). */
FO_API void fo_dist_ablp_loader_stats(const fo_ablp_loader_t *L, fo_dist_batch_stats *out);

#ifdef __cplusplus
}
#endif
#endif
