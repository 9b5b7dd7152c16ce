package dev.spool.agent.jackson;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.lang.reflect.Field;
import java.math.BigInteger;

/**
 * The walk over a {@code TokenBuffer}'s segments that {@link HostOps#measure} answers with. A
 * subclass only so that the compiler lets it name {@code TokenBuffer.Segment} (a protected member
 * class, public in the class file); never instantiated. Runs against the host's Jackson beside
 * {@link HostOps}: {@link HostOpsLoader} defines it (and {@code TokenWalker$*}) from
 * {@code TokenWalker.bytes}, so the same rules hold (JDK, Jackson and its own nested classes only;
 * no lambdas).
 */
final class TokenWalker extends TokenBuffer {
    private static final long serialVersionUID = 1L;
    private static final int SEGMENT_HEAP = 16 + 8 + 4 + 4 + 4 + 16 + 16 * 4; // header, fields, Object[16]
    private static final long HEAP_MASK = (1L << 36) - 1;
    private static final long TEXT_MAX = (1L << 25) - 1;
    /** A generator refuses a {@code BigDecimal} written plain beyond this scale (GeneratorBase.MAX_BIG_DECIMAL_SCALE). */
    private static final int MAX_PLAIN_SCALE = 9999;

    private TokenWalker() {
        super(null, false);
    }

    /**
     * Walks the segments from {@code segment} on. The per-segment loop ({@link Walk#segment}) and
     * the per-token work ({@link Walk#token}) are methods of their own, each small, with the rare
     * tokens (embedded objects, binary, raw values) out of line: the JIT compiles the walk once,
     * quickly, where one large method with nested loops was compiled three times (two on-stack
     * replacements, one whole), which in a short-lived host cost more than the walks themselves.
     */
    static long measure(Object segment, Field slotsField) {
        Walk w = new Walk();
        for (Segment s = (Segment) segment; s != null; s = s.next()) {
            Object[] slots;
            try {
                slots = (Object[]) slotsField.get(s);
            } catch (IllegalAccessException e) {
                return 0;
            }
            w.segment(s, slots);
        }
        return w.result();
    }

    /** One walk's sums and its {@link Shape}. Not thread-safe: one per walk. */
    static final class Walk {
        private final Shape shape = new Shape();
        private long heap = 32;
        private long text;
        private boolean safe = true;
        private boolean floats;

        void segment(Segment s, Object[] slots) {
            heap += SEGMENT_HEAP;
            if (s.hasIds()) {
                safe = false;
            }
            for (int i = 0; i < Segment.TOKENS_PER_SEGMENT; i++) {
                if (s.rawType(i) == 0) {
                    return; // not yet written: the last segment's tail
                }
                token(s.type(i), slots, i);
            }
        }

