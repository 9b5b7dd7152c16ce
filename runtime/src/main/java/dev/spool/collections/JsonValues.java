package dev.spool.collections;

import dev.spool.buffer.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts values on their way into a file's tree to fresh plain JSON types: {@code null},
 * {@code String}, {@code Boolean}, {@code Integer}/{@code Long}/{@code BigInteger},
 * {@code Double}/{@code BigDecimal}, {@code LinkedHashMap<String,Object>}, {@code ArrayList}.
 * Maps and collections are deep-copied (later changes of the caller's object never leak in);
 * primitive arrays become lists of numbers ({@code char[]} a string); records, POJOs and other
 * values go through Jackson ({@code convertValue}). Refused with {@link IllegalArgumentException}
 * naming the key path, before anything is changed: non-string map keys, NaN and infinities (JSON
 * has no such numbers), values Jackson cannot convert, nesting deeper than {@link #MAX_DEPTH}
 * (cycles). Stateless and thread-safe.
 */
final class JsonValues {
    static final int MAX_DEPTH = 500;

    private JsonValues() {}

    static Object toJson(Object v, KeyPath at) {
        return convert(v, at, 0);
    }

    private static Object convert(Object v, KeyPath at, int depth) {
        if (depth > MAX_DEPTH) throw refuse(at, "nesting deeper than " + MAX_DEPTH + " levels (a cycle?)");
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer
                || v instanceof Long || v instanceof BigInteger) return v;
        if (v instanceof Short || v instanceof Byte) return ((Number) v).intValue();
        if (v instanceof Double d) return finite(d, at);
        if (v instanceof Float f) return finite(Double.parseDouble(f.toString()), at);
        if (v instanceof BigDecimal) return v;
        if (v instanceof Character c) return c.toString();
        if (v instanceof SyncedMap m) return m.copyTree();
        if (v instanceof SyncedList l) return l.copyTree();
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>(Math.max(4, m.size() * 4 / 3 + 1));
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) throw nonStringKey(e.getKey(), at);
                out.put(k, convert(e.getValue(), at.key(k), depth + 1));
            }
            return out;
        }
        if (v instanceof Iterable<?> it) {
            List<Object> out = new ArrayList<>();
            for (Object x : it) out.add(convert(x, at.index(out.size()), depth + 1));
            return out;
        }
        if (v.getClass().isArray()) return array(v, at, depth);
        Object converted;
        try {
            converted = Json.convert(v);
        } catch (IllegalArgumentException e) {
            throw refuse(at, "a " + v.getClass().getName() + " cannot be converted to JSON: " + e.getMessage());
        }
        if (converted != null && converted.getClass() == v.getClass()) {
            throw refuse(at, "a " + v.getClass().getName() + " is not a JSON value");
        }
        return convert(converted, at, depth + 1);
    }

    private static Object array(Object v, KeyPath at, int depth) {
        if (v instanceof char[] c) return new String(c);
        List<Object> out = new ArrayList<>();
        if (v instanceof int[] a) for (int x : a) out.add(x);
        else if (v instanceof long[] a) for (long x : a) out.add(x);
        else if (v instanceof short[] a) for (short x : a) out.add((int) x);
        else if (v instanceof byte[] a) for (byte x : a) out.add((int) x);
        else if (v instanceof boolean[] a) for (boolean x : a) out.add(x);
        else if (v instanceof double[] a) for (double x : a) out.add(finite(x, at.index(out.size())));
        else if (v instanceof float[] a) for (float x : a) out.add(finite(Double.parseDouble(Float.toString(x)), at.index(out.size())));
        else for (Object x : (Object[]) v) out.add(convert(x, at.index(out.size()), depth + 1));
        return out;
    }

    private static Double finite(double d, KeyPath at) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw refuse(at, d + " cannot be stored: JSON has no NaN or infinity");
        }
        return d;
    }

    static IllegalArgumentException nonStringKey(Object key, KeyPath at) {
        String type = key == null ? "null" : key.getClass().getSimpleName();
        return refuse(at, "map keys must be strings, found key " + key + " (" + type + ")");
    }

    private static IllegalArgumentException refuse(KeyPath at, String why) {
        return new IllegalArgumentException("at key path " + at + ": " + why + "; nothing was written");
    }

    /** Rough encoded size in bytes of a plain JSON value, for the buffer's byte estimate. */
    static long estimate(Object v) {
        if (v == null) return 4;
        if (v instanceof String s) return s.length() + 2L;
        if (v instanceof Boolean) return 5;
        if (v instanceof Number) return 12;
        if (v instanceof Map<?, ?> m) {
            long n = 2;
            for (Map.Entry<?, ?> e : m.entrySet()) n += ((String) e.getKey()).length() + 4L + estimate(e.getValue());
            return n;
        }
        if (v instanceof List<?> l) {
            long n = 2;
            for (Object x : l) n += 1 + estimate(x);
            return n;
        }
        return 16;
    }

    /** A deep copy of a tree of plain JSON types. */
    static Object deepCopy(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>(Math.max(4, m.size() * 4 / 3 + 1));
            for (Map.Entry<?, ?> e : m.entrySet()) out.put((String) e.getKey(), deepCopy(e.getValue()));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(deepCopy(x));
            return out;
        }
        return v;
    }
}
