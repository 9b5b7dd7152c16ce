package dev.spool.agent.host;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.ser.impl.SimpleBeanPropertyFilter;
import com.fasterxml.jackson.databind.ser.impl.SimpleFilterProvider;
import java.io.IOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import dev.spool.agent.host.DiffTypes.*;

/**
 * The capture differential's catalogue: writer configurations × values that change Jackson's
 * output or the types a read returns, and the readers to read each back with. Shared by the
 * in-process {@code JacksonCapturesTest} and the forked {@code CaptureDiffHost} (which runs on
 * several Jackson versions, so a case whose API a version lacks is skipped by name there). The
 * value types are {@link DiffTypes}.
 */
public final class DiffCases {

    /** One write: {@code caller} (an ObjectMapper or ObjectWriter) writes {@code value}. */
    public record Case(String name, Object caller, Object value, Object pojoType) { }

    /** One read: {@code reader.method(file[, type])}. */
    public record Read(String name, Object reader, String method, Object type) { }

    private DiffCases() { }

    /** Every case this Jackson can build (a case needing a missing API is left out). */
    public static List<Case> cases() {
        String fuzz = System.getProperty("capturediff.fuzz"); // "seed:count": DiffFuzz's random cases instead
        if (fuzz != null) {
            String[] sc = fuzz.split(":");
            return DiffFuzz.cases(Long.parseLong(sc[0]), Integer.parseInt(sc[1]));
        }
        List<Case> out = new ArrayList<>();
        Map<String, Supplier<Object>> values = values();
        Map<String, Supplier<Object>> callers = callers();
        for (Map.Entry<String, Supplier<Object>> c : callers.entrySet()) {
            Object caller;
            try {
                caller = c.getValue().get();
            } catch (LinkageError | RuntimeException missing) {
                continue;
            }
            for (Map.Entry<String, Supplier<Object>> v : values.entrySet()) {
                Object value = v.getValue().get();
                out.add(new Case(c.getKey() + "/" + v.getKey(), caller, value, value == null ? null : value.getClass()));
            }
        }
        for (Map.Entry<String, Supplier<Object[]>> s : specials().entrySet()) {
            try {
                Object[] cv = s.getValue().get();
                out.add(new Case(s.getKey(), cv[0], cv[1], cv.length > 2 ? cv[2] : cv[1].getClass()));
            } catch (LinkageError | RuntimeException missing) {
                // this Jackson lacks the API
            }
        }
        return out;
    }

