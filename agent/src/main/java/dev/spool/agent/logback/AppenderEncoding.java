package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Consumer;

/**
 * One encoder of a deferred appender as Spool runs it: the encoder object, whether Spool can run it
 * on another thread ({@link LogbackEncoders#shape}), whether its pattern needs the caller data, its
 * {@code encode} handle and its {@link CompiledPatternLayout}.
 *
 * <p>Not thread-safe by itself: {@link DeferredWrites} publishes one through a volatile field and
 * replaces it only under the appender's {@code streamWriteLock}, after every event queued with the
 * previous one is written (an appender's {@code setEncoder} applies from the next event, as in plain
 * Logback); {@link #compiled} is read and replaced only under that lock.
 *
 * <p>Example: {@code AppenderEncoding e = AppenderEncoding.of(appender.getEncoder(), report); if (e.deferrable()) ...}
 */
final class AppenderEncoding {

    private final Object encoder;
    private final boolean deferrable;
    private final boolean callerData;
    private final MethodHandle encode; // (encoder, event) -> byte[]; null when not deferrable
    private LogbackEncoders.Shape refused; // why not deferrable (null when deferrable, or unreachable)
    private CompiledPatternLayout compiled; // null: the encoder's own encode (guarded by the appender's lock)

    private AppenderEncoding(Object encoder, boolean deferrable, boolean callerData, MethodHandle encode) {
        this.encoder = encoder;
        this.deferrable = deferrable;
        this.callerData = callerData;
        this.encode = encode;
    }

    /**
     * {@code encoder} inspected as {@code shape}; compiled when {@code compiledReport} is not null (it receives
     * the sentence if the compiled layout is ever given up). Never throws: an encoder it cannot reach is not deferrable.
     */
    static AppenderEncoding of(Object encoder, LogbackEncoders.Shape shape, Consumer<String> compiledReport) {
        if (!shape.deferrable()) {
            AppenderEncoding e = new AppenderEncoding(encoder, false, false, null);
            e.refused = shape;
            return e;
        }
        try {
            MethodHandle encode = MethodHandles.lookup().unreflect(encoder.getClass().getMethod("encode", Object.class))
                    .asType(MethodType.methodType(Object.class, Object.class, Object.class));
            AppenderEncoding e = new AppenderEncoding(encoder, true, shape.callerData(), encode);
            if (compiledReport != null) {
                e.compiled = CompiledPatternLayout.compile(encoder, encode, compiledReport);
            }
            return e;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new AppenderEncoding(encoder, false, false, null);
        }
    }

    Object encoder() {
        return encoder;
    }

    /** Why this encoder is not deferrable (its plain-path reason and sentence), or null. */
    LogbackEncoders.Shape refused() {
        return refused;
    }

    /** Whether events may be queued for this encoder (false: Logback's own path on the caller's thread). */
    boolean deferrable() {
        return deferrable;
    }

    boolean callerData() {
        return callerData;
    }

    /** The encoder's bytes for {@code event}: its compiled layout's, else Logback's encoder's (under the appender's lock). */
    byte[] encode(Object event) throws Throwable {
        CompiledPatternLayout c = compiled;
        byte[] bytes = c == null ? null : c.encode(event); // null: Logback's encoder, below
        if (bytes == null && c != null && c.stale()) {
            compiled = c.recompiled(); // the encoder was given another layout or pattern
        }
        if (bytes == null) {
            Object encoded = encode.invokeExact(encoder, event);
            bytes = (byte[]) encoded;
        }
        return bytes;
    }

    /** The compiled layout encoding this encoder's events, or null. */
    CompiledPatternLayout compiled() {
        return compiled;
    }
}
