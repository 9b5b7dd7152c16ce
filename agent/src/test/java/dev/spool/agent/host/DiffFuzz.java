package dev.spool.agent.host;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The capture differential's seeded random part (issue 31): random writer configurations
 * (serialization and generator features, printers, escapes, Base64 variants, views, root names)
 * × random values (numbers at their edges, strings of every escape class, binary, nesting,
 * POJOs, misbehaving serializers) × a random reader per case. Each case is named by its own seed
 * ({@code fuzz-<hex>}), so a case found differing is replayed alone with {@link #one}, and kept by
 * adding that seed to {@link #KEPT}. Deterministic: the same seed builds the same cases in the plain
 * and in the agent's JVM (a case whose API this Jackson lacks is left out in both).
 */
public final class DiffFuzz {

    /**
     * Seeds of cases a run found differing, replayed by every run. Both found by seed 31 (120 cases,
     * 2.12 and 2.22): a {@code FailsOnce} nested among serializers whose capture was unproven; the
     * agent ran the serializers again at the call, which succeeded where plain threw.
     */
    static final long[] KEPT = {0xce28823ab20a6a50L, 0x060c6c019dec6db4L};

    private static final String[] STRINGS = {"", "a", "tab\t", "nl\n", "quote\"", "back\\slash", "slash/", "ctl\u0001\u001f",
        "<tag>&'", "grüße", "日本", "\uD83D\uDE00", "\u2028\u2029", "x".repeat(300), "\u007f\u0080\u00ff", "=:,;{}[]"};

    private DiffFuzz() { }

    /** {@code count} cases from {@code seed}, after the kept ones. */
    public static List<DiffCases.Case> cases(long seed, int count) {
        List<DiffCases.Case> out = new ArrayList<>();
        for (long kept : KEPT) {
            add(out, kept);
        }
        Random r = new Random(seed);
        for (int i = 0; i < count; i++) {
            add(out, r.nextLong());
        }
        return out;
    }

    private static void add(List<DiffCases.Case> out, long caseSeed) {
        try {
            out.add(one(caseSeed));
        } catch (LinkageError | RuntimeException missing) {
            // this Jackson lacks a feature the case picked: left out, in both runs alike
        }
    }

    /** The case of {@code seed}. */
    public static DiffCases.Case one(long seed) {
        Random r = new Random(seed);
        Object value = value(r, 0);
        return new DiffCases.Case("fuzz-" + Long.toHexString(seed), caller(r), value, value == null ? null : value.getClass());
    }

    /** A random reader for the case named {@code name} (its seed decides), reading {@code Object}. */
    static DiffCases.Read reader(String name) {
        Random r = new Random(Long.parseUnsignedLong(name.substring("fuzz-".length()), 16) ^ 0x5EED);
        ObjectMapper m = new ObjectMapper();
        DeserializationFeature[] d = {DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, DeserializationFeature.USE_BIG_INTEGER_FOR_INTS,
            DeserializationFeature.USE_LONG_FOR_INTS, DeserializationFeature.USE_JAVA_ARRAY_FOR_JSON_ARRAY,
            DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY};
        for (DeserializationFeature f : d) {
            m.configure(f, r.nextInt(3) == 0);
        }
        m.configure(JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS, r.nextBoolean());
        m.configure(JsonParser.Feature.STRICT_DUPLICATE_DETECTION, r.nextInt(4) == 0);
        return r.nextBoolean() ? new DiffCases.Read("fuzzReader", m, "readValue", Object.class)
                : new DiffCases.Read("fuzzReader", m.readerFor(Object.class), "readValue", null);
    }

    private static Object caller(Random r) {
        ObjectMapper m = new ObjectMapper();
        m.findAndRegisterModules();
        SerializationFeature[] s = {SerializationFeature.INDENT_OUTPUT, SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS,
            SerializationFeature.WRITE_ENUMS_USING_TO_STRING, SerializationFeature.WRITE_ENUMS_USING_INDEX,
            SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, SerializationFeature.WRITE_CHAR_ARRAYS_AS_JSON_ARRAYS,
            SerializationFeature.WRITE_SINGLE_ELEM_ARRAYS_UNWRAPPED, SerializationFeature.WRAP_ROOT_VALUE,
            SerializationFeature.FAIL_ON_EMPTY_BEANS, SerializationFeature.FLUSH_AFTER_WRITE_VALUE};
        for (SerializationFeature f : s) {
            if (r.nextInt(4) == 0) {
                m.configure(f, r.nextBoolean());
            }
        }
        for (JsonGenerator.Feature f : JsonGenerator.Feature.values()) {
            if (r.nextInt(6) == 0) {
                m.configure(f, r.nextBoolean());
            }
        }
        if (r.nextInt(4) == 0) {
            m.setBase64Variant(variant(r));
        }
        int escapes = r.nextInt(12);
        if (escapes == 0) {
            m.getFactory().setCharacterEscapes(new DiffTypes.AngleEscapes());
        } else if (escapes == 1) {
            m.getFactory().setCharacterEscapes(new DiffMisbehaving.ValueChangingEscapes());
        }
        if (r.nextBoolean()) {
            return m;
        }
        ObjectWriter w = m.writer();
        switch (r.nextInt(8)) {
            case 0 -> w = w.withDefaultPrettyPrinter();
            case 1 -> w = w.with(new MinimalPrettyPrinter(r.nextBoolean() ? " " : ""));
            case 2 -> w = w.withRootName("root" + r.nextInt(3));
            case 3 -> w = w.withView(DiffTypes.Views.Public.class);
            case 4 -> w = w.with(variant(r));
            case 5 -> w = w.without(SerializationFeature.INDENT_OUTPUT);
            case 6 -> w = w.with(JsonGenerator.Feature.values()[r.nextInt(JsonGenerator.Feature.values().length)]);
            default -> { }
        }
        return w;
    }

    private static Base64Variant variant(Random r) {
        Base64Variant[] v = {Base64Variants.MIME, Base64Variants.MIME_NO_LINEFEEDS, Base64Variants.MODIFIED_FOR_URL, Base64Variants.PEM};
        return v[r.nextInt(v.length)];
    }

    private static Object value(Random r, int depth) {
        int kind = r.nextInt(depth >= 4 ? 8 : 12);
        switch (kind) {
            case 0: return number(r);
            case 1: return number(r);
            case 2: return text(r);
            case 3: return r.nextBoolean();
            case 4: return null;
            case 5: return bytes(r);
            case 6: return special(r);
            case 7: return doubles(r);
            case 8: case 9: {
                Map<String, Object> m = new LinkedHashMap<>();
                int n = r.nextInt(6);
                for (int i = 0; i < n; i++) {
                    m.put(r.nextInt(5) == 0 ? text(r) : "k" + i, value(r, depth + 1));
                }
                return m;
            }
            default: {
                List<Object> l = new ArrayList<>();
                int n = r.nextInt(6);
                for (int i = 0; i < n; i++) {
                    l.add(value(r, depth + 1));
                }
                return l;
            }
        }
    }

    private static Object number(Random r) {
        switch (r.nextInt(14)) {
            case 0: return r.nextInt();
            case 1: return new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}[r.nextInt(4)];
            case 2: return new long[] {5L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40}[r.nextInt(4)];
            case 3: return BigInteger.valueOf(r.nextLong()).shiftLeft(r.nextInt(100));
            case 4: return new BigDecimal(BigInteger.valueOf(r.nextInt()), r.nextInt(40) - 20);
            case 5: return new BigDecimal(BigInteger.ONE, r.nextBoolean() ? 10_001 : -10_001);
            case 6: return r.nextDouble() * Math.pow(10, r.nextInt(40) - 20);
            case 7: return new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE, Double.MAX_VALUE,
                1 + Math.pow(2, -24), 0.1, 1e21}[r.nextInt(8)];
            case 8: return r.nextFloat();
            case 9: return new float[] {Float.NaN, 0.1f, Float.MIN_VALUE, Float.MAX_VALUE}[r.nextInt(4)];
            case 10: return (short) r.nextInt();
            case 11: return (byte) r.nextInt();
            case 12: return new java.util.concurrent.atomic.AtomicLong(r.nextLong());
            default: return r.nextInt(1000);
        }
    }

    private static String text(Random r) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            b.append(STRINGS[r.nextInt(STRINGS.length)]);
        }
        if (r.nextInt(40) == 0) {
            b.append(r.nextBoolean() ? '\uD800' : '\uDC00'); // a lone surrogate
        }
        return b.toString();
    }

    private static byte[] bytes(Random r) {
        byte[] b = new byte[r.nextInt(120)];
        r.nextBytes(b);
        return b;
    }

    private static double[] doubles(Random r) {
        double[] d = new double[r.nextInt(10)];
        for (int i = 0; i < d.length; i++) {
            Object n = number(r);
            d[i] = n instanceof Double x ? x : r.nextGaussian();
        }
        return d;
    }

    private static Object special(Random r) {
        switch (r.nextInt(12)) {
            case 0: return new DiffTypes.Sample();
            case 1: return DiffTypes.Color.values()[r.nextInt(2)];
            case 2: return new java.util.Date(r.nextInt() & 0x7fffffffL);
            case 3: return new java.util.UUID(r.nextLong(), r.nextLong());
            case 4: return new DiffMisbehaving.Toggling();
            case 5: return new DiffMisbehaving.Inspecting();
            case 6: return new DiffMisbehaving.NestedObject();
            case 7: return new DiffMisbehaving.PemBinary();
            case 8: return new DiffMisbehaving.FailsOnce();
            case 9: return new char[] {'h', 'i'};
            case 10: return java.time.Instant.ofEpochSecond(r.nextInt() & 0x7fffffffL, r.nextInt(1_000_000_000));
            default: return new DiffTypes.Zoo();
        }
    }
}
