package dev.spool.agent.jul;

import dev.spool.agent.journal.JournalFiles;

import dev.spool.agent.internal.PlainPaths;
import dev.spool.sink.SinkPolicy;
import java.lang.instrument.Instrumentation;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The woven JUL hooks' entry point for capture at the call (issue 13); the work is done by
 * {@link JulCaptureHandlers}, made at the first {@code FileHandler.publish} or open (both woven: after the weaver).
 *
 * <p>Why a facade: this object is made while the agent starts, before its class transformer is
 * installed. Verifying a class that passes a {@code FileHandler} where a {@code Handler} or
 * {@code StreamHandler} is expected loads {@code FileHandler}; loaded then, it is only
 * retransformed later, and retransformation cannot remove Java 17's {@code synchronized} from
 * {@code publish}: every capture would run under the handler's lock (the two producers of the
 * issue's workload then queued behind each other, and a full queue made the caller format). So
 * this class names no JUL type (keep it so: {@code JulCaptureIT} checks the modifier is gone),
 * and {@code JulCaptureHandlers} is loaded from a {@code publish} hook, after the weaver.
 *
 * <p>Thread-safe: the handlers object is made once under this object's lock and read through a
 * volatile field.
 */
public final class JulCaptures {

    private final JulCaptureSettings settings;
    private volatile JulCaptureHandlers handlers;

    /**
     * @param inst          opens {@code java.util.logging} to Spool for {@link JulSources} (null: the JDK infers sources)
     * @param routesCleanly whether a stream is Spool's routed stream, routing, with no error so far (direct writes, {@link JulDirectWrite})
     * @param plainPaths    counts and names a handler whose formatter, filter or class Spool leaves on the caller's thread
     * @param journalFiles  what a handler's mapped journal needs of its routed stream (issue 33); null: no journal
     */
    public JulCaptures(BooleanSupplier routing, BiConsumer<String, String> errors, int capacity, SinkPolicy policy,
                       long waitMillis, Instrumentation inst, Predicate<Object> routesCleanly, PlainPaths plainPaths,
                       JournalFiles journalFiles) {
        this.settings = new JulCaptureSettings(routing, errors, capacity, policy, waitMillis, inst, routesCleanly, plainPaths,
                journalFiles);
    }

    /** The woven {@code FileHandler.publish}: true when the record was taken (or is not loggable). */
    public boolean publish(Object handler, Object record) {
        JulCaptureHandlers h = handlers;
        if (h == null) {
            h = handlers();
        }
        return h.publish(handler, record);
    }

    /** The woven {@code StreamHandler.flush()} / {@code FileHandler.close()}: what was captured goes first. */
    public void drain(Object handler, String method) {
        JulCaptureHandlers h = handlers;
        if (h != null) {
            h.drain(handler, method);
        }
    }

    /**
     * Whether {@code handler}, a {@code FileHandler} opening its file now (the woven {@code open}: it and
     * the weaver are loaded), opens it to append; null when unknown. A journal's recovery at the start of
     * routing then puts an empty file's lines into it (issue 33, {@code RecoveryTarget}).
     */
    public Boolean appends(Object handler) {
        JulCaptureHandlers h = handlers;
        if (h == null) {
            h = handlers();
        }
        return h.appends(handler);
    }

    /** {@code handler}'s generation-1 file when it is a rotating {@code FileHandler} (where its start moved the old file); null otherwise. */
    public java.nio.file.Path generationOne(Object handler) {
        JulCaptureHandlers h = handlers;
        if (h == null) {
            h = handlers();
        }
        return h.generationOne(handler);
    }

    /**
     * {@code handler} (a {@code FileHandler} opening its next file) routed {@code stream}: the journal of
     * the bytes it formats itself follows it before its first write (issue 33).
     */
    public void routed(Object handler, Object stream) {
        JulCaptureHandlers h = handlers;
        if (h != null) {
            h.routed(handler, stream);
        }
    }

    /** Whether nothing the handler captured waits or is being written now (true when it captures nothing). */
    public boolean idle(Object handler) {
        JulCaptureHandlers h = handlers;
        return h == null || h.idle(handler);
    }

    /**
     * The agent's flush (CLI {@code flush}, the Agent bean, the kill switch): every record captured
     * before the call is handed to its handler when this returns, on the calling thread.
     */
    public void drainAll() {
        JulCaptureHandlers h = handlers;
        if (h != null) {
            h.drainAll();
        }
    }

    private synchronized JulCaptureHandlers handlers() {
        JulCaptureHandlers h = handlers;
        if (h == null) {
            h = new JulCaptureHandlers(settings);
            handlers = h;
        }
        return h;
    }
}
