package dev.spool.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * Encodes a Java value into the tagged binary form of {@link EventCodec}. The codec for a value
 * is chosen by its exact class and cached per class ({@link ClassValue}): maps, lists and other
 * collections, arrays, strings, boxed numbers, booleans, Jackson trees and packed primitive
 * arrays have their own codecs; anything else (records, POJOs, enums, dates) is turned into a
 * Jackson tree with {@link ObjectMapper#valueToTree} first. Not thread-safe: one per thread.
 */
final class EventEncoder {
    static final int MAX_DEPTH = 1000;

    /**
     * Spool's own mapper, for values without a codec of their own. In a holder so that encoding
     * maps, lists, arrays, strings and numbers never loads Jackson's databind (about 375 classes,
     * loaded and verified from the agent's class loader: a measurable part of the agent's start-up
     * on a host whose events are all of those types, as the sample app's are).
     */
    private static final class Mapper {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    @FunctionalInterface
    interface Codec {
        void encode(EventEncoder e, Object v);
    }

    private static final ClassValue<Codec> CODECS = new ClassValue<>() {
        @Override
        protected Codec computeValue(Class<?> c) {
            return codecFor(c);
        }
    };

    final Scratch out;
    private int depth;

    EventEncoder(Scratch out) {
        this.out = out;
    }

    void value(Object v) {
        if (v == null) {
            out.put(EventCodec.NULL);
        } else {
            CODECS.get(v.getClass()).encode(this, v);
        }
    }

    private static Codec codecFor(Class<?> c) {
        if (c == String.class) return (e, v) -> e.string((String) v);
        if (c == Integer.class || c == Short.class || c == Byte.class) return (e, v) -> e.int32(((Number) v).intValue());
        if (c == Long.class) return (e, v) -> e.int64((Long) v);
        if (c == Double.class) return (e, v) -> e.float64((Double) v);
        if (c == Float.class) return (e, v) -> e.float32((Float) v);
        if (c == Boolean.class) return (e, v) -> e.out.put((Boolean) v ? EventCodec.TRUE : EventCodec.FALSE);
        if (c == Character.class) return (e, v) -> e.string(v.toString());
        if (c == BigInteger.class) return (e, v) -> e.bigInteger((BigInteger) v);
        if (c == BigDecimal.class) return (e, v) -> e.bigDecimal((BigDecimal) v);
        if (c == double[].class) return (e, v) -> e.doubles((double[]) v);
        if (c == long[].class) return (e, v) -> e.longs((long[]) v);
        if (c == int[].class) return (e, v) -> e.ints((int[]) v);
        if (c == float[].class) return (e, v) -> e.floats((float[]) v);
        if (c == short[].class) return (e, v) -> e.shorts((short[]) v);
        if (c == byte[].class) return (e, v) -> e.binary((byte[]) v);
        if (c == char[].class) return (e, v) -> e.string(new String((char[]) v));
        if (c == boolean[].class) return (e, v) -> e.booleans((boolean[]) v);
        if (c.isArray() && !c.getComponentType().isPrimitive()) return (e, v) -> e.array((Object[]) v);
        if (Map.class.isAssignableFrom(c)) return (e, v) -> e.map((Map<?, ?>) v);
        if (List.class.isAssignableFrom(c) && RandomAccess.class.isAssignableFrom(c)) return (e, v) -> e.list((List<?>) v);
        if (Collection.class.isAssignableFrom(c)) return (e, v) -> e.collection((Collection<?>) v);
        if (JsonNode.class.isAssignableFrom(c)) return (e, v) -> NodeEncoder.node(e, (JsonNode) v);
        return EventEncoder::viaJackson;
    }

    private static void viaJackson(EventEncoder e, Object v) {
        JsonNode tree;
        try {
            tree = Mapper.MAPPER.valueToTree(v);
        } catch (RuntimeException ex) {
            throw new EncodeException("Jackson cannot convert " + v.getClass().getName() + ": " + ex.getMessage(), ex);
        }
        NodeEncoder.node(e, tree);
    }

    void string(String s) {
        int n = s.length();
        out.ensure(5L + n);
        int start = out.pos;
        out.put(EventCodec.STRING);
        out.putVarint(n);
        int at = out.pos;
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80) {
                out.pos = start;
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                out.put(EventCodec.STRING);
                out.putVarint(utf8.length);
                out.putBytes(utf8);
                return;
            }
            out.buf.put(at + i, (byte) ch);
        }
        out.pos = at + n;
    }

    /** A map key: varint length and UTF-8, no tag. */
    void key(String s) {
        byte[] utf8 = null;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                utf8 = s.getBytes(StandardCharsets.UTF_8);
                break;
            }
        }
        if (utf8 != null) {
            out.putVarint(utf8.length);
            out.putBytes(utf8);
            return;
        }
        out.putVarint(n);
        out.ensure(n);
        for (int i = 0; i < n; i++) {
            out.buf.put(out.pos + i, (byte) s.charAt(i));
        }
        out.pos += n;
    }

    void int32(int v) {
        out.put(EventCodec.INT32);
        out.putInt(v);
    }

    void int64(long v) {
        if (v == (int) v) {
            int32((int) v);
        } else {
            out.put(EventCodec.INT64);
            out.putLong(v);
        }
    }

    void float64(double v) {
        out.put(EventCodec.FLOAT64);
        out.putLong(Double.doubleToRawLongBits(v));
    }

    void float32(float v) {
        out.put(EventCodec.FLOAT32);
        out.putInt(Float.floatToRawIntBits(v));
    }

    void bigInteger(BigInteger v) {
        out.put(EventCodec.BIGINT);
        byte[] b = v.toByteArray();
        out.putVarint(b.length);
        out.putBytes(b);
    }

    void bigDecimal(BigDecimal v) {
        out.put(EventCodec.DECIMAL);
        out.putInt(v.scale());
        byte[] b = v.unscaledValue().toByteArray();
        out.putVarint(b.length);
        out.putBytes(b);
    }

    void binary(byte[] b) {
        out.put(EventCodec.BINARY);
        out.putVarint(b.length);
        out.putBytes(b);
    }

    private void packedHeader(byte tag, int count, int width) {
        out.ensure(5L + (long) count * width);
        out.put(tag);
        out.putInt(count);
        out.buf.position(out.pos);
    }

    void doubles(double[] a) {
        packedHeader(EventCodec.F64_ARRAY, a.length, 8);
        out.buf.asDoubleBuffer().put(a);
        out.pos += a.length * 8;
    }

    void longs(long[] a) {
        packedHeader(EventCodec.I64_ARRAY, a.length, 8);
        out.buf.asLongBuffer().put(a);
        out.pos += a.length * 8;
    }

    void ints(int[] a) {
        packedHeader(EventCodec.I32_ARRAY, a.length, 4);
        out.buf.asIntBuffer().put(a);
        out.pos += a.length * 4;
    }

    void floats(float[] a) {
        packedHeader(EventCodec.F32_ARRAY, a.length, 4);
        out.buf.asFloatBuffer().put(a);
        out.pos += a.length * 4;
    }

    void shorts(short[] a) {
        packedHeader(EventCodec.I16_ARRAY, a.length, 2);
        out.buf.asShortBuffer().put(a);
        out.pos += a.length * 2;
    }

    void booleans(boolean[] a) {
        int at = beginContainer(EventCodec.ARRAY);
        for (boolean b : a) {
            out.put(b ? EventCodec.TRUE : EventCodec.FALSE);
        }
        endContainer(at, a.length);
    }

    void array(Object[] a) {
        int at = beginContainer(EventCodec.ARRAY);
        for (int i = 0; i < a.length; i++) {
            element(i, a[i]);
        }
        endContainer(at, a.length);
    }

    void list(List<?> l) {
        int at = beginContainer(EventCodec.ARRAY);
        int n = l.size();
        for (int i = 0; i < n; i++) {
            element(i, l.get(i));
        }
        endContainer(at, n);
    }

    void collection(Collection<?> c) {
        int at = beginContainer(EventCodec.ARRAY);
        int i = 0;
        for (Iterator<?> it = c.iterator(); it.hasNext(); i++) {
            element(i, it.next());
        }
        endContainer(at, i);
    }

    void element(int index, Object v) {
        try {
            value(v);
        } catch (KeyPathException k) {
            throw k.in("[" + index + "]");
        }
    }

    void map(Map<?, ?> m) {
        int at = beginContainer(EventCodec.OBJECT);
        int n = 0;
        for (Map.Entry<?, ?> en : m.entrySet()) {
            Object k = en.getKey();
            if (!(k instanceof String)) {
                throw new KeyPathException(k);
            }
            field((String) k, en.getValue());
            n++;
        }
        endContainer(at, n);
    }

    void field(String k, Object v) {
        key(k);
        try {
            value(v);
        } catch (KeyPathException kp) {
            throw kp.in("." + k);
        }
    }

    /** Writes the tag and a count placeholder; returns the placeholder's offset. */
    int beginContainer(byte tag) {
        if (++depth > MAX_DEPTH) {
            throw new EncodeException("event nested deeper than " + MAX_DEPTH + " levels (a cycle?)");
        }
        out.put(tag);
        int at = out.pos;
        out.putInt(0);
        return at;
    }

    void endContainer(int at, int count) {
        out.buf.putInt(at, count);
        depth--;
    }

    void resetDepth() {
        depth = 0;
    }
}
