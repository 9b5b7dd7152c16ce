package dev.spool.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md is exactly what {@link ConfigurationReference} makes from {@link ConfigKey}. */
class ConfigurationReferenceTest {

    static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");

    @Test
    void shouldMatchTheGeneratedConfigurationReference() throws IOException {
        String expected = ConfigurationReference.markdown();
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "(missing)";
        assertEquals(expected, actual, "docs/CONFIGURATION.md differs from ConfigKey; regenerate it from the"
                + " repository root with:\n  " + ConfigurationReference.REGENERATE + "\n");
    }

    @Test
    void shouldDescribeEveryKeyWithItsDefault() {
        String md = ConfigurationReference.markdown();
        for (ConfigKey k : ConfigKey.values()) {
            assertFalse(k.description().isBlank(), k.key());
            assertTrue(md.contains("| `" + k.key() + "` |"), k.key());
        }
    }

    @Test
    void shouldNotDocumentAHeapDependentDefaultAsANumber() {
        // the generated file must be the same on every machine: the default of capacity.bytes follows the heap
        assertFalse(ConfigurationReference.markdown().contains(ConfigKey.BUFFER_CAPACITY_BYTES.defaultText() + "`"));
    }
}
