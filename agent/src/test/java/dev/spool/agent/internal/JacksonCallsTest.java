package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reflective calls into "the host's" Jackson (here the test class path's own). */
class JacksonCallsTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final JacksonCalls calls = new JacksonCalls();
    private final byte[] doc = "{\"a\":[1,2]}".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldEncodeWithTheCallersMapper() throws Exception {
        assertArrayEquals(mapper.writeValueAsBytes(Map.of("a", 1)), calls.encodeAtCall(mapper, Map.of("a", 1)));
        assertArrayEquals(mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(List.of(1)),
                calls.encodeAtCall(mapper.writerWithDefaultPrettyPrinter(), List.of(1)));
    }

    /** Issue 31, H: the serializers run once; their failure comes with what the host's own write leaves in the file. */
    @Test
    void shouldGiveTheSerializersFailureWithWhatWasWrittenBeforeIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        Map<String, Object> failing = new java.util.LinkedHashMap<>();
        failing.put("first", 1);
        failing.put("boom", new dev.spool.agent.host.DiffTypes.Failing());
        java.io.File plain = dir.resolve("plain.json").toFile();
        Exception plainError = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> mapper.writeValue(plain, failing));
        JacksonCalls.WriteFailed failed = org.junit.jupiter.api.Assertions.assertThrows(JacksonCalls.WriteFailed.class,
                () -> calls.encodeAtCall(mapper, failing));
        assertEquals(plainError.getClass(), failed.thrown.getClass());
        assertArrayEquals(java.nio.file.Files.readAllBytes(plain.toPath()), failed.written);
    }

    @Test
    void shouldReadWithTheTwinOfEachFileMethod() throws Exception {
        assertEquals(Map.of("a", List.of(1, 2)), calls.read(mapper, "readValue", doc, Map.class));
        assertEquals(Map.of("a", List.of(1, 2)),
                calls.read(mapper, "readValue", doc, new TypeReference<Map<String, Object>>() { }));
        assertEquals(Map.of("a", List.of(1, 2)),
                calls.read(mapper, "readValue", doc, mapper.getTypeFactory().constructType(Map.class)));
        assertEquals(2, ((JsonNode) calls.read(mapper, "readTree", doc, null)).get("a").size());
        ObjectReader reader = mapper.readerFor(Map.class);
        assertEquals(Map.of("a", List.of(1, 2)), calls.read(reader, "readValue", doc, null));
    }

    @Test
    void shouldPassJacksonsOwnExceptionsThrough() {
        byte[] broken = "{\"a\":".getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> calls.read(mapper, "readValue", broken, Map.class));
    }

    @Test
    void shouldSayUnsupported_whenNoTwinExists() {
        assertThrows(JacksonCalls.Unsupported.class, () -> calls.read(mapper, "readValue", doc, "not a type"));
    }
}
