/**
 * The Spool sample app: a small simulation host that knows nothing of Spool.
 *
 * <p>It runs a parameter sweep of jobs, each advanced step by step on a thread pool. Every step
 * rewrites the job's document with Jackson, logs a line through a {@code java.util.logging}
 * {@code FileHandler} and emits a record through {@link dev.spool.sample.Emitter#emit}. Those are
 * the three kinds of I/O the Spool agent routes; the app itself only uses plain Jackson and the
 * JDK, so a run with and a run without the agent can be compared file by file.
 *
 * <p>Everything written is deterministic for given arguments (seeded randomness carried in the
 * documents, {@link java.lang.StrictMath} for transcendental functions, no timestamps), so two
 * runs produce byte-identical documents, the same log lines and the same set of records; only the
 * interleaving of lines and records between jobs depends on thread scheduling.
 */
package dev.spool.sample;
