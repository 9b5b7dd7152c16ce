package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * {@code %d}/{@code %date} with any pattern, zone and locale: the text comes from the converter's
 * own {@code CachingDateFormatter} (so ISO8601, zones and DST are Logback's), asked once per second
 * of the events' time stamps and kept encoded.
 *
 * <p>On each new second the formatter formats the second's milliseconds 0, 123 and 999 (format
 * modifier applied). All three equal: the text is constant for the second. They differ only in
 * three adjacent ASCII characters reading {@code 000}/{@code 123}/{@code 999} (e.g. {@code SSS},
 * {@code SSSS}, milli-of-day): the second's text with the event's milliseconds written there.
 * Anything else (nanoseconds, two millisecond fields, {@code SS}, non-ASCII text with millis):
 * Logback's formatter for each event, as Logback itself does (it caches per millisecond). An event
 * stamped −1 ms: Logback's converter, whatever it prints ({@link #FORMATTER_UNSET}).
 *
 * <p>Not thread-safe: used under the appender's lock.
 */
final class DatePiece extends LayoutPiece {

    private static final int CONSTANT = -1;
    private static final int PER_EVENT = -2;
    /**
     * The stamp Logback's {@code CachingDateFormatter} starts with as its last one, cached with a null text:
     * plain Logback prints {@code null} for an event stamped −1 ms until the converter formatted another stamp.
     * Such an event is formatted by the converter itself, before Spool's own calls change that cache
     * (a second's texts start with its millisecond 0, never −1: the cache holds its start value exactly
     * when plain Logback's does, i.e. before the converter's first event).
     */
    private static final long FORMATTER_UNSET = -1L;

    private final MethodHandle format;     // (long) -> Object, bound to the converter's formatter
    private final MethodHandle timeStamp;  // (event) -> long
    private final LayoutFormat modifier;
    private long second = Long.MIN_VALUE;
    private byte[] template;
    private int millisAt = PER_EVENT;

    private DatePiece(Object converter, LogbackConverters logback, MethodHandle format, LayoutFormat modifier) {
        super(converter, logback);
        this.format = format;
        this.timeStamp = logback.timeStamp;
        this.modifier = modifier;
    }

    /** The piece for Logback's {@code DateConverter} {@code converter}, or null when its formatter is not reachable. */
    static DatePiece of(Object converter, LogbackConverters logback, LayoutFormat modifier) {
        if (logback.timeStamp == null) {
            return null;
        }
        try {
            Field f = converter.getClass().getDeclaredField("cachingDateFormatter");
            f.setAccessible(true);
            Object formatter = f.get(converter);
            if (formatter == null) {
                return null;
            }
            MethodHandle h = MethodHandles.publicLookup().findVirtual(formatter.getClass(), "format",
                    MethodType.methodType(String.class, long.class)).bindTo(formatter)
                    .asType(MethodType.methodType(Object.class, long.class));
            return new DatePiece(converter, logback, h, modifier);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Logback: its converter formats each event
        }
    }

    @Override
    boolean write(Object event, LayoutBytes out) throws Throwable {
        long t = (long) timeStamp.invokeExact(event);
        if (t == FORMATTER_UNSET) {
            return viaLogback(event, out);
        }
        long s = Math.floorDiv(t, 1000L);
        if (s != second) {
            rebuild(s, out);
        }
        if (millisAt == PER_EVENT) {
            return out.formatted((String) (Object) format.invokeExact(t), modifier);
        }
        int start = out.length();
        out.bytes(template);
        if (millisAt >= 0) {
            out.digits3(start + millisAt, (int) Math.floorMod(t, 1000L));
        }
        return true;
    }

    private void rebuild(long s, LayoutBytes out) throws Throwable {
        long base = s * 1000L;
        String f0 = text(base);
        String f9 = text(base + 999);
        String f1 = text(base + 123);
        second = s;
        template = null;
        millisAt = PER_EVENT;
        int at = f0.equals(f9) && f0.equals(f1) ? CONSTANT : millisAt(f0, f9, f1);
        if (at == PER_EVENT || at >= 0 && !ascii(f0)) {
            return;
        }
        template = out.encodeAlone(f0);
        if (template != null) {
            millisAt = at;
        }
    }

    private String text(long t) throws Throwable {
        return LayoutFormat.apply((String) (Object) format.invokeExact(t), modifier);
    }

    /** Where three digits 000/123/999 are the only difference, or PER_EVENT. */
    static int millisAt(String f0, String f9, String f1) {
        int n = f0.length();
        if (f9.length() != n || f1.length() != n) {
            return PER_EVENT;
        }
        int first = -1;
        int last = -1;
        for (int i = 0; i < n; i++) {
            if (f0.charAt(i) != f9.charAt(i)) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        if (first < 0 || last - first != 2 || !f0.startsWith("000", first) || !f9.startsWith("999", first)) {
            return PER_EVENT;
        }
        String patched = f0.substring(0, first) + "123" + f0.substring(first + 3);
        return patched.equals(f1) ? first : PER_EVENT;
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
