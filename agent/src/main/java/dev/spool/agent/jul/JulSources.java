package dev.spool.agent.jul;

import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.logging.LogRecord;

/**
 * Makes a captured record's source class and method known on the caller's thread, as
 * {@code SimpleFormatter} would when it reads them: a record that still needs its caller inferred
 * (the JDK's private {@code needToInferCaller}) gets the frame {@link JulCallerFinder} finds, set
 * through the record's own setters, which leaves the record as the JDK's inference leaves it
 * (class and method, or both null when there is no logger frame; no inference pending).
 * Records whose source was set ({@code logp}, {@code setSourceClassName}) are left as they are.
 *
 * <p>Reading the flag needs {@link JulPrivateAccess}. Without it, or once {@link JulCallerFinder}
 * has disagreed with the JDK, the JDK infers: the first
 * inferred record and about every {@link #CHECK_EVERY}th after are inferred both ways and compared;
 * a difference is reported once ({@code jul-source}) and switches this object to the JDK for good
 * (the compared record keeps the JDK's answer).
 *
 * <p>Thread-safe: called by every application thread; the check's counter is a racy hint (a lost
 * increment only moves a check).
 */
final class JulSources {

    /** One inferred record in this many is also inferred by the JDK and compared (a power of two). */
    static final int CHECK_EVERY = 4096;

    private final VarHandle needsInference;
    private final BiConsumer<String, String> errors;
    private volatile boolean ours;
    private int inferred;

    private JulSources(VarHandle needsInference, BiConsumer<String, String> errors) {
        this.needsInference = needsInference;
        this.errors = errors;
        this.ours = needsInference != null;
    }

    /** Sources inferred with {@code access} (null: by the JDK). */
    static JulSources of(JulPrivateAccess access, BiConsumer<String, String> errors) {
        return new JulSources(access == null ? null : access.needToInferCaller, errors);
    }

    /** Whether Spool's finder infers sources (false: the JDK's, on the caller's thread as well). */
    boolean ours() {
        return ours;
    }

    /** On the caller's thread, before the record's source is read: infers it if the record still needs that. */
    void infer(LogRecord record) {
        if (!ours || !(boolean) needsInference.get(record)) {
            return; // set by the caller, inferred already, or the JDK's inference (the getters run it)
        }
        StackWalker.StackFrame frame = JulCallerFinder.WALKER.walk(JulCallerFinder.FIND); // not find(): one frame fewer to walk
        String cls = frame == null ? null : frame.getClassName();
        String method = frame == null ? null : frame.getMethodName();
        if ((inferred++ & (CHECK_EVERY - 1)) == 0) {
            String jdkClass = record.getSourceClassName(); // the JDK infers now, from (almost) the same frame
            String jdkMethod = record.getSourceMethodName();
            if (!Objects.equals(cls, jdkClass) || !Objects.equals(method, jdkMethod)) {
                ours = false;
                errors.accept("jul-source", "Spool's caller inference found " + cls + " " + method + " where the JDK's found "
                        + jdkClass + " " + jdkMethod + ": the JDK infers JUL sources from now on");
            }
            return;
        }
        record.setSourceClassName(cls);
        record.setSourceMethodName(method);
    }
}