    /** The readers each case is read back with (the POJO reader when the case has a POJO type). */
    public static List<Read> reads(Case c) {
        List<Read> out = new ArrayList<>();
        ObjectMapper plain = new ObjectMapper();
        out.add(new Read("mapper.Object", plain, "readValue", Object.class));
        out.add(new Read("mapper.tree", plain, "readTree", null));
        out.add(new Read("reader.Object", plain.readerFor(Object.class), "readValue", null));
        out.add(new Read("bigDecimal", new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS),
                "readValue", Object.class));
        out.add(new Read("bigInteger", new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS),
                "readValue", Object.class));
        out.add(new Read("longs", plain.readerFor(Object.class).with(DeserializationFeature.USE_LONG_FOR_INTS),
                "readValue", null));
        out.add(new Read("lenient", new ObjectMapper().enable(JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(JsonParser.Feature.ALLOW_UNQUOTED_FIELD_NAMES), "readValue", Object.class));
        out.add(new Read("strict", new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION),
                "readValue", Object.class));
        if (c.name().startsWith("fuzz-")) {
            out.add(DiffFuzz.reader(c.name()));
        }
        if (c.pojoType() instanceof Class<?> t && t.getName().startsWith(DiffCases.class.getPackageName() + ".Diff")
                && t.getAnnotation(com.fasterxml.jackson.databind.annotation.JsonSerialize.class) == null) {
            ObjectMapper pojo = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
            out.add(new Read("pojo", pojo, "readValue", t));
            out.add(new Read("pojoFloats", pojo.copy().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS),
                    "readValue", t));
        }
        return out;
    }

    private static Map<String, Supplier<Object>> callers() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("default", ObjectMapper::new);
        m.put("indent", () -> new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT));
        m.put("prettyWriter", () -> new ObjectMapper().writerWithDefaultPrettyPrinter());
        m.put("tabPrinter", () -> new ObjectMapper().writer(new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("\t", "\n"))));
        m.put("customPrinter", () -> new ObjectMapper().writer(new MinimalPrettyPrinter(" ") {
            private static final long serialVersionUID = 1L;

            @Override
            public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
                g.writeRaw(" = ");
            }
        }));
        m.put("sorted", () -> new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS));
        m.put("numbersAsStrings", () -> new ObjectMapper().enable(JsonGenerator.Feature.WRITE_NUMBERS_AS_STRINGS));
        m.put("plainDecimals", () -> new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN));
        m.put("escapeNonAscii", () -> new ObjectMapper().enable(JsonGenerator.Feature.ESCAPE_NON_ASCII));
        m.put("unquotedNames", () -> new ObjectMapper().disable(JsonGenerator.Feature.QUOTE_FIELD_NAMES));
        m.put("bareNaN", () -> new ObjectMapper().disable(JsonGenerator.Feature.QUOTE_NON_NUMERIC_NUMBERS));
        m.put("strictWriter", () -> new ObjectMapper().enable(JsonGenerator.Feature.STRICT_DUPLICATE_DETECTION));
        m.put("escapes", () -> {
            ObjectMapper om = new ObjectMapper();
            om.getFactory().setCharacterEscapes(new AngleEscapes());
            return om;
        });
        m.put("mime", () -> new ObjectMapper().setBase64Variant(Base64Variants.MIME_NO_LINEFEEDS));
        m.put("wrapRoot", () -> new ObjectMapper().enable(SerializationFeature.WRAP_ROOT_VALUE));
        m.put("rootName", () -> new ObjectMapper().writer().withRootName("named"));
        m.put("enumsToString", () -> new ObjectMapper().enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING));
        m.put("enumsIndex", () -> new ObjectMapper().enable(SerializationFeature.WRITE_ENUMS_USING_INDEX));
        m.put("datesText", () -> new ObjectMapper().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS));
        m.put("charArrays", () -> new ObjectMapper().enable(SerializationFeature.WRITE_CHAR_ARRAYS_AS_JSON_ARRAYS));
        m.put("singleUnwrapped", () -> new ObjectMapper().enable(SerializationFeature.WRITE_SINGLE_ELEM_ARRAYS_UNWRAPPED));
        m.put("view", () -> new ObjectMapper().writerWithView(Views.Public.class));
        m.put("typedObject", () -> new ObjectMapper().writerFor(Object.class));
        m.put("separator", () -> new ObjectMapper().writer().withRootValueSeparator("\n"));
        m.put("fastDoubles", () -> new ObjectMapper().enable(JsonGenerator.Feature.valueOf("USE_FAST_DOUBLE_WRITER")));
        m.put("yaml", () -> mapperOf("com.fasterxml.jackson.dataformat.yaml.YAMLFactory"));
        m.put("smile", () -> mapperOf("com.fasterxml.jackson.dataformat.smile.SmileFactory"));
        m.put("cbor", () -> mapperOf("com.fasterxml.jackson.dataformat.cbor.CBORFactory"));
        m.put("javaTime", () -> {
            ObjectMapper om = new ObjectMapper();
            om.findAndRegisterModules();
            return om;
        });
        return m;
    }

    private static ObjectMapper mapperOf(String factory) {
        try {
            return new ObjectMapper((com.fasterxml.jackson.core.JsonFactory) Class.forName(factory)
                    .getConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("not on this class path: " + factory, e);
        }
    }

    private static Map<String, Supplier<Object>> values() {
        Map<String, Supplier<Object>> v = new LinkedHashMap<>();
        v.put("document", DiffCases::document);
        v.put("numbers", DiffCases::numbers);
        v.put("text", () -> map("plain", "a b c", "nonAscii", "grüße ✓ 日本 \uD83D\uDE00", "control", "tab\there\u0001<tag>&'\"",
                "empty", "", "slash", "a/b\\c"));
        v.put("pojo", Sample::new);
        v.put("integers", () -> map("smallLong", 5L, "intMin", (long) Integer.MIN_VALUE, "beyondInt", 1L + Integer.MAX_VALUE,
                "short", (short) -7, "byte", (byte) 1, "bigSmall", BigInteger.valueOf(42), "bigLong", BigInteger.valueOf(Long.MIN_VALUE),
                "bigHuge", BigInteger.TWO.pow(80), "atomicInt", new java.util.concurrent.atomic.AtomicInteger(3),
                "longs", new long[] {1, 1L << 33}, "shorts", new short[] {1, 2}, "text", "x"));
        v.put("null", () -> null);
        v.put("list", () -> List.of(1, "two", 3.0, List.of(), Map.of()));
        v.put("bytes", () -> map("bin", new byte[] {0, 1, 2, -1, 127, -128, 64}));
        return v;
    }

    /** Writer+value pairs that are not a cross product: custom serializers, annotations, types. */
    private static Map<String, Supplier<Object[]>> specials() {
        Map<String, Supplier<Object[]>> s = new LinkedHashMap<>();
        s.put("rawValue", () -> new Object[] {new ObjectMapper(), new Raw()});
        s.put("rawWriter", () -> new Object[] {new ObjectMapper(), new RawWriter()});
        s.put("numberText", () -> new Object[] {new ObjectMapper(), new NumberText()});
        s.put("serializable", () -> new Object[] {new ObjectMapper(), map("s", new SerializedString("pre\"encoded"))});
        s.put("polymorphic", () -> new Object[] {new ObjectMapper(), new Zoo()});
        s.put("defaultTyping", () -> {
            ObjectMapper om = new ObjectMapper();
            om.activateDefaultTyping(om.getPolymorphicTypeValidator(), ObjectMapper.DefaultTyping.NON_FINAL);
            return new Object[] {om, new Sample()};
        });
        s.put("filter", () -> new Object[] {new ObjectMapper().writer(new SimpleFilterProvider()
                .addFilter("only", SimpleBeanPropertyFilter.filterOutAllExcept("kept"))), new Filtered()});
        s.put("emptyBean", () -> new Object[] {new ObjectMapper(), new Empty()});
        s.put("failing", () -> new Object[] {new ObjectMapper(), new Failing()});
        s.put("decimalShape", () -> new Object[] {new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN),
                new DecimalShape()});
        s.put("optional", () -> new Object[] {new ObjectMapper(), map("o", java.util.Optional.of("x"))});
        s.put("deep", () -> new Object[] {new ObjectMapper(), deep(40)});
        // over Jackson 2.16+'s write limit (1,000: plain throws at the call) and 2.15+'s read limit
        s.put("tooDeep", () -> new Object[] {new ObjectMapper(), deep(1100)});
        s.put("valueWithoutName", () -> new Object[] {new ObjectMapper(), new BrokenStructure(false)});
        s.put("objectEndedAsArray", () -> new Object[] {new ObjectMapper(), new BrokenStructure(true)});
        // a field name over Jackson 2.16+'s read limit (50,000 chars): plain reads throw
        s.put("longName", () -> new Object[] {new ObjectMapper(), map("n".repeat(60_000), 1)});
        s.put("longText", () -> new Object[] {new ObjectMapper(), map("t", "x".repeat(100_000))});
        s.put("bigArray", () -> new Object[] {new ObjectMapper(), doubles(20_000)});
        s.put("iterator", () -> new Object[] {new ObjectMapper(), map("it", List.of(1, 2).iterator())});
        s.put("javaTimeValues", () -> {
            ObjectMapper om = new ObjectMapper();
            om.findAndRegisterModules();
            om.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
            return new Object[] {om, map("instant", java.time.Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
                    "date", java.time.LocalDate.of(2026, 11, 30), "duration", java.time.Duration.ofMillis(1500))};
        });
        issue31(s);
        return s;
    }

    /** Issue 31: each class of difference found by the independent differential, by its letter. */
    private static void issue31(Map<String, Supplier<Object[]>> s) {
        byte[] bin = DiffMisbehaving.bytes(100);
        s.put("A.base64Mime", () -> new Object[] {new ObjectMapper().setBase64Variant(Base64Variants.MIME), map("bin", bin)});
        s.put("A.base64UrlWriter", () -> new Object[] {new ObjectMapper().writer(Base64Variants.MODIFIED_FOR_URL), map("bin", bin)});
        s.put("A.base64Serializer", () -> new Object[] {new ObjectMapper(), new DiffMisbehaving.PemBinary()});
        s.put("B.decimalBeyondScale", () -> new Object[] {new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN),
                map("d", new BigDecimal("1E+10000"))});
        s.put("B.decimalBeyondScaleWriter", () -> new Object[] {new ObjectMapper().writer()
                .with(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN), map("d", new BigDecimal("1E-10001"))});
        s.put("B.rawSplitSurrogate", () -> new Object[] {new ObjectMapper(), map("r", new com.fasterxml.jackson.databind.util.RawValue("\"x\uD800\""))});
        s.put("C.writeObjectIndentedMapper", () -> new Object[] {new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writer().without(SerializationFeature.INDENT_OUTPUT), new DiffMisbehaving.NestedObject()});
        s.put("D.togglingSerializer", () -> new Object[] {new ObjectMapper(), new DiffMisbehaving.Toggling()});
        s.put("J.inspectingSerializer", () -> new Object[] {new ObjectMapper(), new DiffMisbehaving.Inspecting()});
        s.put("H.failsOnce", () -> new Object[] {new ObjectMapper(), new DiffMisbehaving.FailsOnce()});
        s.put("K.bytesByReference", () -> new Object[] {new ObjectMapper(), new DiffMisbehaving.SharedBytes()});
        s.put("E.valueChangingEscapes", () -> {
            ObjectMapper om = new ObjectMapper();
            om.getFactory().setCharacterEscapes(new DiffMisbehaving.ValueChangingEscapes());
            return new Object[] {om, map("t", "a<b")};
        });
        s.put("F.nonJsonSeparators", () -> new Object[] {new ObjectMapper().writer(new DefaultPrettyPrinter()
                .withSeparators(new com.fasterxml.jackson.core.util.Separators('=', ';', ','))), map("a", 1, "b", List.of(1, 2))});
        s.put("G.doubleIntoFloat", () -> new Object[] {new ObjectMapper(), DiffMisbehaving.floats(), DiffMisbehaving.FloatHolder.class});
        s.put("M.loneSurrogateName", () -> new Object[] {new ObjectMapper(), map("a\uD800b", 1, "v", "x\uDC00y")});
    }

    /** The scientific-style document: parameters, 32 doubles of state, statistics. */
    public static Map<String, Object> document() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", "run-7");
        d.put("step", 42);
        d.put("time", 1_700_000_000_123L);
        d.put("params", map("alpha", 0.125, "beta", 3.0e-7, "n", 128, "label", "Größe"));
        double[] state = new double[32];
        for (int i = 0; i < state.length; i++) {
            state[i] = Math.sin(i * 0.7) * Math.pow(10, (i % 7) - 3);
        }
        d.put("state", state);
        d.put("stats", map("mean", 0.333, "max", 1.0e300, "min", -4.9e-324, "ok", true, "note", null));
        return d;
    }

    private static Map<String, Object> numbers() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("int", 7);
        m.put("negInt", Integer.MIN_VALUE);
        m.put("smallLong", 5L);
        m.put("bigLong", 1L << 40);
        m.put("short", (short) 3);
        m.put("byte", (byte) -2);
        m.put("smallBigInteger", BigInteger.TEN);
        m.put("bigBigInteger", new BigInteger("123456789012345678901234567890"));
        m.put("float", 0.1f);
        m.put("double", 0.1);
        m.put("negZero", -0.0);
        m.put("tiny", Double.MIN_VALUE);
        m.put("nan", Double.NaN);
        m.put("inf", Double.NEGATIVE_INFINITY);
        m.put("decimal", new BigDecimal("1E+5"));
        m.put("decimalScale", new BigDecimal("2.50"));
        m.put("date", new Date(1_700_000_000_000L));
        m.put("color", Color.GREEN);
        m.put("chars", new char[] {'h', 'i'});
        m.put("single", List.of("only"));
        m.put("atomic", new java.util.concurrent.atomic.AtomicLong(9));
        m.put("uuid", new java.util.UUID(0x1234_5678_9abc_def0L, 42L));
        return m;
    }

    private static Object deep(int depth) {
        Object v = "bottom";
        for (int i = 0; i < depth; i++) {
            v = i % 2 == 0 ? List.of(v) : map("d" + i, v);
        }
        return v;
    }

    private static double[] doubles(int n) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = i / 7.0;
        }
        return d;
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** The read {@code r} of file {@code f}, described ({@link #describe}), or {@code !} and the exception's class. */
    public static String read(Read r, java.io.File f) {
        try {
            Object v;
            if (r.reader() instanceof ObjectMapper m) {
                v = "readTree".equals(r.method()) ? m.readTree(f) : m.readValue(f, (Class<?>) r.type());
            } else {
                v = ((ObjectReader) r.reader()).readValue(f);
            }
            return DiffCases.describe(v);
        } catch (Exception e) {
            return "!" + e.getClass().getSimpleName();
        }
    }

    /** What a read returned, with the type of every node (numbers above all). */
    public static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder(v.getClass().getSimpleName()).append('{');
            m.forEach((k, x) -> b.append(k).append('=').append(describe(x)).append(','));
            return b.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder(v.getClass().getSimpleName()).append('[');
            l.forEach(x -> b.append(describe(x)).append(','));
            return b.append(']').toString();
        }
        if (v instanceof JsonNode n) {
            StringBuilder b = new StringBuilder(n.getClass().getSimpleName());
            if (n.isContainerNode()) {
                b.append('(');
                Iterator<Map.Entry<String, JsonNode>> fields = n.fields();
                if (n.isArray()) {
                    n.forEach(x -> b.append(describe(x)).append(','));
                } else {
                    while (fields.hasNext()) {
                        Map.Entry<String, JsonNode> f = fields.next();
                        b.append(f.getKey()).append('=').append(describe(f.getValue())).append(',');
                    }
                }
                return b.append(')').toString();
            }
            return b.append(':').append(n.toString()).toString();
        }
        if (v.getClass().isArray()) {
            StringBuilder b = new StringBuilder(v.getClass().getComponentType().getSimpleName()).append("[]<");
            for (int i = 0; i < Array.getLength(v); i++) {
                b.append(describe(Array.get(v, i))).append(',');
            }
            return b.append('>').toString();
        }
        return v.getClass().getSimpleName() + ':' + v;
    }
}
