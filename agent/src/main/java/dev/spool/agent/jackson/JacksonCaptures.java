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
 * JacksonCaptures.Outcome o = captures.capture(mapperOrWriter, value, buffer.getCapacityBytes());
 * SnapshotContent c = o.content();
 * if (o.failure() != null) { writeTheFile(o.failedBytes()); throw o.failure(); }
 * if (c == null) c = SnapshotContent.ofBytes(encodeNow()); // counted by o.reason()
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
    private static final java.util.concurrent.ConcurrentHashMap<String, LongAdder> BY_REASON = new java.util.concurrent.ConcurrentHashMap<>();

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
     * What became of one write: {@code content} to buffer; or, when {@code content} is null, the
     * write is encoded at the call ({@code reason} says why; {@code failure}, when set, is what the
     * serializers threw on their one run, and {@code failedBytes} what the host's own write would
     * leave in the file: the caller writes those and throws it, without running the serializers again).
     */
    public record Outcome(SnapshotContent content, String reason, Exception failure, byte[] failedBytes) {
        static Outcome encodeAtCall(String reason) {
            return new Outcome(null, reason, null, null);
        }
    }

    private static final Outcome OFF = Outcome.encodeAtCall("capture-off");
    private static final Outcome OTHER_JACKSON = Outcome.encodeAtCall("jackson-unsupported");

    /**
     * The captured {@code value} written by {@code caller} (an {@code ObjectMapper} or
     * {@code ObjectWriter}), or why this call is to be encoded at the call. Runs the host's
     * serializers at most once.
     */
    public Outcome capture(Object caller, Object value, long capacityBytes) {
        if (!enabled) {
            return OFF;
        }
        Object tokens = null;
        HostJackson h = null;
        Object writer = null;
        try {
            h = ops.get(caller.getClass());
            if (h == null) {
                return OTHER_JACKSON;
            }
            writer = h.writerFor(caller);
            int verdict = writer == null ? HostJackson.REASONS.length - 1 << HostJackson.REASON_SHIFT : h.verdict(caller, writer);
            if ((verdict & HostJackson.CAPTURE) == 0) {
                return Outcome.encodeAtCall(HostJackson.REASONS[verdict >>> HostJackson.REASON_SHIFT]);
            }
            boolean writerReadSafe = (verdict & HostJackson.READ_SAFE) != 0;
            tokens = h.capture(writer, value);
            if (tokens == null) {
                return Outcome.encodeAtCall("closeable");
            }
            Exception failed = h.failure(tokens);
            if (failed != null) {
                return failedOnce(h, writer, tokens, failed);
            }
            String unproven = h.unproven(tokens);
            if (unproven != null) {
                return Outcome.encodeAtCall(unproven); // the serializers run again at the call, on the host's writer
            }
            long m = h.measure(tokens);
            if ((m & HostJackson.TOKENS_NOT_CAPTURABLE) != 0) {
                return Outcome.encodeAtCall("generator-would-refuse"); // where the generator's own exception meets the host
            }
            long heap = m & ((1L << 36) - 1);
            long text = (m >>> 36) & ((1L << 25) - 1);
            if ((heap > LARGE_CAPTURE_BYTES && heap > 2 * text) || heap > HUGE_CAPTURE_BYTES || heap > capacityBytes / 4) {
                encodedAtCall("large");
                return new Outcome(SnapshotContent.ofBytes(h.encode(writer, tokens)), "large", null, null);
            }
            CAPTURED.increment();
            return new Outcome(new JacksonCapture(h, writer, tokens, heap, writerReadSafe && (m & HostJackson.TOKENS_READ_SAFE) != 0,
                    (m & HostJackson.TOKENS_FLOAT) != 0), null, null, null);
        } catch (IOException | RuntimeException | LinkageError e) {
            return Outcome.encodeAtCall("capture-failed"); // unforeseen: the call is encoded as before and meets it
        }
    }

    /**
     * H: the serializers failed on their one run. The host's own write would have thrown that and
     * left in the file what the generator had been given: the tokens written before the failure.
     * They are never run again (a second run may succeed where the host's one failed), even when
     * the tokens are unproven (the failure is then exact, the torn file's bytes best effort). Left
     * to the encode at the call: a failure that may be the tokens' own (an operation a TokenBuffer
     * does not support), and tokens the writer's generator refuses when replayed (its own exception
     * came first there).
     */
    private static Outcome failedOnce(HostJackson h, Object writer, Object tokens, Exception failed) {
        for (Throwable t = failed; t != null; t = t.getCause()) {
            if (t instanceof UnsupportedOperationException) {
                return Outcome.encodeAtCall("capture-unsupported");
            }
        }
        try {
            return new Outcome(null, "serializer-failed", failed, h.encodeFailed(writer, tokens));
        } catch (IOException | RuntimeException refused) {
            // the writer's generator refuses these tokens: the host's write met that first, wrapped by
            // the serializers in between; only their own run at the call gives that exception exactly
            return Outcome.encodeAtCall("generator-would-refuse");
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
            Object v = c.ops().read(reader, method, c.tokens(), type, c.floats());
            (v == HostJackson.NOT_SERVED ? BYTE_READS : TOKEN_READS).increment();
            return v;
        } catch (IOException | RuntimeException | LinkageError e) {
            BYTE_READS.increment();
            return HostJackson.NOT_SERVED; // read the bytes instead: that read meets the same error the file would give
        }
    }

    /** Counts a write encoded at the call, by {@code reason} (a reason of {@link Outcome}). */
    public static void encodedAtCall(String reason) {
        ENCODED_AT_CALL.increment();
        BY_REASON.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** Writes encoded at the call since start, by reason. */
    public static java.util.Map<String, Long> encodedAtCallByReason() {
        java.util.Map<String, Long> m = new java.util.TreeMap<>();
        BY_REASON.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** Counts since start: {captured, encodedAtCall, tokenReads, byteReads}. */
    public static long[] counts() {
        return new long[] {CAPTURED.sum(), ENCODED_AT_CALL.sum(), TOKEN_READS.sum(), BYTE_READS.sum()};
    }
}
