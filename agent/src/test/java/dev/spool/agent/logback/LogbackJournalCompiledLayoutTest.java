package dev.spool.agent.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

/**
 * Recovery may write a rebuilt event with the appender's {@link CompiledPatternLayout} rather than
 * Logback's encoder: the compiled layout reads the rebuilt Proxy through the same interface getters,
 * so its bytes (when it does not leave the event to Logback) equal Logback's for the original.
 */
class LogbackJournalCompiledLayoutTest {

    @Test
    void shouldWriteTheCompiledLayoutsBytesForTheRebuiltEventAsLogbackWritesTheOriginal() throws Exception {
        List<String> patterns = new ArrayList<>(LogbackPatternCorpus.PUBLIC);
        patterns.addAll(LogbackPatternCorpus.EDGES);
        patterns.addAll(LogbackJournalRoundTrips.JOURNAL);
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        long compiled = 0;
        long total = 0;
        int seed = 500;
        for (String pattern : patterns) {
            LogbackRichEvents events = new LogbackRichEvents(++seed, 1_700_000_000_000L + seed * 7_919_000L);
            PatternLayoutEncoder enc = events.plain().encoder(pattern, StandardCharsets.UTF_8);
            List<String> reports = new ArrayList<>();
            CompiledPatternLayout layout = LogbackEvents.compile(enc, reports::add);
            assertNotNull(layout, pattern);
            for (int i = 0; i < 100; i++) {
                LoggingEvent e = events.next();
                byte[] theirs = enc.encode(e);
                byte[] ours = layout.encode(LogbackJournalRoundTrips.roundTrip(codec, e));
                total++;
                if (ours != null) {
                    compiled++;
                    if (!Arrays.equals(theirs, ours)) {
                        fail("pattern " + pattern + ", event " + e + "\n logback:  [" + new String(theirs, StandardCharsets.UTF_8)
                                + "]\n rebuilt:  [" + new String(ours, StandardCharsets.UTF_8) + "]");
                    }
                }
            }
            assertEquals(List.of(), reports, pattern);
        }
        assertTrue(compiled > total / 2, "the compiled layout wrote " + compiled + " of " + total);
    }
}
