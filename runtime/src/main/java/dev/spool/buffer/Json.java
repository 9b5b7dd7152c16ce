package dev.spool.buffer;

import dev.spool.internal.Internal;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The JSON codec of live entries: plain Java JSON types ({@code LinkedHashMap}, {@code ArrayList},
 * {@code String}, {@code Number}, {@code Boolean}, {@code null}) to bytes and back, compact UTF-8.
 * Thread-safe (one shared, never reconfigured {@link ObjectMapper}).
 */
@Internal
public final class Json {
    /**
     * Reads accept any string length: a value Spool accepted and wrote (e.g. a 20 MiB string) must
     * load again; Jackson's default read limit (20 million chars) would call our own file corrupt.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .build()).build();

    private Json() {}

    /** Encodes a tree of plain JSON types. */
    public static byte[] encode(Object tree) throws JsonProcessingException {
        return MAPPER.writeValueAsBytes(tree);
    }

    /** Decodes {@code content} of {@code file}; a parse error names the file, line and column. */
    public static Object decode(Path file, byte[] content) {
        try {
            return MAPPER.readValue(content, Object.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            int line = at == null ? 0 : at.getLineNr();
            int column = at == null ? 0 : at.getColumnNr();
            throw new CorruptFileException(file, line, column, e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new CorruptFileException(file, 0, 0, String.valueOf(e.getMessage()), e);
        }
    }

    /**
     * Converts any value Jackson can serialise (records, POJOs, JsonNode) to plain JSON types.
     * @throws IllegalArgumentException if Jackson cannot convert it
     */
    public static Object convert(Object value) {
        return MAPPER.convertValue(value, Object.class);
    }
}
