package dev.spool.agent.logback;

import java.lang.reflect.Field;
import java.util.Set;

/**
 * Which Logback encoders Spool may run on another thread than the caller's and still produce the
 * bytes plain Logback would have produced on the caller's thread.
 *
 * <p>An encoder qualifies when it is exactly Logback's {@code PatternLayoutEncoder} or
 * {@code LayoutWrappingEncoder} (a subclass may override {@code encode}) around exactly Logback
 * classic's {@code PatternLayout}, and every converter of the compiled pattern (children of
 * composite converters included) is one whose output depends only on the event once Logback's
 * {@code prepareForDeferredProcessing()} has run (formatted message, thread name, MDC copy) and,
 * for the caller converters ({@code %caller %class %method %line %file}), its caller data has
 * been computed on the caller's thread: what Logback's own {@code AsyncAppender} relies on. Left
 * out on purpose: custom converters (unknown), {@code %property} (the context's property may change
 * between the call and the encoding), {@code %lsn} (a counter read at encoding), {@code %kvp} (its
 * values are formatted at encoding and may be mutable), {@code %syslogStart}.
 *
 * <p>Reflection only (Logback is the host's); never throws: an appender it cannot inspect is
 * {@linkplain Shape#reason() not deferrable}.
 */
public final class LogbackEncoders {

    private static final String CLASSIC = "ch:qos:logback:classic:".replace(':', '.');
    private static final String CORE = "ch:qos:logback:core:".replace(':', '.');
    static final String PATTERN_ENCODER = CLASSIC + "encoder.PatternLayoutEncoder";
    static final String WRAPPING_ENCODER = CORE + "encoder.LayoutWrappingEncoder";
    static final String PATTERN_LAYOUT = CLASSIC + "PatternLayout";
    static final String LAYOUT_BASE = CORE + "pattern.PatternLayoutBase";
    static final String CONVERTER = CORE + "pattern.Converter";
    static final String COMPOSITE = CORE + "pattern.CompositeConverter";

    /** Converters whose output is the event's own, fixed once it is prepared (classic's pattern package). */
    private static final Set<String> EVENT_CONVERTERS = Set.of("ContextNameConverter", "DateConverter", "EpochConverter",
            "ExtendedThrowableProxyConverter", "LevelConverter", "LineSeparatorConverter", "LoggerConverter",
            "MDCConverter", "MarkerConverter", "MessageConverter", "MicrosecondConverter",
            "NopThrowableInformationConverter", "PrefixCompositeConverter", "RelativeTimeConverter",
            "RootCauseFirstThrowableProxyConverter", "SequenceNumberConverter", "ThreadConverter",
            "ThrowableProxyConverter");
    /** Converters that read the caller data (computed on the caller's thread when the pattern has one). */
    private static final Set<String> CALLER_CONVERTERS = Set.of("CallerDataConverter", "ClassOfCallerConverter",
            "FileOfCallerConverter", "LineOfCallerConverter", "MethodOfCallerConverter");
    /** Core's converters that only copy or transform their children's output. */
    private static final Set<String> CORE_CONVERTERS = Set.of("LiteralConverter", "IdentityCompositeConverter",
            "ReplacingCompositeConverter");

    private LogbackEncoders() {}

    /** What an appender's encoder needs captured on the caller's thread, or why it stays there. */
    public record Shape(String key, String reason, boolean callerData) {
        public boolean deferrable() {
            return reason == null;
        }

        /** Not deferrable: {@code key} is the plain-path reason counted on the Agent bean, {@code reason} the sentence. */
        static Shape no(String key, String reason) {
            return new Shape(key, reason, false);
        }
    }

    /** Inspects {@code encoder} (an appender's {@code getEncoder()}). */
    public static Shape shape(Object encoder) {
        try {
            if (encoder == null) {
                return Shape.no("logback-encoder", "no encoder");
            }
            String type = encoder.getClass().getName();
            if (!type.equals(PATTERN_ENCODER) && !type.equals(WRAPPING_ENCODER)) {
                return Shape.no("logback-encoder", "its encoder " + type + " is not one Spool can run elsewhere");
            }
            Object layout = encoder.getClass().getMethod("getLayout").invoke(encoder);
            if (layout == null || !layout.getClass().getName().equals(PATTERN_LAYOUT)) {
                return Shape.no("logback-encoder", "its layout " + (layout == null ? "null" : layout.getClass().getName())
                        + " is not Logback's PatternLayout");
            }
            Object head = field(layout.getClass(), LAYOUT_BASE, "head").get(layout);
            if (head == null) {
                return Shape.no("logback-encoder", "its layout is not started");
            }
            boolean[] caller = new boolean[1];
            String unknown = walk(head, caller, 0);
            return unknown == null ? new Shape(null, null, caller[0]) : Shape.no("logback-pattern", "its pattern uses " + unknown);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Shape.no("logback-inaccessible", "Logback's encoder is not accessible (" + e + ")");
        }
    }

    /** The first converter in the chain from {@code c} that is not known to be event-pure, or null. */
    private static String walk(Object c, boolean[] caller, int depth) throws ReflectiveOperationException {
        if (depth > 32) {
            return "converters nested too deep";
        }
        Field next = field(c.getClass(), CONVERTER, "next");
        for (Object at = c; at != null; at = next.get(at)) {
            String verdict = classify(at.getClass(), caller);
            if (verdict != null) {
                return verdict;
            }
            if (LogbackStreams.is(at.getClass(), COMPOSITE)) {
                Object child = at.getClass().getMethod("getChildConverter").invoke(at);
                if (child != null) {
                    String inner = walk(child, caller, depth + 1);
                    if (inner != null) {
                        return inner;
                    }
                }
            }
        }
        return null;
    }

    /** Null when {@code type} is a known event-pure converter (marking caller converters), else its name. */
    static String classify(Class<?> type, boolean[] caller) {
        String name = type.getName();
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        String simple = name.substring(dot + 1);
        if (pkg.equals(CLASSIC + "pattern") && EVENT_CONVERTERS.contains(simple)) {
            return null;
        }
        if (pkg.equals(CLASSIC + "pattern") && CALLER_CONVERTERS.contains(simple)) {
            caller[0] = true;
            return null;
        }
        if (pkg.equals(CORE + "pattern") && CORE_CONVERTERS.contains(simple)) {
            return null;
        }
        if (pkg.equals(CORE + "pattern.color") || pkg.equals(CLASSIC + "pattern.color")) {
            return null; // ANSI colour wrappers around their children (highlight: by the event's level)
        }
        return name;
    }

    private static Field field(Class<?> type, String owner, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(owner)) {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            }
        }
        throw new NoSuchFieldException(owner + "." + name);
    }
}
