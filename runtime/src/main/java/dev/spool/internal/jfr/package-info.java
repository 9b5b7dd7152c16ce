/**
 * Spool in Java Flight Recorder: event types named {@code dev.spool.*} (category "Spool") for what
 * an operator investigates — buffer flushes, conflicts, write errors, sink write batches, periodic
 * sink statistics and drops, fallbacks to the host's own path, and each Kafka shipper's lag. JDK
 * Mission Control and VisualVM's JFR viewer show them beside the JVM's own events.
 *
 * <p>Emission goes through {@link dev.spool.internal.jfr.SpoolJfr} only: one call at each point, which
 * returns at once when the switch {@code spool.jfr.enabled} is off, when the JVM has no
 * {@code jdk.jfr} module, or when no recording asks for that event type. The event classes are
 * package-private and loaded only when the switch is on. Every emission point is off the host's
 * per-call path (flushes, the sink's writer thread, error paths), so a host thread pays nothing
 * for an unrecorded event. Thread-safe: events are created and committed on the emitting thread.
 */
package dev.spool.internal.jfr;
