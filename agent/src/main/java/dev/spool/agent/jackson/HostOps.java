package dev.spool.agent.jackson;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingJsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * {@link HostJackson} against the host's own Jackson 2.x (2.11 or later: it needs
 * {@code ObjectWriter.createGenerator(OutputStream, JsonEncoding)}). Compiled against Jackson's
 * API like any library user, but never loaded by the agent's own class loader (there Jackson is
 * relocated): {@link HostOpsLoader} defines it from {@code HostOps.bytes}, a copy of this class
 * file made before shading, in a child of the host's Jackson class loader. It must therefore
 * reference no class but JDK, Jackson, {@link HostJackson}, its own nested classes and
 * {@link TokenWalker} (defined the same way; no lambdas).
 *
 * <p>Identity rules (the differential suite, {@code CaptureDifferentialIT}, is their proof):
 * <ul>
 *   <li>capture only for the plain JSON factory whose configured generator is the standard UTF-8
 *       one without duplicate detection (that would throw at the flush instead of at the call),
 *       and only tokens the generator will take back ({@code TokenWalker.Shape}: a custom serializer's
 *       broken structure, or a depth a generator may refuse, is encoded at the call, where the
 *       host's own write meets the generator's exception);
 *   <li>encode by replaying the tokens into the generator the caller's writer configures itself
 *       ({@code createGenerator}: pretty printer, features, escapes), so the bytes are the writer's;
 *   <li>integral tokens are stored as the type a text parser reports for their digits (a
 *       {@code long} 5 becomes an {@code Integer}: the same digits are written);
 *   <li>serve a read from tokens only when every scalar reads back as its text would (integers,
 *       finite {@code Double}, plain strings; no float, {@code BigDecimal}, number written as text,
 *       raw, binary or embedded value), the writer's text
 *       is standard JSON, and the reader uses the plain JSON factory without
 *       {@code USE_BIG_DECIMAL_FOR_FLOATS}, strict duplicate detection, a filter or format detection,
 *       and with read constraints that allow everything the walk calls safe.
 * </ul>
 * Thread-safe: a small racy cache of immutable verdicts per writer configuration (a slot is
 * replaced whole by an object with final fields, so a thread that sees it sees all of it; two
 * threads deciding the same configuration at once both decide, and one answer stays).
 */
public final class HostOps implements HostJackson {

    private static final int SLOTS = 16;
    /** Deeper tokens are encoded at the call (a generator may refuse them: Jackson 2.16+ allows 1,000 by default) and never read. */
    static final int MAX_SAFE_DEPTH = 500;
    static final int MAX_SAFE_STRING = 1 << 20;
    /** A longer field name is never read from tokens (Jackson 2.16+ refuses names over 50,000 chars by default). */
    static final int MAX_SAFE_NAME = 1000;

    /** Per slot: the last configuration decided there, replaced whole. */
    private final Verdict[] verdicts = new Verdict[SLOTS];
    private final Field first;
    private final Field segmentTokens;
    /** Reads answered from tokens, and the proofs they need. */
    private final TokenReads reads;
    /** Whether this Jackson has write constraints (2.16+). */
    private final boolean writeLimits;
    /** {@code ObjectWriter._configureGenerator}, {@code _serializerProvider()}, {@code _prefetch}: its {@code writeValue(JsonGenerator)} in two steps. */
    private final Method configure;
    private final Method provider;
    private final Field prefetch;
    private final Field arrayIndenter;
    private final Field objectIndenter;
    /** Parses a writer's probe document as a plain reader of its file would. */
    private final ObjectMapper probeReader = new ObjectMapper();

    public HostOps() throws ReflectiveOperationException {
        first = accessible(TokenBuffer.class, "_first");
        segmentTokens = accessible(first.getType(), "_tokens");
        configure = ObjectWriter.class.getDeclaredMethod("_configureGenerator", JsonGenerator.class);
        configure.setAccessible(true);
        provider = ObjectWriter.class.getDeclaredMethod("_serializerProvider");
        provider.setAccessible(true);
        prefetch = accessible(ObjectWriter.class, "_prefetch");
        arrayIndenter = accessible(DefaultPrettyPrinter.class, "_arrayIndenter");
        objectIndenter = accessible(DefaultPrettyPrinter.class, "_objectIndenter");
        ObjectWriter.class.getMethod("createGenerator", OutputStream.class, JsonEncoding.class); // 2.11+
        reads = new TokenReads();
        writeLimits = has(JsonFactory.class, "streamWriteConstraints");
    }

