/**
 * Text logging against the anchors a user would pick instead: java.util.logging
 * {@code FileHandler}, Log4j2 all-async loggers (Disruptor 3.4.4, and 4.0 in a fork of its own),
 * Log4j2's synchronous RandomAccessFile appender and Logback's {@code AsyncAppender}, beside the
 * same JUL handler and Logback appender writing through Spool's sink
 * ({@code SinkStreams.wrap}), which is what the agent does.
 *
 * <p>Every contender writes the same 100-byte line (a template with one parameter) N times from
 * 1 or 2 threads into a fresh file, and every file is counted in an untimed tear-down: a lossless
 * contender that loses a line fails the run; a lossy one (named so in {@link Contender}) prints its
 * loss. See docs/BENCHMARKS.md, section "Anchors".
 */
package dev.spool.bench.anchors;
