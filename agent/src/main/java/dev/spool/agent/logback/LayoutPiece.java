package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One converter of Logback's parsed pattern, as a {@link CompiledPatternLayout} writes it: each
 * piece appends exactly what the converter's own {@code write(StringBuilder, event)} would have
 * appended, encoded, or answers false to leave the whole event to Logback.
 *
 * <p>Every piece keeps a handle on Logback's own converter object: where Spool cannot reproduce
 * a converter's output (or only knows what it depends on), Logback's converter computes it, into a
 * scratch {@code StringBuilder}, and Spool only encodes or caches it. Not thread-safe: used under
 * the appender's lock.
 */
abstract class LayoutPiece {

    /** Entries a per-key cache holds at most; past it, misses are computed each time. */
    static final int CACHE_LIMIT = 1024;

    final Object converter;
    final LogbackConverters logback;

    LayoutPiece(Object converter, LogbackConverters logback) {
        this.converter = converter;
        this.logback = logback;
    }

    /** Appends the converter's output for {@code event}; false leaves the whole event to Logback. */
    abstract boolean write(Object event, LayoutBytes out) throws Throwable;

    /** Logback's converter writes, Spool encodes. */
    final boolean viaLogback(Object event, LayoutBytes out) throws Throwable {
        return out.text(logback.write(converter, event));
    }

    /** Any converter: Logback's own output, each event. */
    static final class Delegate extends LayoutPiece {
        Delegate(Object converter, LogbackConverters logback) {
            super(converter, logback);
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            return viaLogback(event, out);
        }
    }

    /** A literal or {@code %n}: Logback's output for the first event, kept. */
    static final class Constant extends LayoutPiece {
        private byte[] bytes;

        Constant(Object converter, LogbackConverters logback) {
            super(converter, logback);
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            if (bytes == null) {
                byte[] b = out.encodeAlone(logback.write(converter, event));
                if (b == null) {
                    return false; // pairs with a neighbour: Logback encodes the line
                }
                bytes = b;
            }
            out.bytes(bytes);
            return true;
        }
    }

    /**
     * A converter whose output depends only on one property of the event ({@code %level}: the
     * level; {@code %logger{n}}: the logger's name, abbreviated by Logback's own abbreviator;
     * {@code %thread}: the thread's name): Logback's output, format modifier included, computed
     * once per distinct value and kept encoded.
     */
    static final class Keyed extends LayoutPiece {
        private static final Object NONE = new Object();
        private final MethodHandle key; // (event) -> Object
        private final Map<Object, byte[]> cache = new HashMap<>();
        private Object lastKey = NONE;
        private byte[] lastBytes;

        Keyed(Object converter, LogbackConverters logback, MethodHandle key) {
            super(converter, logback);
            this.key = key;
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            Object k = (Object) key.invokeExact(event);
            if (k != lastKey) {
                byte[] b = cache.get(k);
                if (b == null) {
                    b = out.encodeAlone(logback.write(converter, event));
                    if (b == null) {
                        return false;
                    }
                    if (cache.size() < CACHE_LIMIT) {
                        cache.put(k, b);
                    }
                }
                lastKey = k;
                lastBytes = b;
            }
            out.bytes(lastBytes);
            return true;
        }
    }

    /** {@code %msg}: the event's formatted message, formatted and encoded straight into the line. */
    static final class Message extends LayoutPiece {
        private final MethodHandle message; // (event) -> Object
        private final LayoutFormat format;

        Message(Object converter, LogbackConverters logback, MethodHandle message, LayoutFormat format) {
            super(converter, logback);
            this.message = message;
            this.format = format;
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            return out.formatted((String) (Object) message.invokeExact(event), format);
        }
    }

    /** {@code %X{key:-default}}: the value in the event's MDC map, else the default. */
    static final class Mdc extends LayoutPiece {
        private final MethodHandle map; // (event) -> Object
        private final String key;
        private final String defaultValue;
        private final LayoutFormat format;

        Mdc(Object converter, LogbackConverters logback, MethodHandle map, String key, String defaultValue,
            LayoutFormat format) {
            super(converter, logback);
            this.map = map;
            this.key = key;
            this.defaultValue = defaultValue;
            this.format = format;
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            Map<?, ?> m = (Map<?, ?>) (Object) map.invokeExact(event);
            Object v = m == null ? null : m.get(key);
            return out.formatted(v != null ? (String) v : defaultValue, format);
        }
    }

    /**
     * A converter that prints the empty string when the event has no such property
     * ({@code %marker} without markers, {@code %ex}/{@code %xEx}/{@code %rEx} without a throwable),
     * formatted; with one, Logback's own output.
     */
    static final class WhenAbsent extends LayoutPiece {
        private final MethodHandle property; // (event) -> Object
        private final byte[] absent;

        WhenAbsent(Object converter, LogbackConverters logback, MethodHandle property, byte[] absent) {
            super(converter, logback);
            this.property = property;
            this.absent = absent;
        }

        @Override
        boolean write(Object event, LayoutBytes out) throws Throwable {
            Object p = (Object) property.invokeExact(event);
            if (p == null || p instanceof List<?> l && l.isEmpty()) {
                out.bytes(absent);
                return true;
            }
            return viaLogback(event, out);
        }
    }
}
