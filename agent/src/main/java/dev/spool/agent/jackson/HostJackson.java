package dev.spool.agent.jackson;

import java.io.IOException;

/**
 * What the agent asks of the host's own Jackson to capture a write, encode it later and serve
 * reads from it. Implemented by {@link HostOps}, which is compiled against Jackson's API but
 * defined at run time in a class loader whose parent is the host's Jackson (see {@link HostOpsLoader}),
 * so every call goes straight to the host's classes (no reflection per token). This interface
 * uses JDK types only: it is the one type both sides share.
 *
 * <p>Implementations are stateless apart from caches and safe for any number of threads.
 */
public interface HostJackson {

    /** {@link #verdict} bit: writes through this writer may be captured (its output is proven identical). */
    int CAPTURE = 1;
    /** {@link #verdict} bit: the writer's text is standard JSON whose reading matches a token read. */
    int READ_SAFE = 2;
    /** {@link #measure} bit (sign bit): these tokens read back exactly like their text would. */
    long TOKENS_READ_SAFE = Long.MIN_VALUE;
    /**
     * {@link #measure} bit: these tokens would fail their replay into the writer's generator (a
     * structure the generator refuses, e.g. a value where an object expects a name, written by a
     * custom serializer), or nest deeper than a generator may allow: the write must be encoded at
     * the call, where the host's own write meets the generator's exception.
     */
    long TOKENS_NOT_CAPTURABLE = 1L << 62;
    /**
     * {@link #measure} bit: the tokens hold a floating-point number. A typed read (a POJO, a
     * {@code float} field) may convert it otherwise than a parser of its text does (Jackson 2.17+
     * parses a {@code float} from the text, a token gives {@code (float) double}): only untyped
     * reads are answered from such tokens.
     */
    long TOKENS_FLOAT = 1L << 61;
    /** {@link #verdict}: the reason a configuration is not captured is {@code REASONS[verdict >>> REASON_SHIFT]}. */
    int REASON_SHIFT = 8;
    /** Why a writer configuration is encoded at the call (index 0: it is not). */
    String[] REASONS = {"", "not-json-factory", "write-limits", "generator", "duplicate-detection", "character-escapes",
        "pretty-printer", "no-capture-api"};
    /** {@link #read}'s answer when the reader's configuration is not proven identical on tokens. */
    Object NOT_SERVED = new Object();

    /** The immutable writer carrying this call's configuration ({@code caller} is a mapper or a writer). */
    Object writerFor(Object caller);

    /** {@link #CAPTURE} and {@link #READ_SAFE} bits for {@code writer} of {@code caller} (decided once per configuration). */
    int verdict(Object caller, Object writer);

    /**
     * Serializes {@code value} with {@code writer} into the host's {@code TokenBuffer} once, as
     * {@code writer.writeValue(generator, value)} would; a failure of the serializers is kept with
     * the tokens written before it ({@link #failure}), never thrown. Null when this value is not
     * captured at all ({@code CLOSE_CLOSEABLE} and a {@code Closeable}).
     */
    Object capture(Object writer, Object value);

    /** Why {@code tokens} cannot stand for the write (a serializer changed or inspected its generator...), or null. */
    String unproven(Object tokens);

    /** What the serializers threw while {@code tokens} were captured, or null. */
    Exception failure(Object tokens);

    /**
     * The bytes the host's own {@code writeValue(File)} leaves in the file when its serializers
     * fail after writing {@code tokens}: those tokens through the writer's generator, closed as
     * Jackson closes it on a failure (no auto-closed structures).
     */
    byte[] encodeFailed(Object writer, Object tokens) throws IOException;

    /**
     * One walk over {@code tokens}: the heap they hold (bytes, low 36 bits, saturating), the estimated size of
     * their text (bytes, next 25 bits, saturating), {@link #TOKENS_FLOAT}, {@link #TOKENS_NOT_CAPTURABLE} and
     * {@link #TOKENS_READ_SAFE}.
     */
    long measure(Object tokens);

    /** The bytes {@code writer.writeValueAsBytes(value)} would have produced for the captured value. */
    byte[] encode(Object writer, Object tokens) throws IOException;

    /**
     * {@code reader.<method>(file[, type])} answered from {@code tokens}, or {@link #NOT_SERVED}
     * when this reader's configuration may read differently from tokens than from text ({@code floats}:
     * the tokens hold floating-point numbers, served to untyped reads only).
     */
    Object read(Object reader, String method, Object tokens, Object type, boolean floats) throws IOException;
}
