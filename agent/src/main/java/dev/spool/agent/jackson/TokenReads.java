package dev.spool.agent.jackson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingJsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.lang.reflect.Field;

/**
 * The read side of {@link HostOps}: {@code reader.<method>(file[, type])} answered from a
 * capture's tokens, only where the reader's configuration is proven to read them as it would read
 * their text (the plain JSON factory; no {@code USE_BIG_DECIMAL_FOR_FLOATS}, strict duplicate
 * detection, filter or format detection; read constraints that allow everything the walk calls
 * safe; and, for tokens holding floating-point numbers, an untyped target: a {@code float}
 * field parses its text since Jackson 2.17, where a token gives {@code (float) double}).
 * Host-side like {@code HostOps} ({@link HostOpsLoader} defines it). Thread-safe: immutable but
 * for a racy cache of the last read constraints' verdict (replaced whole).
 */
final class TokenReads {

    /** The longest number text a read from tokens may meet: a BigInteger under 1,000 bits (302 digits and a sign). */
    private static final int MAX_SAFE_NUMBER = 310;

    private final Field readerFilter;
    private final Field readerDetection;
    private final Field readerType;
    /** The limits this Jackson has (each a later version's): read constraints 2.15, names, documents 2.16, tokens 2.18. */
    private final boolean readLimits;
    private final boolean nameLimit;
    private final boolean documentLimit;
    private final boolean tokenLimit;
    /** {read constraints, Boolean: they allow every read the walk called safe}, for the last constraints seen. */
    private volatile Object[] lastReadLimits;

    TokenReads() throws ReflectiveOperationException {
        readerFilter = HostOps.accessible(ObjectReader.class, "_filter");
        readerDetection = HostOps.accessible(ObjectReader.class, "_dataFormatReaders");
        readerType = HostOps.accessible(ObjectReader.class, "_valueType");
        readLimits = HostOps.has(JsonFactory.class, "streamReadConstraints");
        Class<?> read = readLimits ? JsonFactory.class.getMethod("streamReadConstraints").getReturnType() : null;
        nameLimit = readLimits && HostOps.has(read, "getMaxNameLength");
        documentLimit = readLimits && HostOps.has(read, "hasMaxDocumentLength");
        tokenLimit = readLimits && HostOps.has(read, "hasMaxTokenCount");
    }

    /** {@link HostJackson#read}. */
    Object read(Object reader, String method, Object tokensObject, Object type, boolean floats) throws IOException {
        TokenBuffer tokens = (TokenBuffer) tokensObject;
        if (reader instanceof ObjectMapper m) {
            if (floats && !"readTree".equals(method) && !untyped(m, type)) {
                return HostJackson.NOT_SERVED; // G: a float target parses its text, where a token gives (float) double
            }
            if (!plainJson(m.getFactory()) || !readLimitsAllow(m.getFactory()) || m.isEnabled(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    || m.isEnabled(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)) {
                return HostJackson.NOT_SERVED;
            }
            try (JsonParser p = tokens.asParser(m)) {
                if ("readTree".equals(method) && type == null) {
                    JsonNode n = m.readTree(p);
                    return n;
                }
                if (!"readValue".equals(method)) {
                    return HostJackson.NOT_SERVED;
                }
                if (type instanceof Class<?> c) {
                    return m.readValue(p, c);
                }
                if (type instanceof JavaType t) {
                    return m.readValue(p, t);
                }
                if (type instanceof TypeReference<?> t) {
                    return m.readValue(p, t);
                }
                return HostJackson.NOT_SERVED;
            }
        }
        if (reader instanceof ObjectReader r) {
            if (!plainJson(r.getFactory()) || !readLimitsAllow(r.getFactory()) || r.isEnabled(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    || r.isEnabled(JsonParser.Feature.STRICT_DUPLICATE_DETECTION) || filtered(r)
                    || (floats && !untyped(r))) {
                return HostJackson.NOT_SERVED;
            }
            if (!"readValue".equals(method) || type != null) {
                return HostJackson.NOT_SERVED;
            }
            try (JsonParser p = tokens.asParser(r.getFactory().getCodec())) {
                return r.readValue(p);
            }
        }
        return HostJackson.NOT_SERVED;
    }

    /**
     * Whether {@code f}'s read constraints (Jackson 2.15+) let through everything the walk calls read-safe
     * (depth, string, name and number lengths under the walk's own limits; no document or token count
     * limit), so a read from tokens cannot succeed where the parser of the file's text would throw.
     */
    private boolean readLimitsAllow(JsonFactory f) {
        if (!readLimits) {
            return true;
        }
        StreamReadConstraints c = f.streamReadConstraints();
        Object[] last = lastReadLimits;
        if (last != null && last[0] == c) {
            return (Boolean) last[1];
        }
        boolean allow = c.getMaxNestingDepth() >= HostOps.MAX_SAFE_DEPTH && c.getMaxStringLength() >= HostOps.MAX_SAFE_STRING
                && c.getMaxNumberLength() >= MAX_SAFE_NUMBER && (!nameLimit || c.getMaxNameLength() >= HostOps.MAX_SAFE_NAME)
                && (!documentLimit || !c.hasMaxDocumentLength()) && (!tokenLimit || !c.hasMaxTokenCount());
        lastReadLimits = new Object[] {c, allow};
        return allow;
    }

    /** Container and node types whose reads keep a number as the parser reports it (a {@code Double}), whatever the source. */
    private static final java.util.Set<Class<?>> UNTYPED = java.util.Set.of(Object.class, java.util.Map.class,
            java.util.HashMap.class, java.util.LinkedHashMap.class, java.util.List.class, java.util.ArrayList.class,
            java.util.Collection.class);

    private static boolean untyped(ObjectMapper m, Object type) {
        if (type instanceof Class<?> c) {
            return UNTYPED.contains(c) || JsonNode.class.isAssignableFrom(c);
        }
        if (type instanceof JavaType t) {
            return untyped(t);
        }
        return type instanceof TypeReference<?> t && untyped(m.getTypeFactory().constructType(t));
    }

    private boolean untyped(ObjectReader r) {
        try {
            return readerType.get(r) instanceof JavaType t && untyped(t);
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    private static boolean untyped(JavaType t) {
        Class<?> raw = t.getRawClass();
        if (JsonNode.class.isAssignableFrom(raw)) {
            return true;
        }
        if (!UNTYPED.contains(raw)) {
            return false;
        }
        for (int i = 0; i < t.containedTypeCount(); i++) {
            Class<?> c = t.containedType(i).getRawClass();
            if (c != Object.class && c != String.class) {
                return false;
            }
        }
        return true;
    }

    private boolean filtered(ObjectReader r) {
        try {
            return readerFilter.get(r) != null || readerDetection.get(r) != null;
        } catch (IllegalAccessException e) {
            return true;
        }
    }

    private static boolean plainJson(JsonFactory f) {
        return f.getClass() == JsonFactory.class || f.getClass() == MappingJsonFactory.class;
    }
}
