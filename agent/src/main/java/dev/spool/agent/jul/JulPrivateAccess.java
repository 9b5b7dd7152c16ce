package dev.spool.agent.jul;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Set;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.logging.XMLFormatter;

/**
 * The private state of JUL classes capture at the call must read exactly, reached after
 * {@code java.util.logging} is opened to Spool's own module with
 * {@link Instrumentation#redefineModule} (the supported way for an agent; the host's modules are
 * unchanged): {@code LogRecord.needToInferCaller} (see {@link JulSources}),
 * {@code SimpleFormatter.format} (the format string the handler's formatter resolved when it was
 * made) and {@code XMLFormatter.useInstant}. Reading them replaces formatting probe records, which
 * would take numbers from {@code LogRecord}'s global sequence (printed by {@code XMLFormatter}).
 * Without access (no {@code Instrumentation}, a JDK without these fields) nothing is captured.
 * Immutable, thread-safe.
 */
final class JulPrivateAccess {

    final VarHandle needToInferCaller;
    private final VarHandle simpleFormat;
    private final VarHandle useInstant;

    private JulPrivateAccess(MethodHandles.Lookup lookup) throws ReflectiveOperationException {
        needToInferCaller = MethodHandles.privateLookupIn(LogRecord.class, lookup)
                .findVarHandle(LogRecord.class, "needToInferCaller", boolean.class);
        simpleFormat = MethodHandles.privateLookupIn(SimpleFormatter.class, lookup)
                .findVarHandle(SimpleFormatter.class, "format", String.class);
        useInstant = MethodHandles.privateLookupIn(XMLFormatter.class, lookup)
                .findVarHandle(XMLFormatter.class, "useInstant", boolean.class);
    }

    /**
     * Opens {@code java.util.logging} to this module (with {@code inst}, when given and needed).
     *
     * @return the access, or null (with the reason given to {@code why})
     */
    static JulPrivateAccess open(Instrumentation inst, StringBuilder why) {
        try {
            Module logging = LogRecord.class.getModule();
            Module self = JulPrivateAccess.class.getModule();
            if (inst != null && !logging.isOpen("java.util.logging", self)) {
                inst.redefineModule(logging, Set.of(), Map.of(), Map.of("java.util.logging", Set.of(self)), Set.of(), Map.of());
            }
            return new JulPrivateAccess(MethodHandles.lookup());
        } catch (ReflectiveOperationException | RuntimeException e) {
            why.append(e);
            return null;
        }
    }

    /** The format string a {@code SimpleFormatter} formats with. */
    String simpleFormat(SimpleFormatter formatter) {
        return (String) simpleFormat.get(formatter);
    }

    /** Whether an {@code XMLFormatter} prints the instant ({@code <date>} ISO instant, {@code <nanos>}). */
    boolean useInstant(XMLFormatter formatter) {
        return (boolean) useInstant.get(formatter);
    }
}