    static boolean has(Class<?> type, String method) {
        try {
            type.getMethod(method);
            return true;
        } catch (NoSuchMethodException before) {
            return false;
        }
    }

    static Field accessible(Class<?> owner, String name) throws NoSuchFieldException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    @Override
    public Object writerFor(Object caller) {
        if (caller instanceof ObjectWriter) {
            return caller;
        }
        return caller instanceof ObjectMapper ? ((ObjectMapper) caller).writer() : null;
    }

    @Override
    public int verdict(Object caller, Object writerObject) {
        ObjectWriter writer = (ObjectWriter) writerObject;
        Object config = writer.getConfig();
        JsonFactory factory = writer.getFactory();
        int features = factory.getGeneratorFeatures();
        int slot = (System.identityHashCode(config) ^ System.identityHashCode(caller)) & (SLOTS - 1);
        Verdict cached = verdicts[slot];
        // Keyed on the caller (a mapper, whose writer() is new per call but carries nothing beyond
        // its config; or an immutable ObjectWriter, which also carries generator settings), its
        // immutable config, and the factory's generator features (a factory can be reconfigured).
        if (cached != null && cached.config == config && cached.caller == caller && cached.features == features) {
            return cached.verdict;
        }
        int v = decide(writer, factory);
        verdicts[slot] = new Verdict(config, caller, features, v);
        return v;
    }

    /**
     * One decided configuration. Final fields: published by a plain store, read whole by any
     * thread (an {@code Object[]} slot could be seen before its elements, and its boxed features
     * as null: a {@code NullPointerException} the caller's guard turned into an encode at the call).
     */
    private static final class Verdict {
        final Object config;
        final Object caller;
        final int features;
        final int verdict;

        Verdict(Object config, Object caller, int features, int verdict) {
            this.config = config;
            this.caller = caller;
            this.features = features;
            this.verdict = verdict;
        }
    }

    private int decide(ObjectWriter writer, JsonFactory factory) {
        Class<?> f = factory.getClass();
        if (f != JsonFactory.class && f != MappingJsonFactory.class) {
            return refused(1);
        }
        if (writeLimits && factory.streamWriteConstraints().getMaxNestingDepth() < MAX_SAFE_DEPTH) {
            return refused(2); // the walk lets tokens up to MAX_SAFE_DEPTH deep through: this generator may refuse them
        }
        try (JsonGenerator g = writer.createGenerator(OutputStream.nullOutputStream(), JsonEncoding.UTF8)) {
            if (g.getClass() != UTF8JsonGenerator.class) {
                return refused(3);
            }
            if (g.isEnabled(JsonGenerator.Feature.STRICT_DUPLICATE_DETECTION)) {
                return refused(4);
            }
            if (g.getCharacterEscapes() != null) {
                return refused(5); // the host's escapes would run at the flush, and may change what a read gives (E)
            }
            if (!standard(g.getPrettyPrinter())) {
                return refused(6); // the host's printer would run at the flush, and may write what no parser reads (F)
            }
            boolean readSafe = g.isEnabled(JsonGenerator.Feature.QUOTE_FIELD_NAMES)
                    && !g.isEnabled(JsonGenerator.Feature.WRITE_NUMBERS_AS_STRINGS)
                    && !fastDoubleWriter(g) && parsesBack(writer);
            return CAPTURE | (readSafe ? READ_SAFE : 0);
        } catch (IOException | RuntimeException | LinkageError e) {
            return refused(3);
        }
    }

    private static int refused(int reason) {
        return reason << REASON_SHIFT;
    }

