package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.RecoveryTarget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/** What the JUL journal's tests share: a journal with records of one format, their lines, the side file. */
final class JulJournalFixture {
    static final String FORMAT = "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n";

    private JulJournalFixture() {
    }

    record Journaled(MappedLogJournal journal, long frame, String line) {
    }

    /** The one side file recovery wrote beside {@code log}. */
    static Path sideOf(Path log) throws IOException {
        try (java.util.stream.Stream<Path> all = Files.list(log.getParent())) {
            List<Path> sides = all.filter(p -> p.getFileName().toString().startsWith(log.getFileName() + RecoveryTarget.SIDE_SUFFIX)
                    && !p.toString().endsWith(".tmp")).toList();
            assertEquals(1, sides.size(), "side files: " + sides);
            return sides.get(0);
        }
    }

    static Journaled journal(Path log, String message) throws IOException {
        MappedLogJournal j = MappedLogJournal.create(log, FORMAT, StandardCharsets.UTF_8);
        return new Journaled(j, appendRecord(j, message), line(message));
    }

    static long appendRecord(MappedLogJournal j, String message) {
        ByteBuffer b = new JulJournalCodec().encode(capture(message));
        long at = j.append(b.array(), b.position());
        assertTrue(at >= 0);
        return at;
    }

    static JulCapture capture(String message) {
        LogRecord r = new LogRecord(Level.INFO, message);
        r.setLoggerName("app");
        r.setInstant(Instant.parse("2026-12-04T07:00:00.123Z"));
        return JulCapture.capture(r, false, true);
    }

    static String line(String message) {
        return CompiledSimpleFormatter.compile(FORMAT).format(capture(message));
    }

    static void append(Path log, String text) throws IOException {
        Files.writeString(log, text, StandardOpenOption.APPEND);
    }
}
