package dev.spool.agent.jackson;

import dev.spool.buffer.SnapshotContent;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * The agent's Jackson capture path: decides per call whether a {@code writeValue(File, v)} is
 * captured into the host's {@code TokenBuffer} (encoded at the flush) or encoded at the call, and
 * whether a read of a buffered capture is answered from its tokens.
 *
 * <p>Per call and cheap: the verdict for a writer configuration is cached ({@link HostOps});
 * the capture itself is Jackson's own serialization into tokens plus one walk over them that
 * measures their heap and checks that they read back like their text. A capture whose tokens
 * take more than {@link #LARGE_CAPTURE_BYTES} and over twice their text's estimated size, more than
 * {@link #HUGE_CAPTURE_BYTES}, or more than a quarter of the buffer's capacity, is encoded at the
 * call instead (and holds only bytes): an 80 MB {@code double[]} is 10 million boxed tokens.
 *
 * <p>Never harms the host: anything unusual answers "not captured" (null) and the caller takes
 * the encode-on-call path, which meets the host's own exception if there is one. Thread-safe.
 * <pre>{@code
 * SnapshotContent c = captures.capture(mapperOrWriter, value, buffer.getCapacityBytes());
 * if (c == null) c = SnapshotContent.ofBytes(encodeNow());
 * buffer.putSnapshot(path, c);
 * }</pre>
 */
public final class JacksonCaptures {

    /** Above this many heap bytes a capture that is also much larger than its text is encoded at the call. */
    public static final long LARGE_CAPTURE_BYTES = 1 << 20;
    /** Above this many heap bytes a capture is encoded at the call whatever its text's size. */
    public static final long HUGE_CAPTURE_BYTES = 8 << 20;

    private static final LongAdder CAPTURED = new LongAdder();
    private static final LongAdder ENCODED_AT_CALL = new LongAdder();
    private static final LongAdder TOKEN_READS = new LongAdder();
    private static final LongAdder BYTE_READS = new LongAdder();

    /** Written with ':' so that shading (which relocates Jackson-like string constants) leaves it the host's. */
    private static final String DATABIND = "com:fasterxml:jackson:databind:".replace(':', '.');

    private final boolean enabled;
    private final BiConsumer<String, String> errors;
    /** One {@link HostOps} per host Jackson, keyed on that Jackson's {@code ObjectMapper} class. */
    private final ClassValue<HostJackson> byMapper = new ClassValue<>() {
        @Override
        protected HostJackson computeValue(Class<?> mapperClass) {
            try {
                return HostOpsLoader.forHost(mapperClass);
            } catch (ReflectiveOperationException | IOException | LinkageError | RuntimeException e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null ? e.getCause() : e;
                errors.accept("jackson-capture:" + mapperClass.getName(), "cannot capture Jackson writes with the Jackson of "
                        + mapperClass.getClassLoader() + " (" + cause + "; capture needs Jackson 2.11 or later)"
                        + ": its writes are encoded at the call, as without capture");
                return null;
            }
        }
    };
    /** A mapper, writer or reader class (or a subclass) to its Jackson's {@link HostOps}. */
    private final ClassValue<HostJackson> ops = new ClassValue<>() {
        @Override
        protected HostJackson computeValue(Class<?> type) {
            Class<?> base = type;
            while (base != null && !base.getName().startsWith(DATABIND + "Object")) {
                base = base.getSuperclass();
            }
            if (base == null) {
                return null;
            }
            try {
                return byMapper.get(Class.forName(DATABIND + "ObjectMapper", false, base.getClassLoader()));
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }
    };

    /**
     * @param enabled false: never capture (every write is encoded at the call, every read from bytes)
     * @param errors  (key, message) for a problem reported once per key
     */
    public JacksonCaptures(boolean enabled, BiConsumer<String, String> errors) {
        this.enabled = enabled;
        this.errors = errors;
    }

    /**
     * The captured {@code value} written by {@code caller} (an {@code ObjectMapper} or
     * {@code ObjectWriter}), or null when this call is to be encoded at the call.
     */
    public SnapshotContent capture(Object caller, Object value, long capacityBytes) {
        if (!enabled) {
            return null;
        }
        try {
            HostJackson h = ops.get(caller.getClass());
            if (h == null) {
                return null;
            }
            Object writer = h.writerFor(caller);
            int verdict = writer == null ? 0 : h.verdict(caller, writer);
            if ((verdict & HostJackson.CAPTURE) == 0) {
                return null;
            }
            boolean writerReadSafe = (verdict & HostJackson.READ_SAFE) != 0;
            Object tokens = h.capture(writer, value);
            long m = h.measure(tokens);
            if ((m & HostJackson.TOKENS_NOT_CAPTURABLE) != 0) {
                return null; // encoded at the call, where the generator's own exception (if any) meets the host
            }
            long heap = m & ((1L << 36) - 1);
            long text = (m >>> 36) & ((1L << 26) - 1);
            if ((heap > LARGE_CAPTURE_BYTES && heap > 2 * text) || heap > HUGE_CAPTURE_BYTES || heap > capacityBytes / 4) {
                ENCODED_AT_CALL.increment();
                return SnapshotContent.ofBytes(h.encode(writer, tokens));
            }
            CAPTURED.increment();
            return new JacksonCapture(h, writer, tokens, heap, writerReadSafe && (m & HostJackson.TOKENS_READ_SAFE) != 0);
        } catch (IOException | RuntimeException | LinkageError e) {
            return null; // the serializer's own failure, or an unforeseen one: the call is encoded as before and meets it
        }
    }

    /**
     * {@code reader.<method>(file[, type])} answered from {@code content}'s tokens, or
     * {@link HostJackson#NOT_SERVED} when they may read differently from the file's text.
     */
    public Object read(SnapshotContent content, Object reader, String method, Object type) {
        if (!(content instanceof JacksonCapture c) || !c.readSafe()) {
            BYTE_READS.increment();
            return HostJackson.NOT_SERVED;
        }
        try {
            if (ops.get(reader.getClass()) != c.ops()) {
                BYTE_READS.increment();
                return HostJackson.NOT_SERVED; // another Jackson in this JVM: its tokens are not this reader's
            }
            Object v = c.ops().read(reader, method, c.tokens(), type);
            (v == HostJackson.NOT_SERVED ? BYTE_READS : TOKEN_READS).increment();
            return v;
        } catch (IOException | RuntimeException | LinkageError e) {
            BYTE_READS.increment();
            return HostJackson.NOT_SERVED; // read the bytes instead: that read meets the same error the file would give
        }
    }

    /** Counts since start: {captured, encodedAtCall, tokenReads, byteReads}. */
    public static long[] counts() {
        return new long[] {CAPTURED.sum(), ENCODED_AT_CALL.sum(), TOKEN_READS.sum(), BYTE_READS.sum()};
    }
}
