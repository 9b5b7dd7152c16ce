package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the Logback differential fuzz ({@code LogbackDifferentialFuzzIT}) found, each kept as the seed and cases
 * that found it, replayed plain and under the agent on Logback 1.5 and the newest line. Each also asserts that
 * the replay still meets the situation (a change to {@code LogbackFuzzHost}'s draws would move it elsewhere).
 */
class LogbackFuzzCasesIT {

    @TempDir
    Path root;

    /**
     * Seed 30, cases 22 and 50: events given their MDC map by the host ({@code LoggingEvent.setMDCPropertyMap}),
     * which then changes the map after the call. Plain Logback encodes at the call (the old value); Spool's thread
     * encoded later and printed the new one ({@code user=change...}). Such events now take Logback's own path.
     */
    @ParameterizedTest(name = "Logback {0}")
    @ValueSource(strings = {"1.5", "1.6"})
    void shouldPrintTheMdcAsAtTheCall_whenTheHostChangesTheMapItGaveTheEventAfterTheCall(String line) throws Exception {
        for (int c : new int[] {22, 50}) {
            List<String> differences = LogbackDifferentialFuzzIT.differences(root, line, 30, c, c + 1);
            String err = Files.readString(root.resolve(line + "-30-" + c + "-agent.err"));
            assertTrue(err.contains("encoded on Spool's thread"), "the case's appender encodes on Spool's thread: " + err);
            assertEquals(List.of(), differences, "case " + c);
            assertTrue(err.contains("an MDC map of the host's own"), "the fallback named: " + err);
        }
    }
}
