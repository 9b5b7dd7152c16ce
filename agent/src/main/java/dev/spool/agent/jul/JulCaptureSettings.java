package dev.spool.agent.jul;

import dev.spool.agent.journal.JournalFiles;

import dev.spool.agent.internal.PlainPaths;
import dev.spool.sink.SinkPolicy;
import java.lang.instrument.Instrumentation;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * What JUL capture is made with, kept by {@link JulCaptures} until its first {@code publish} makes
 * {@link JulCaptureHandlers} from it. Names no JUL type (see {@link JulCaptures} for why).
 *
 * @param routing    whether routing is on now (a captured handler's file goes through the sink)
 * @param errors     where failures go (kind, text): the agent's counters and MBeans
 * @param capacity   records each captured handler's queue holds
 * @param policy     what a caller does when that queue is full
 * @param waitMillis the bound on a caller's wait for room (and on the drains at exit)
 * @param inst       opens {@code java.util.logging} to Spool for {@link JulSources} (null: the JDK infers sources)
 * @param routesCleanly whether a stream is Spool's routed stream, routing, with no error so far ({@link JulDirectWrite})
 * @param plainPaths where a handler left on the host's path (formatted on the caller's thread) is counted and named
 * @param journalFiles the routed streams' offsets a handler's journal needs ({@link JulJournalWriter}); null: no journal
 */
record JulCaptureSettings(BooleanSupplier routing, BiConsumer<String, String> errors, int capacity, SinkPolicy policy,
                          long waitMillis, Instrumentation inst, Predicate<Object> routesCleanly, PlainPaths plainPaths,
                          JournalFiles journalFiles) {
}
