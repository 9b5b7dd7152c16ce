package dev.spool.agent.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.jul.JulJournalRecovery;
import dev.spool.agent.logback.LogbackJournalRecovery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: a journal its process was killed while making (its blocks allocated, its header not yet written:
 * nothing but zeros) is removed by the next start of routing, JUL's and Logback's, instead of being set aside
 * as an {@code .orphan-} file beside the log (seen once in 10 kills of a host listing its folder every 5 ms, whose
 * journals are put away and made again); a file that is not a journal and not all zeros is still set aside, and
 * {@code spool recover} still changes nothing.
 */
class UnfinishedJournalTest {

    @TempDir
    Path dir;

    @Test
    void shouldRemoveAJulJournalOfZerosAtTheStartOfRouting() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "a line\n");
        Path journal = MappedLogJournal.journalOf(log);
        Files.write(journal, new byte[MappedLogJournal.HEADER + 4096]);
        JulJournalRecovery.Result r = JulJournalRecovery.recoverAtRoutingStart(log, true);
        assertNull(r.problem(), r.describe(log));
        assertTrue(r.note().contains("only zeros"), r.describe(log));
        assertEquals(List.of("app.log"), names(), "no journal, no orphan");
        assertEquals("a line\n", Files.readString(log));
    }

    @Test
    void shouldRemoveALogbackJournalOfZerosCutShortAtTheStartOfRouting() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "a line\n");
        Files.write(dir.resolve("app.log" + MappedLogJournal.LOGBACK_SUFFIX), new byte[1000]); // killed inside the fill
        LogbackJournalRecovery.Result r = LogbackJournalRecovery.recoverAtRoutingStart(new Object(), log);
        assertNull(r.problem(), r.describe(log));
        assertEquals(List.of("app.log"), names(), "no journal, no orphan");
    }

    @Test
    void shouldSetAsideAJournalThatIsNotAllZerosAndLetTheCommandChangeNothing() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "a line\n");
        Path journal = MappedLogJournal.journalOf(log);
        byte[] junk = new byte[MappedLogJournal.HEADER + 4096];
        junk[junk.length - 1] = 1;
        Files.write(journal, junk);
        assertTrue(JulJournalRecovery.recover(log, false).problem() != null, "the command refuses it");
        assertTrue(Files.exists(journal), "and leaves it (before 5 Dec it set it aside)");
        Path logback = Files.write(dir.resolve("app.log" + MappedLogJournal.LOGBACK_SUFFIX), new byte[1000]);
        assertTrue(LogbackJournalRecovery.recoverBytes(log).problem() != null, "the command refuses zeros too");
        assertTrue(Files.exists(logback), "and leaves them");
        assertTrue(JulJournalRecovery.recoverAtRoutingStart(log, true).problem() != null, "a start names it");
        assertFalse(Files.exists(journal));
        assertTrue(names().stream().anyMatch(n -> n.startsWith("app.log.spool-journal.orphan-")), names().toString());
    }

    private List<String> names() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
