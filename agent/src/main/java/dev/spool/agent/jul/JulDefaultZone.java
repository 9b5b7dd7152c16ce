package dev.spool.agent.jul;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.ZoneId;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;

/**
 * The default time zone as of a record's call, without the clone {@code ZoneId.systemDefault()}
 * makes ({@code TimeZone.getDefault()} copies the default each call): the JDK's own default
 * reference, {@code TimeZone.defaultTimeZone}, read at the call ({@link #atCall}) and turned into
 * a {@code ZoneId} on the writer ({@link #zoneId}). The reference is effectively immutable:
 * {@code setDefault} stores a clone of its argument and {@code getDefault} hands out clones, so no
 * code outside the JDK holds it. {@code ref.toZoneId()} is what {@code ZoneId.systemDefault()}
 * answered at the call: the clone's {@code toZoneId} delegates to the reference when their ids are
 * equal, and derives the same id the same way otherwise.
 *
 * <p>Reading the field needs {@code java.util} opened to Spool's own module (its
 * {@code AgentClassLoader}'s; the host's modules gain nothing), done once with
 * {@link Instrumentation#redefineModule} by {@link #open}. Without it (no {@code Instrumentation},
 * a JDK without the field) {@link #atCall} answers {@code ZoneId.systemDefault()} itself.
 * Thread-safe: the handle is set once, before any capture, in a volatile field.
 */
final class JulDefaultZone {

    private static volatile VarHandle defaultTimeZone;

    private JulDefaultZone() {}

    /** Opens {@code java.util} to Spool's module (with {@code inst}) and finds the field; false when it cannot. */
    static boolean open(Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            Module self = JulDefaultZone.class.getModule();
            if (inst != null && !base.isOpen("java.util", self)) {
                inst.redefineModule(base, Set.of(), Map.of(), Map.of("java.util", Set.of(self)), Set.of(), Map.of());
            }
            defaultTimeZone = MethodHandles.privateLookupIn(TimeZone.class, MethodHandles.lookup())
                    .findStaticVarHandle(TimeZone.class, "defaultTimeZone", TimeZone.class);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** At the call: the default zone now, as the JDK's reference (no copy), else as {@code ZoneId.systemDefault()}. */
    static Object atCall() {
        VarHandle h = defaultTimeZone;
        Object tz = h == null ? null : h.getVolatile();
        return tz != null ? tz : ZoneId.systemDefault();
    }

    /** At the call: the default zone now as a {@code TimeZone} (the JDK's reference, else {@code TimeZone.getDefault()}). */
    static TimeZone timeZoneAtCall() {
        VarHandle h = defaultTimeZone;
        Object tz = h == null ? null : h.getVolatile();
        return tz != null ? (TimeZone) tz : TimeZone.getDefault();
    }

    /** On the writer: the {@code ZoneId} of what {@link #atCall} answered. */
    static ZoneId zoneId(Object atCall) {
        return atCall instanceof TimeZone tz ? tz.toZoneId() : (ZoneId) atCall;
    }

    /** On the writer: a copy of what {@link #timeZoneAtCall} answered, the caller's own to use. */
    static TimeZone copy(TimeZone atCall) {
        return (TimeZone) atCall.clone();
    }
}