    /**
     * Whether a small document written by {@code writer} reads back as written with a plain parser:
     * a Jackson printer given non-JSON separators ({@code Separators('=', ...)}) writes text that
     * the file's reader refuses, while tokens would read fine (F).
     */
    private boolean parsesBack(ObjectWriter writer) {
        try (ByteArrayBuilder out = new ByteArrayBuilder()) {
            try (JsonGenerator g = writer.createGenerator(out, JsonEncoding.UTF8)) {
                g.writeStartObject();
                g.writeFieldName("a");
                g.writeStartArray();
                g.writeNumber(1);
                g.writeStartObject();
                g.writeStringField("b", "c");
                g.writeEndObject();
                g.writeEndArray();
                g.writeFieldName("d");
                g.writeStartObject();
                g.writeEndObject();
                g.writeEndObject();
            }
            return probeReader.readTree(out.toByteArray()).toString().equals("{\"a\":[1,{\"b\":\"c\"}],\"d\":{}}");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean fastDoubleWriter(JsonGenerator g) {
        try {
            return g.isEnabled(JsonGenerator.Feature.valueOf("USE_FAST_DOUBLE_WRITER"));
        } catch (IllegalArgumentException before214) {
            return false;
        }
    }

    /** Jackson's own printers with Jackson's own indenters: no host code runs when the tokens are replayed. */
    private boolean standard(PrettyPrinter p) {
        if (p == null || p.getClass() == MinimalPrettyPrinter.class) {
            return true;
        }
        if (p.getClass() != DefaultPrettyPrinter.class) {
            return false;
        }
        try {
            return jacksons(arrayIndenter.get(p)) && jacksons(objectIndenter.get(p));
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    private static boolean jacksons(Object indenter) {
        return indenter == null || indenter.getClass() == DefaultIndenter.class
                || indenter.getClass() == DefaultPrettyPrinter.FixedSpaceIndenter.class
                || indenter.getClass() == DefaultPrettyPrinter.NopIndenter.class;
    }

    @Override
    public Object capture(Object writer, Object value) {
        ObjectWriter w = (ObjectWriter) writer;
        if (value instanceof Closeable && w.getConfig().isEnabled(SerializationFeature.CLOSE_CLOSEABLE)) {
            return null; // closed by the write, whether it fails or not: the host's own writer does it once
        }
        CaptureTokens tokens = new CaptureTokens(w.getFactory().getCodec());
        // A real generator starts with its factory's features (the writer's config then overrides
        // some): serializers that ask the generator (a BigDecimal written as a string asks
        // WRITE_BIGDECIMAL_AS_PLAIN) must see the same answers on the tokens.
        tokens.setFeatureMask(w.getFactory().getGeneratorFeatures());
        try {
            // writer.writeValue(tokens, value) in its two steps: the writer configures the generator,
            // then its serializers run, watched (FLUSH_AFTER_WRITE_VALUE's flush of tokens does nothing)
            configure.invoke(w, tokens);
            DefaultSerializerProvider p = (DefaultSerializerProvider) provider.invoke(w);
            tokens.arm();
            ((ObjectWriter.Prefetch) prefetch.get(w)).serialize(tokens, value, p);
        } catch (IOException | RuntimeException e) {
            tokens.failed(e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            tokens.refused("capture-unsupported"); // the writer's configuration asks what a TokenBuffer cannot do (a root separator)
        } catch (ReflectiveOperationException e) {
            tokens.refused("no-capture-api"); // not the serializers': encoded at the call
        }
        return tokens;
    }

    @Override
    public String unproven(Object tokens) {
        return ((CaptureTokens) tokens).unproven();
    }

    @Override
    public Exception failure(Object tokens) {
        return ((CaptureTokens) tokens).failure();
    }

    @Override
    public byte[] encodeFailed(Object writer, Object tokens) throws IOException {
        ObjectWriter w = (ObjectWriter) writer;
        try (ByteArrayBuilder out = new ByteArrayBuilder()) {
            JsonGenerator g = w.createGenerator(out, JsonEncoding.UTF8);
            ((TokenBuffer) tokens).serialize(g);
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT); // as ClassUtil.closeOnFailAndThrowAsIOE
            g.close();
            return out.toByteArray();
        }
    }

    @Override
    public long measure(Object tokensObject) {
        TokenBuffer tokens = (TokenBuffer) tokensObject;
        Object segment;
        try {
            segment = first.get(tokens);
        } catch (IllegalAccessException e) {
            return 0;
        }
        return TokenWalker.measure(segment, segmentTokens);
    }

    @Override
    public byte[] encode(Object writer, Object tokens) throws IOException {
        ObjectWriter w = (ObjectWriter) writer;
        try (ByteArrayBuilder out = new ByteArrayBuilder()) {
            try (JsonGenerator g = w.createGenerator(out, JsonEncoding.UTF8)) {
                ((TokenBuffer) tokens).serialize(g);
            }
            return out.toByteArray();
        }
    }

    @Override
    public Object read(Object reader, String method, Object tokens, Object type, boolean floats) throws IOException {
        return reads.read(reader, method, tokens, type, floats);
    }
}