        private void token(JsonToken t, Object[] slots, int i) {
            text += 1;
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                shape.start(t == JsonToken.START_OBJECT);
            } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                shape.end(t == JsonToken.END_OBJECT);
            } else if (t == JsonToken.FIELD_NAME) {
                shape.name();
                text(slots[i], HostOps.MAX_SAFE_NAME);
            } else {
                shape.value();
                if (t == JsonToken.VALUE_STRING) {
                    text(slots[i], HostOps.MAX_SAFE_STRING);
                } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    floating(slots[i]);
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    integral(slots, i);
                } else if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL) {
                    text += 4;
                } else {
                    other(t, slots[i]);
                }
            }
        }

        /** A field name or a string value: a {@code String}, or a serializer's own {@code SerializableString}. */
        private void text(Object o, int maxSafe) {
            int length;
            String str = o instanceof String own ? own : o == null ? "" : o.toString(); // or a serializer's SerializableString
            length = str.length();
            if (o instanceof String) {
                heap += 40 + length;
            }
            if (safe && loneSurrogate(str)) {
                safe = false; // M: Jackson 2.20+ refuses to read the file's bytes for it; the tokens would read
            }
            text += length + 3;
            if (length > maxSafe) {
                safe = false;
            }
        }

        private void floating(Object o) {
            heap += 16;
            floats = true;
            if (o instanceof java.math.BigDecimal d && Math.abs((long) d.scale()) > MAX_PLAIN_SCALE) {
                shape.broken = true; // B: written plain, the generator refuses it: encoded at the call, which throws there
            }
            if (o instanceof Double d) {
                double v = d;
                text += v == Math.rint(v) && Math.abs(v) < 1e6 ? 8 : 20;
                safe &= !Double.isNaN(v) && !Double.isInfinite(v);
            } else {
                text += 20;
                safe = false;
            }
        }

        private void integral(Object[] slots, int i) {
            heap += 16;
            text += 6;
            Object o = slots[i];
            Object canonical = o instanceof Integer ? o : canonicalInteger(o);
            if (canonical != o) {
                slots[i] = canonical; // same text, and now the type a text parser gives
            }
            safe &= canonical instanceof Integer || canonical instanceof Long
                    || (canonical instanceof BigInteger b && b.bitLength() < 1000);
        }

        /** Embedded objects, binary and raw values: never read from tokens; some cannot be replayed at all. */
        private void other(JsonToken t, Object o) {
            heap += o instanceof byte[] bytes ? 16 + bytes.length : 64;
            text += o instanceof byte[] bytes ? bytes.length * 4 / 3 + 4 : 64;
            safe = false;
            if (t == JsonToken.VALUE_EMBEDDED_OBJECT && o != null && !(o instanceof byte[]) && !(o instanceof RawValue)) {
                shape.broken = true; // replayed as writeEmbeddedObject/writeObject: refused, or serialized late
            }
            if (o instanceof RawValue r && (!(r.rawValue() instanceof String text) || anySurrogate(text))) {
                shape.broken = true; // B: raw text with a surrogate may be refused by the generator; another raw kind is the host's
            }
        }

        long result() {
            if (shape.broken) {
                return HostJackson.TOKENS_NOT_CAPTURABLE;
            }
            return Math.min(heap, HEAP_MASK) | (Math.min(text, TEXT_MAX) << 36) | (floats ? HostJackson.TOKENS_FLOAT : 0)
                    | (safe ? HostJackson.TOKENS_READ_SAFE : 0);
        }
    }

    /** Whether {@code s} holds a surrogate not part of a high-low pair. */
    static boolean loneSurrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean anySurrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                return true;
            }
        }
        return false;
    }

    /**
     * The structure a generator checks while the tokens are replayed into it (its write
     * context): a field name only where an object expects one, a value (a container too) only
     * where one is expected, each end matching its start; and no deeper than
     * {@link HostOps#MAX_SAFE_DEPTH} (a generator may refuse deeper: Jackson 2.16+'s
     * {@code StreamWriteConstraints}). A custom serializer can put anything into a
     * {@code TokenBuffer}; tokens that break these rules would fail at the flush, where the
     * host's own write threw at the call. Not thread-safe: one per walk.
     */
    static final class Shape {
        private boolean[] objects = new boolean[16];
        private int depth;
        private boolean nameDue;
        boolean broken;

        void start(boolean object) {
            value();
            if (depth == HostOps.MAX_SAFE_DEPTH) {
                broken = true;
                return;
            }
            if (depth == objects.length) {
                objects = java.util.Arrays.copyOf(objects, depth * 2);
            }
            objects[depth++] = object;
            nameDue = object;
        }

        void end(boolean object) {
            if (depth == 0 || objects[depth - 1] != object) {
                broken = true;
                return;
            }
            depth--;
            nameDue = depth > 0 && objects[depth - 1];
        }

        void name() {
            broken |= !nameDue;
            nameDue = false;
        }

        void value() {
            broken |= nameDue;
            nameDue = depth > 0 && objects[depth - 1];
        }
    }

    /**
     * An integral token as the type a text parser reports for its digits ({@code Integer} in
     * int range, {@code Long} in long range, else {@code BigInteger}): every generator writes
     * the same digits for all of them, so the file is unchanged and a read from the tokens
     * sees the number types a read of the file sees. Other values are returned as they are.
     */
    static Object canonicalInteger(Object o) {
        if (o instanceof Long l) {
            return l == l.intValue() ? (Object) l.intValue() : o;
        }
        if (o instanceof Short || o instanceof Byte) {
            return ((Number) o).intValue();
        }
        if (o instanceof BigInteger b && b.bitLength() < 64) {
            return b.bitLength() < 32 ? (Object) b.intValue() : (Object) b.longValue();
        }
        return o;
    }
}
