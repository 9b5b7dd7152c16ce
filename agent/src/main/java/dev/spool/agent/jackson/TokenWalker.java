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
    private static final long TEXT_MAX = (1L << 26) - 1;

    private TokenWalker() {
        super(null, false);
    }

    static long measure(Object segment, Field slotsField) {
        long heap = 32;
        long text = 0;
        boolean safe = true;
        Shape shape = new Shape();
        for (Segment s = (Segment) segment; s != null; s = s.next()) {
            heap += SEGMENT_HEAP;
            Object[] slots;
            try {
                slots = (Object[]) slotsField.get(s);
            } catch (IllegalAccessException e) {
                return 0;
            }
            if (s.hasIds()) {
                safe = false;
            }
            for (int i = 0; i < Segment.TOKENS_PER_SEGMENT; i++) {
                int type = s.rawType(i);
                if (type == 0) {
                    break; // not yet written: the last segment's tail
                }
                Object o = s.get(i);
                JsonToken t = s.type(i);
                text += 1;
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    shape.start(t == JsonToken.START_OBJECT);
                    continue;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    shape.end(t == JsonToken.END_OBJECT);
                    continue;
                } else if (t == JsonToken.FIELD_NAME) {
                    shape.name();
                } else {
                    shape.value();
                }
                if (t == JsonToken.FIELD_NAME || t == JsonToken.VALUE_STRING) {
                    int length = o instanceof String str ? str.length() : o == null ? 0 : o.toString().length();
                    if (o instanceof String) {
                        heap += 40 + length;
                    } // else a SerializableString: the serializer's own
                    text += length + 3;
                    if (length > (t == JsonToken.FIELD_NAME ? HostOps.MAX_SAFE_NAME : HostOps.MAX_SAFE_STRING)) {
                        safe = false;
                    }
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    heap += 16;
                    text += 6;
                    Object canonical = canonicalInteger(o);
                    if (canonical != o) {
                        slots[i] = canonical; // same text, and now the type a text parser gives
                    }
                    safe &= canonical instanceof Integer || canonical instanceof Long
                            || (canonical instanceof BigInteger b && b.bitLength() < 1000);
                } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    heap += 16;
                    text += o instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e6 ? 8 : 20;
                    safe &= o instanceof Double d && !d.isNaN() && !d.isInfinite();
                } else if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL) {
                    text += 4;
                } else {
                    heap += o instanceof byte[] bytes ? 16 + bytes.length : 64;
                    text += o instanceof byte[] bytes ? bytes.length * 4 / 3 + 4 : 64;
                    safe = false;
                    if (t == JsonToken.VALUE_EMBEDDED_OBJECT && o != null && !(o instanceof byte[]) && !(o instanceof RawValue)) {
                        shape.broken = true; // replayed as writeEmbeddedObject/writeObject: refused, or serialized late
                    }
                }
            }
        }
        if (shape.broken) {
            return HostJackson.TOKENS_NOT_CAPTURABLE;
        }
        return Math.min(heap, HEAP_MASK) | (Math.min(text, TEXT_MAX) << 36) | (safe ? HostJackson.TOKENS_READ_SAFE : 0);
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
