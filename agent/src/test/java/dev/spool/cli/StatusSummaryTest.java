package dev.spool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The summary {@code status} prints by default, made from the agent's JSON answer. */
class StatusSummaryTest {

    @Test
    void shouldSummarizeTheAgentsAnswerInAFewReadableLines() {
        String answer = "{\"installed\":true,\"version\":\"1.2\",\"routingEnabled\":true,"
                + "\"instrumentedClasses\":[\"com.fasterxml.jackson.databind.ObjectMapper\",\"java.util.logging.FileHandler\"],"
                + "\"routedStreams\":[\"/abs/app0.log\"],\"errors\":0,\"lastError\":\"\","
                + "\"buffer\":{\"started\":true,\"entries\":3,\"dirtyEntries\":2,\"estimatedBytes\":2048,\"flushes\":5,"
                + "\"filesWritten\":7,\"writesAbsorbed\":40,\"readsServed\":9,\"conflicts\":0,\"backpressureWaits\":0,"
                + "\"backpressureMillis\":0,\"lastError\":\"\"},"
                + "\"jacksonCapture\":{\"captured\":38,\"encodedAtCall\":2,\"tokenReads\":8,\"byteReads\":1},"
                + "\"configuration\":{\"spool.enabled\":\"true\"}}";
        String summary = StatusSummary.of("42", answer);
        assertTrue(summary.startsWith("Spool 1.2 in process 42: routing on\n"), summary);
        assertTrue(summary.contains("2 classes: ObjectMapper, FileHandler"), summary);
        assertTrue(summary.contains("routed logs:  /abs/app0.log"), summary);
        assertTrue(summary.contains("3 files held, 2 not yet written (2.0 KiB)"), summary);
        assertTrue(summary.contains("38 writes captured"), summary);
        assertTrue(summary.endsWith("(every field and the configuration: status 42 --json)"), summary);
    }

    @Test
    void shouldSayTheKillSwitchIsOffAndWhatAFlushWrote() {
        String summary = StatusSummary.of("7", "{\"installed\":true,\"filesWritten\":4,\"flushed\":true,"
                + "\"routingEnabled\":false,\"buffer\":{\"started\":false}}");
        assertTrue(summary.contains("routing OFF (kill switch)"), summary);
        assertTrue(summary.contains("flushed:      4 buffered files written"), summary);
        assertTrue(summary.contains("not started"), summary);
    }

    @Test
    void shouldShowAnAnswerThatIsNotJsonAsItCame() {
        assertEquals("not json {", StatusSummary.of("1", "not json {"));
    }
}
