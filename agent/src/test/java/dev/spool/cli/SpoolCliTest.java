package dev.spool.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolCliTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SpoolCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private Path threeEvents() {
        Path f = dir.resolve("e.spool");
        try (EventLog log = EventLog.open(f)) {
            log.emit(Map.of("n", 1));
            log.emit(List.of("a", "b"));
            log.emit(Map.of("mass", new double[] {1.5, 2.0}));
        }
        return f;
    }

    @Test
    void shouldPrintEventsAsJsonLines() {
        Path f = threeEvents();
        assertEquals(0, run("cat", f.toString()));
        assertEquals("{\"n\":1}\n[\"a\",\"b\"]\n{\"mass\":[1.5,2.0]}\n", out().replace("\r\n", "\n"));
    }

    @Test
    void shouldStartAtRecordFrom() {
        Path f = threeEvents();
        assertEquals(0, run("cat", f.toString(), "--from", "2"));
        assertEquals("{\"mass\":[1.5,2.0]}\n", out().replace("\r\n", "\n"));
    }

    @Test
    void shouldVerifySoundFileWithExitZero() {
        Path f = threeEvents();
        assertEquals(0, run("verify", f.toString()));
        assertTrue(out().contains("OK, 3 records"), out());
    }

    @Test
    void shouldReportOffsetAndGoodCountOfFirstBadRecord() throws Exception {
        Path f = threeEvents();
        long size = Files.size(f);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size - 3); // tear the last record
        }
        int code = run("verify", f.toString());
        assertEquals(1, code);
        assertTrue(out().contains("BAD at offset "), out());
        assertTrue(out().contains(": 2 good records precede it"), out());
    }

    @Test
    void shouldFailWithUsageForUnknownCommandAndMissingFile() {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command"));
        assertEquals(2, run("verify", dir.resolve("missing.spool").toString()));
        assertEquals(2, run("cat", "x", "--from", "minus"));
    }

    @Test
    void shouldPrintHelpAndVersion() {
        assertEquals(0, run("--help"));
        assertTrue(out().contains("cat <file> [--from N]"));
        assertTrue(out().contains("verify <file>"));
        assertEquals(0, run("--version"));
        assertTrue(out().contains("spool "));
    }

    @Test
    void shouldRemoveOnlyStaleSpoolTempFilesWithRecover() throws Exception {
        Path data = Files.writeString(dir.resolve("a.json"), "{}");
        Path stale = Files.writeString(dir.resolve(".a.json.spool-tmp-0123456789abcdef"), "{\"half");
        Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 7_200_000));
        Path young = Files.writeString(dir.resolve(".a.json.spool-tmp-fedcba9876543210"), "{\"half");
        Path notOurs = Files.writeString(dir.resolve(".a.json.spool-tmp-notes"), "mine");
        Files.setLastModifiedTime(notOurs, java.nio.file.attribute.FileTime.fromMillis(0));
        assertEquals(0, run("recover", dir.toString()));
        assertTrue(out().contains("removed " + stale), out());
        assertTrue(out().contains("kept " + young + ": no owner in its name"), out());
        assertTrue(out().contains(": 1 stale temp files removed, 1 kept"), out());
        assertTrue(Files.notExists(stale));
        assertTrue(Files.exists(young) && Files.exists(notOurs) && Files.exists(data));
    }

    /** Issue 33: a file at a Logback journal's name that is not one: {@code spool recover FILE} names it, exit 1, changes nothing. */
    @Test
    void shouldRefuseALogbackJournalItCannotReadAndChangeNothing() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "a line\n");
        Path journal = dir.resolve("app.log.spool-logback-journal");
        byte[] content = "SPOOLLBK and whatever a killed appender left".getBytes(StandardCharsets.US_ASCII);
        Files.write(journal, content);
        assertEquals(1, run("recover", log.toString()));
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("not replayed") && said.contains("nothing changed"), said);
        assertArrayEquals(content, Files.readAllBytes(journal));
        assertEquals("a line\n", Files.readString(log));
    }

    /**
     * Issue 33: a Logback journal holding a captured event needs the application's Logback to encode it:
     * {@code spool recover FILE} says so, exit 1, and changes nothing (it stays for the application's next start).
     */
    @Test
    void shouldRefuseALogbackJournalOfCapturedEventsAndChangeNothing() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "a line\n");
        Path journal = killedLogbackJournal(log, j -> j.append(new byte[] {1, 2, 3}, 3));
        byte[] content = Files.readAllBytes(journal);
        assertEquals(1, run("recover", log.toString()));
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("1 captured events") && said.contains("next start") && said.contains("nothing changed"), said);
        assertArrayEquals(content, Files.readAllBytes(journal));
        assertEquals("a line\n", Files.readString(log));
    }

    /** Issue 33: a Logback journal of bytes only (an appender Spool does not defer) is replayed by {@code spool recover FILE}, once. */
    @Test
    void shouldReplayALogbackJournalOfBytesOnce() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "first\n");
        byte[] second = "second\n".getBytes(StandardCharsets.UTF_8);
        byte[] third = "third\n".getBytes(StandardCharsets.UTF_8);
        Path journal = killedLogbackJournal(log, j -> {
            j.done(j.appendBytes("first\n".getBytes(StandardCharsets.UTF_8), 0, 6, 0)); // reached the file
            j.appendBytes(second, 0, second.length, 6);
            j.appendBytes(third, 0, third.length, 13);
        });
        assertEquals(0, run("recover", log.toString()), err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("2 journaled Logback lines recovered"), out.toString(StandardCharsets.UTF_8));
        assertEquals("first\nsecond\nthird\n", Files.readString(log));
        assertFalse(Files.exists(journal), "replayed once: the journal is gone");
    }

    /** A Logback journal as a killed process left it: {@code frames} stored, its process id one that does not run. */
    private static Path killedLogbackJournal(Path log, java.util.function.Consumer<dev.spool.agent.journal.MappedLogJournal> frames)
            throws Exception {
        Path journal = log.resolveSibling(log.getFileName() + ".spool-logback-journal");
        dev.spool.agent.journal.MappedLogJournal j = dev.spool.agent.journal.MappedLogJournal.create(journal,
                dev.spool.agent.journal.MappedLogJournal.LOGBACK_MAGIC, "%msg%n", StandardCharsets.UTF_8);
        frames.accept(j);
        j.abandon();
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(journal, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer pid = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, Integer.MAX_VALUE - 7L);
            ch.write(pid, dev.spool.agent.journal.MappedLogJournal.PID_OFFSET);
        }
        return journal;
    }

    /** Issue 33: {@code spool recover FILE} replays the journal a killed writer left, once. */
    @Test
    void shouldReplayAKilledWritersJournalWithRecoverFile() throws Exception {
        Path file = dir.resolve("events.spool");
        try (dev.spool.events.EventLog log = dev.spool.events.EventLog.open(file)) {
            log.emit("written");
        }
        assertEquals(0, run("recover", file.toString()));
        assertTrue(out().contains("no journal"), out());
        Path journal = dev.spool.sink.JournalLayout.journalOf(file);
        Files.writeString(journal, "not a journal");
        assertEquals(1, run("recover", file.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not replayed"), err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.notExists(journal), "renamed .orphan-<ms>");
    }

    @Test
    void shouldFailRecoverWithUsageForAMissingFolderOrArgument() {
        assertEquals(2, run("recover"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: spool recover <folder>"));
        assertEquals(2, run("recover", dir.resolve("missing").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a folder"));
        assertEquals(2, run("recover", "a", "b"));
        assertEquals(0, run("--help"));
        assertTrue(out().contains("recover <folder>"), out());
    }
}
