package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a {@code PatternLayoutEncoder}/{@code LayoutWrappingEncoder} around Logback's
 * {@code PatternLayout} returns from {@code encode(event)}, computed on the encoding thread
 * without building the line as a {@code String}: Logback's own parsed converter chain (the
 * layout's {@code head}, so the pattern's parsing, options and the context's converter registry
 * stay Logback's), each converter replaced by a {@link LayoutPiece} writing straight into a
 * reusable byte buffer in the encoder's charset.
 *
 * <ul>
 *   <li>literals, {@code %n}: encoded once;</li>
 *   <li>{@code %d} (any pattern, zone): {@link DatePiece}, Logback's formatter once per second;</li>
 *   <li>{@code %level}, {@code %logger{n}}, {@code %thread}: Logback's converter once per distinct
 *       level, logger name, thread name, kept encoded (format modifiers included);</li>
 *   <li>{@code %msg}, {@code %X{key}}: the event's text, formatted and encoded in place;</li>
 *   <li>{@code %marker}, {@code %ex}/{@code %xEx}/{@code %rEx}: their empty text when the event has
 *       no marker / no throwable; else, and for every other converter ({@code %caller},
 *       {@code %replace}, colours, custom ones), the converter's own output, encoded.</li>
 * </ul>
 * {@link #encode} answers null, and Logback's encoder encodes the event, when the charset is not
 * one {@link LayoutBytes#supports}, when a piece's text could pair a surrogate with its
 * neighbour, when the encoder's layout, charset or converter chain changed or the layout is
 * stopped, and for good after any failure or a difference from Logback's own bytes, which it
 * looks for on the first event and every {@value #CHECK_EVERY}th.
 *
 * <p>Not thread-safe: one per deferred appender, used under the appender's lock.
 */
final class CompiledPatternLayout {

    /** Events between two comparisons with Logback's own encoder. */
    static final int CHECK_EVERY = 4096;
    private static final String CLASSIC = "ch:qos:logback:classic:pattern:".replace(':', '.');
    private static final String CORE = "ch:qos:logback:core:pattern:".replace(':', '.');

    private final Object encoder;
    private final Object layout;
    private final Object head;
    private final Object charset;          // as the encoder holds it (null: the platform's default)
    private final MethodHandle layoutOf;   // (encoder) -> layout
    private final MethodHandle charsetOf;  // (encoder) -> Charset
    private final MethodHandle headOf;     // (layout) -> Converter
    private final MethodHandle started;    // (layout) -> boolean
    private final MethodHandle logbackEncode; // (encoder, event) -> byte[]
    private final LayoutPiece[] pieces;
    private final LayoutBytes out;
    private final String pattern;
    private final Consumer<String> report;
    private int untilCheck;
    private boolean broken;

    private CompiledPatternLayout(Object encoder, Object layout, Object head, Object charset, MethodHandle[] handles,
                                  MethodHandle logbackEncode, LayoutPiece[] pieces, Charset cs, String pattern,
                                  Consumer<String> report) {
        this.encoder = encoder;
        this.layout = layout;
        this.head = head;
        this.charset = charset;
        this.layoutOf = handles[0];
        this.charsetOf = handles[1];
        this.headOf = handles[2];
        this.started = handles[3];
        this.logbackEncode = logbackEncode;
        this.pieces = pieces;
        this.out = new LayoutBytes(cs);
        this.pattern = pattern;
        this.report = report;
    }

    /**
     * The compiled form of {@code encoder}'s layout (one {@link LogbackEncoders#shape} accepted), or
     * null when it cannot be compiled (its charset, or a Logback whose internals differ).
     *
     * @param logbackEncode {@code (encoder, event) -> byte[]}: the encoder's own {@code encode}
     * @param report        receives a sentence when the compiled layout is given up for good
     */
    static CompiledPatternLayout compile(Object encoder, MethodHandle logbackEncode, Consumer<String> report) {
        try {
            MethodHandles.Lookup pub = MethodHandles.publicLookup();
            Method getLayout = encoder.getClass().getMethod("getLayout");
            Method getCharset = encoder.getClass().getMethod("getCharset");
            Object layout = getLayout.invoke(encoder);
            Object charset = getCharset.invoke(encoder);
            Charset cs = charset == null ? Charset.defaultCharset() : (Charset) charset;
            if (layout == null || !LayoutBytes.supports(cs)) {
                return null;
            }
            Field headField = headField(layout.getClass());
            Object head = headField.get(layout);
            if (head == null) {
                return null;
            }
            LogbackConverters logback = LogbackConverters.of(layout);
            List<LayoutPiece> pieces = new ArrayList<>();
            LayoutBytes scratch = new LayoutBytes(cs);
            for (Object c = head; c != null; c = c.getClass().getMethod("getNext").invoke(c)) {
                pieces.add(piece(c, logback, scratch));
            }
            MethodType getter = MethodType.methodType(Object.class, Object.class);
            MethodHandle[] handles = {
                pub.unreflect(getLayout).asType(getter),
                pub.unreflect(getCharset).asType(getter),
                MethodHandles.lookup().unreflectGetter(headField).asType(getter),
                pub.unreflect(layout.getClass().getMethod("isStarted")).asType(MethodType.methodType(boolean.class, Object.class)),
            };
            String pattern = String.valueOf(layout.getClass().getMethod("getPattern").invoke(layout));
            return new CompiledPatternLayout(encoder, layout, head, charset, handles, logbackEncode,
                    pieces.toArray(new LayoutPiece[0]), cs, pattern, report);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // Logback's internals differ from what this reads: its encoder encodes
        }
    }

    /** The encoder's layout compiled again (after {@link #stale}), or null. */
    CompiledPatternLayout recompiled() {
        return compile(encoder, logbackEncode, report);
    }

    /** How many converters the pattern has. */
    int size() {
        return pieces.length;
    }

    /** How many converters Logback's converter writes each event (tests, status). */
    int delegated() {
        int n = 0;
        for (LayoutPiece p : pieces) {
            n += p instanceof LayoutPiece.Delegate ? 1 : 0;
        }
        return n;
    }

    /** Whether the encoder's layout, charset or chain changed since compiling (a new compile may apply). */
    boolean stale() {
        try {
            return (Object) layoutOf.invokeExact(encoder) != layout || (Object) charsetOf.invokeExact(encoder) != charset
                    || (Object) headOf.invokeExact(layout) != head;
        } catch (Throwable t) {
            return true;
        }
    }

    /** The bytes Logback's encoder would return for {@code event}, or null: Logback's encoder must encode it. */
    byte[] encode(Object event) {
        if (broken) {
            return null;
        }
        try {
            if (stale() || !(boolean) started.invokeExact(layout)) {
                return null;
            }
            LayoutBytes o = out;
            o.reset();
            for (LayoutPiece p : pieces) {
                if (!p.write(event, o)) {
                    return null;
                }
            }
            byte[] bytes = o.toArray();
            if (--untilCheck < 0) {
                untilCheck = CHECK_EVERY - 1;
                return checked(event, bytes);
            }
            return bytes;
        } catch (Throwable t) {
            giveUp("failed (" + t + ")");
            return null;
        }
    }

    private byte[] checked(Object event, byte[] bytes) throws Throwable {
        byte[] expected = (byte[]) (Object) logbackEncode.invokeExact(encoder, event);
        if (!Arrays.equals(expected, bytes)) {
            giveUp("differed from Logback's bytes at byte " + Arrays.mismatch(expected, bytes) + " of " + expected.length);
        }
        return expected;
    }

    private void giveUp(String why) {
        broken = true;
        report.accept("Spool's compiled form of the pattern \"" + pattern + "\" " + why
                + ": Logback's own encoder encodes this appender's events from now on");
    }

    private static LayoutPiece piece(Object c, LogbackConverters logback, LayoutBytes scratch)
            throws ReflectiveOperationException {
        String name = c.getClass().getName();
        LayoutFormat format = name.startsWith(CORE + "Literal") ? null : modifier(c);
        switch (name.startsWith(CLASSIC) ? name.substring(CLASSIC.length()) : name) {
            case "LineSeparatorConverter":
                return new LayoutPiece.Constant(c, logback);
            case "DateConverter":
                LayoutPiece date = DatePiece.of(c, logback, format);
                return date != null ? date : new LayoutPiece.Delegate(c, logback);
            case "LevelConverter":
                return keyed(c, logback, logback.level);
            case "LoggerConverter":
                return keyed(c, logback, logback.loggerName);
            case "ThreadConverter":
                return keyed(c, logback, logback.threadName);
            case "MessageConverter":
                return logback.message == null ? new LayoutPiece.Delegate(c, logback)
                        : new LayoutPiece.Message(c, logback, logback.message, format);
            case "MDCConverter":
                return mdc(c, logback, format);
            case "MarkerConverter":
                return absent(c, logback, logback.markers, format, scratch);
            case "ThrowableProxyConverter", "ExtendedThrowableProxyConverter", "RootCauseFirstThrowableProxyConverter":
                return absent(c, logback, logback.throwable, format, scratch);
            default:
                return name.equals(CORE + "LiteralConverter") ? new LayoutPiece.Constant(c, logback)
                        : new LayoutPiece.Delegate(c, logback);
        }
    }

    private static LayoutPiece keyed(Object c, LogbackConverters logback, MethodHandle key) {
        return key == null ? new LayoutPiece.Delegate(c, logback) : new LayoutPiece.Keyed(c, logback, key);
    }

    private static LayoutPiece absent(Object c, LogbackConverters logback, MethodHandle property, LayoutFormat format,
                                      LayoutBytes scratch) {
        byte[] empty = scratch.encodeAlone("", format);
        return property == null || empty == null ? new LayoutPiece.Delegate(c, logback)
                : new LayoutPiece.WhenAbsent(c, logback, property, empty);
    }

    private static LayoutPiece mdc(Object c, LogbackConverters logback, LayoutFormat format)
            throws ReflectiveOperationException {
        Field key = c.getClass().getDeclaredField("key");
        Field defaultValue = c.getClass().getDeclaredField("defaultValue");
        key.setAccessible(true);
        defaultValue.setAccessible(true);
        Object k = key.get(c);
        if (k == null || logback.mdc == null) {
            return new LayoutPiece.Delegate(c, logback); // %mdc of every key: Logback's own text
        }
        return new LayoutPiece.Mdc(c, logback, logback.mdc, (String) k, (String) defaultValue.get(c), format);
    }

    private static LayoutFormat modifier(Object c) throws ReflectiveOperationException {
        try {
            return LayoutFormat.of(c.getClass().getMethod("getFormattingInfo").invoke(c));
        } catch (NoSuchMethodException e) {
            return null; // not a FormattingConverter: written as is
        }
    }

    private static Field headField(Class<?> type) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(LogbackEncoders.LAYOUT_BASE)) {
                Field f = c.getDeclaredField("head");
                f.setAccessible(true);
                return f;
            }
        }
        throw new NoSuchFieldException(LogbackEncoders.LAYOUT_BASE + ".head");
    }
}
