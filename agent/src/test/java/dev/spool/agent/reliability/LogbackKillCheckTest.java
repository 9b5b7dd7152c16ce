package dev.spool.agent.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.reliability.LogbackKillEvents.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks {@link LogbackJournalKillIT} relies on can fail: files written here the way a broken
 * recovery would leave them (a torn line, a cut stack trace, a line twice, a gap, bytes that are not
 * UTF-8, ids only in a side file) each give the problem that names them, and a whole file gives none.
 */
class LogbackKillCheckTest {
    @TempDir
    Path dir;

    @Test
    void shouldFindNoProblemInWholeEventsInOrder() throws Exception {
        LogbackKillEvents events = new LogbackKillEvents();
        List<Event> read = events.read(write("app.log", event(0, 0, 0) + event(0, 1, 0) + event(0, 0, 1) + event(1, 0, 0)
                + event(0, 1, 1) + event(0, 0, 2)));
        LogbackKillLedger ledger = new LogbackKillLedger(new long[][] {{2, 1}, {0, -1}});
        ledger.inOrder(read);
        assertEquals(0, ledger.lost());
        assertEquals(List.of(), events.problems);
        assertEquals(List.of(), ledger.problems);
        assertEquals(6, read.size());
    }

    @Test
    void shouldReportATornLineAndATornLastLine() throws Exception {
        LogbackKillEvents events = new LogbackKillEvents();
        String torn = event(0, 0, 1).substring(0, 30);
        events.read(write("app.log", event(0, 0, 0) + torn + event(0, 0, 1) + event(0, 0, 2).substring(0, 40)));
        assertEquals(3, events.problems.size(), events.problems.toString());
        assertTrue(events.problems.get(0).startsWith("app.log line 13 not whole: '" + torn), events.problems.toString());
        assertTrue(events.problems.get(1).startsWith("app.log ends without a newline (a torn last line 14"), events.problems.toString());
        assertTrue(events.problems.get(2).startsWith("app.log line 14 not whole"), events.problems.toString());
    }

    @Test
    void shouldReportAStackTraceCutShortOrUnlikeTheFirst() throws Exception {
        LogbackKillEvents events = new LogbackKillEvents();
        String whole = event(0, 0, 50);
        String cut = whole.substring(0, whole.indexOf("Caused by: java.lang.IllegalArgumentException"));
        String other = event(0, 0, 100).replace("logOne(LogbackJournalKillHost.java:", "logOne(LogbackJournalKillHost.java:1");
        events.read(write("app.log", event(0, 0, 0) + cut + other));
        assertEquals(2, events.problems.size(), events.problems.toString());
        assertTrue(events.problems.get(0).contains("(r0 t0 50): stack trace not whole"), events.problems.toString());
        assertTrue(events.problems.get(1).contains("(r0 t0 100): stack trace line 3 is"), events.problems.toString());
    }

    @Test
    void shouldReportBytesThatAreNotUtf8() throws Exception {
        byte[] text = event(0, 0, 1).getBytes(StandardCharsets.UTF_8);
        text[text.length - 2] = (byte) 0xC3; // the second byte of 'ü' gone: an encoding cut in the middle of a character
        Path file = dir.resolve("app.log");
        Files.write(file, text);
        LogbackKillEvents events = new LogbackKillEvents();
        events.read(file);
        assertTrue(events.problems.get(0).startsWith("app.log line 1 (byte 0) not valid UTF-8"), events.problems.toString());
    }

    @Test
    void shouldReportDuplicatedGappedLostAndMisplacedIds() throws Exception {
        LogbackKillEvents events = new LogbackKillEvents();
        List<Event> read = events.read(write("app.log", event(0, 0, 0) + event(0, 0, 1) + event(0, 0, 1) + event(0, 0, 3)
                + event(0, 1, 0)));
        List<Event> side = events.read(write("app.log.spool-recovered-1-2", event(0, 1, 1) + event(0, 1, 2)));
        LogbackKillLedger ledger = new LogbackKillLedger(new long[][] {{5, 2}});
        ledger.inOrder(read);
        ledger.aside(side);
        assertEquals(3, ledger.lost()); // t0: 2, 4, 5
        assertEquals(List.of(), events.problems);
        assertEquals(List.of("app.log line 14: r0 t0 1 duplicated (again after 1)",
                "app.log line 15: r0 t0 seq 3, expected 2 (a gap)",
                "round 0 thread 0: 3 acknowledged ids (of 0..5) lost: 2, 4-5",
                "round 0 thread 1: 2 acknowledged ids only in a side file, not in the log file: 1-2"), ledger.problems);
        assertTrue(ledger.figures().contains("round 0: 9 acknowledged, 3 lost, 2 only in a side file, 1 duplicated"),
                ledger.figures());
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    /** The text Logback writes for the host's event {@code seq} of thread {@code t} (its stack trace as in a real run). */
    private static String event(int round, int t, long seq) {
        String head = "2026-12-04 18:19:56.533 " + (seq % 50 == 0 ? "WARN" : "INFO") + " kill.logback ["
                + (seq % 3 == 0 ? "q" + seq : "") + "]: r" + round + " t" + t + " " + seq + " ü\n";
        if (seq % 50 != 0) {
            return head;
        }
        String at = "\tat dev.spool.agent.reliability.LogbackJournalKillHost.";
        return head + "java.lang.IllegalStateException: outer r" + round + " t" + t + " " + seq + "\n"
                + at + "failure(LogbackJournalKillHost.java:111)\n" + at + "logOne(LogbackJournalKillHost.java:98)\n"
                + at + "lambda$main$1(LogbackJournalKillHost.java:66)\n\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
                + "Caused by: java.io.IOException: middle " + seq + "\n" + at + "middle(LogbackJournalKillHost.java:115)\n"
                + "\t... 4 common frames omitted\n"
                + "Caused by: java.lang.IllegalArgumentException: root " + seq + "\n" + at + "root(LogbackJournalKillHost.java:119)\n"
                + "\t... 5 common frames omitted\n";
    }
}
