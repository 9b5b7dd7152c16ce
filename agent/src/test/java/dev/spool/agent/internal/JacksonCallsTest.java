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
        assertArrayEquals(mapper.writeValueAsBytes(Map.of("a", 1)), calls.writeValueAsBytes(mapper, Map.of("a", 1)));
        assertArrayEquals(mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(List.of(1)),
                calls.writeValueAsBytes(mapper.writerWithDefaultPrettyPrinter(), List.of(1)));
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
