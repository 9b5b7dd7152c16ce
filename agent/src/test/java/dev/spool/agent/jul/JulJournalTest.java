package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import static dev.spool.agent.jul.JulJournalFixture.FORMAT;
import static dev.spool.agent.jul.JulJournalFixture.Journaled;
import static dev.spool.agent.jul.JulJournalFixture.append;
import static dev.spool.agent.jul.JulJournalFixture.appendRecord;
import static dev.spool.agent.jul.JulJournalFixture.journal;
import static dev.spool.agent.jul.JulJournalFixture.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JUL journal (issue 33): a journaled record formats as the JDK's {@code SimpleFormatter}
 * would have at the call ({@link JulJournalCodec} round trip, differential over the format corpus,
 * zones and locales), and recovery ({@link JulJournalRecovery}) puts each line into the file
 * exactly once: skipped where the writer's bytes are, the rest of a torn line, never-written
 * lines after the last line, a gone file recreated, done records and frames cut short skipped.
 */
@ExtendWith(RestoresFormatDefaults.class)
class JulJournalTest {
    @TempDir
    Path dir;

    @Test
    void shouldFormatAJournaledRecordLikeTheJdksSimpleFormatterForEveryFormatZoneAndLocale() {
        Random random = new Random(33);
        JulJournalCodec codec = new JulJournalCodec();
        int compared = 0;
        for (String format : SimpleFormatCorpus.ALL) {
            System.setProperty(CompiledSimpleFormatter.FORMAT_PROPERTY, format);
            SimpleFormatter jdk = new SimpleFormatter();
            CompiledSimpleFormatter ours = CompiledSimpleFormatter.compile(CompiledSimpleFormatter.resolveFormat(null));
            for (String zoneId : new String[] {"UTC", "Europe/Berlin", "Australia/Lord_Howe"}) {
                TimeZone.setDefault(TimeZone.getTimeZone(zoneId));
                Locale l = random.nextBoolean() ? Locale.GERMANY : Locale.forLanguageTag("th-TH-u-nu-thai");
                Locale.setDefault(l);
                for (Instant at : CompiledSimpleFormatterTest.instants(ZoneId.of(zoneId), random)) {
                    LogRecord r = CompiledSimpleFormatterTest.randomRecord(random, at);
                    String expected = CompiledSimpleFormatterTest.outcome(() -> jdk.format(r));
                    String actual = CompiledSimpleFormatterTest.outcome(() -> {
                        ByteBuffer b = codec.encode(JulCapture.capture(r, ours.uses(2), ours.uses(5)));
                        return ours.format(new JulJournalCodec.Decoder().decode(ByteBuffer.wrap(b.array(), 0, b.position()).slice()));
                    });
                    assertEquals(expected, actual, () -> "format " + format + " zone " + zoneId + " locale " + l);
                    compared++;
                }
            }
        }
        assertTrue(compared > 1_000, "compared " + compared);
    }

    @Test
    void shouldKeepEveryImmutableParameterTypeThroughTheJournal() {
        LogRecord r = new LogRecord(Level.INFO, "{0} {1} {2} {3} {4} {5} {6} {7} {8} {9} {10} {11}");
        r.setParameters(new Object[] {"s", 1, 2L, (short) 3, (byte) 4, true, 'c', 1.5d, 2.5f,
                new BigInteger("123456789012345678901234567890"), new UUID(1, 2), null});
        JulCapture c = JulCapture.capture(r, false, true);
        ByteBuffer b = new JulJournalCodec().encode(c);
        JulCapture back = new JulJournalCodec.Decoder().decode(ByteBuffer.wrap(b.array(), 0, b.position()).slice());
        assertEquals(c.message(), back.message());
    }

    /**
     * The writer prints the level's name the journal holds (the one read at the call, as the JDK's
     * format reads it): a {@code Locale.setDefault} between the call and the write would otherwise
     * make the file say {@code INFO} where recovery formats {@code INFORMATION}, and a line already
     * in the file would be appended again.
     */
    @Test
    void shouldWriteTheLevelNameTheJournalHoldsWhenTheLocaleChangesBeforeTheWrite() {
        Locale.setDefault(Locale.GERMANY);
        LogRecord r = new LogRecord(Level.INFO, "m");
        CompiledSimpleFormatter f = CompiledSimpleFormatter.compile(FORMAT);
        JulCapture c = JulCapture.capture(r, false, true);
        ByteBuffer b = new JulJournalCodec().encode(c);
        Locale.setDefault(Locale.US); // after the call, before the writer formats
        String written = f.format(c);
        String recovered = f.format(new JulJournalCodec.Decoder().decode(ByteBuffer.wrap(b.array(), 0, b.position()).slice()));
        assertEquals(recovered, written);
        assertTrue(written.contains(" INFORMATION "), written);
    }

    @Test
    void shouldSkipALineAlreadyAtItsRecordedOffsetWhenKilledBetweenTheWriteAndTheTrim() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled j = journal(log, "one");
        append(log, j.line());
        j.journal().filePos(j.frame(), 7);
        assertEquals(0, JulJournalRecovery.recover(log, false).lines());
        assertEquals("before\n" + j.line(), Files.readString(log));
        assertFalse(Files.exists(MappedLogJournal.journalOf(log)), "journal removed");
    }

    @Test
    void shouldAppendOnlyTheRestOfALineTornByTheKill() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled j = journal(log, "a torn line");
        append(log, j.line().substring(0, 9));
        j.journal().filePos(j.frame(), 7);
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(1, r.lines());
        assertEquals("before\n" + j.line(), Files.readString(log));
    }

    @Test
    void shouldAppendALineNeverWrittenAfterTheLastLineThatReachedTheFile() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled written = journal(log, "written");
        append(log, written.line());
        written.journal().filePos(written.frame(), 7);
        long queued = appendRecord(written.journal(), "queued");
        assertTrue(queued > written.frame());
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(1, r.lines());
        assertNull(r.note());
        assertEquals("before\n" + written.line() + line("queued"), Files.readString(log));
    }

    /**
     * A journal of several batches ({@link JulRecoveryFormatter#BATCH}) is formatted on threads of
     * its own, batches ahead of the one placed: the lines still go in the writer's order, every one
     * once (the first 3,000 in the file already, the next one torn, the rest never written).
     */
    @Test
    void shouldReplayManyBatchesFormattedAheadInTheWritersOrder() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        MappedLogJournal j = MappedLogJournal.create(log, FORMAT, StandardCharsets.UTF_8);
        int n = 3 * JulRecoveryFormatter.BATCH + 100;
        StringBuilder expected = new StringBuilder("before\n");
        long pos = 7;
        for (int i = 0; i < n; i++) {
            String message = "line " + i + (i % 7 == 0 ? " ü" : "");
            long frame = appendRecord(j, message);
            String text = line(message);
            expected.append(text);
            if (i < 3000) {
                append(log, text);
                j.filePos(frame, pos);
            } else if (i == 3000) {
                append(log, text.substring(0, 5));
                j.filePos(frame, pos);
            }
            pos += text.getBytes(StandardCharsets.UTF_8).length;
        }
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(n - 3000, r.lines(), r.describe(log));
        assertNull(r.note());
        assertEquals(expected.toString(), Files.readString(log));
    }

    /**
     * Two threads' records reach the journal in one order and the file in the other (the queue's):
     * recovery replays in the writer's order (the recorded offsets), so neither line counts as
     * moved and the file gets them as the writer would have written them.
     */
    @Test
    void shouldReplayInTheWritersOrderWhenTheJournalsOrderDiffers() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled first = journal(log, "reserved first, written second");
        long second = appendRecord(first.journal(), "reserved second, written first");
        first.journal().filePos(second, 7);
        first.journal().filePos(first.frame(), 7 + line("reserved second, written first").length());
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(2, r.lines());
        assertNull(r.note(), "no line was moved: " + r.note());
        assertEquals("before\n" + line("reserved second, written first") + first.line(), Files.readString(log));
    }

    /**
     * Batches are formatted while the scan still runs, in the journal's order; a frame the scan finds
     * far into the journal whose line the writer wrote first (two threads' queues) changes that order:
     * the batches formatted so far are dropped, and the lines still go in the writer's order.
     */
    @Test
    void shouldReplayInTheWritersOrderWhenAFrameFarIntoTheJournalWasWrittenFirst() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        MappedLogJournal j = MappedLogJournal.create(log, FORMAT, StandardCharsets.UTF_8);
        int n = 6 * JulRecoveryFormatter.BATCH + 10;
        int early = 5 * JulRecoveryFormatter.BATCH + 3; // after every batch formatted during the scan
        StringBuilder rest = new StringBuilder();
        String first = null;
        for (int i = 0; i < n; i++) {
            String message = "line " + i;
            long frame = appendRecord(j, message);
            if (i == early) {
                first = line(message);
                append(log, first);
                j.filePos(frame, 7);
            } else {
                rest.append(line(message));
            }
        }
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(n - 1, r.lines(), r.describe(log));
        assertNull(r.note());
        assertEquals("before\n" + first + rest, Files.readString(log));
    }

    @Test
    void shouldNotReplayADoneRecordNorAFrameCutShort() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "");
        Journaled j = journal(log, "done");
        j.journal().done(j.frame());
        long torn = appendRecord(j.journal(), "torn by the kill");
        appendRecord(j.journal(), "whole");
        try (FileChannel ch = FileChannel.open(MappedLogJournal.journalOf(log), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x7f}), MappedLogJournal.HEADER + torn + MappedLogJournal.FRAME_HEADER + 3);
        }
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals(line("whole"), Files.readString(log));
    }

    @Test
    void shouldRecreateAMovedLogFileAndSaySo() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled j = journal(log, "after the move");
        Files.move(log, dir.resolve("app.log.moved"));
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(1, r.lines());
        assertTrue(r.note().contains("gone"), r.note());
        assertEquals(j.line(), Files.readString(log));
    }

    @Test
    void shouldTrimOverDoneRecordsOnly() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "");
        Journaled a = journal(log, "a");
        long b = appendRecord(a.journal(), "b");
        a.journal().done(b);
        a.journal().trim();
        assertTrue(a.journal().pendingBytes() > 0, "b is done, a is not: nothing trimmed");
        a.journal().done(a.frame());
        a.journal().trim();
        assertEquals(0, a.journal().pendingBytes());
        assertTrue(a.journal().empty());
    }

    /**
     * A full disk while journaling: the journal's blocks are allocated at its creation, so ENOSPC
     * fails there (the handler then goes unjournaled, counted), never later as a fault of a store
     * into the mapping on the caller's thread; no partial journal is left. A real 2 MiB tmpfs.
     */
    @Test
    void shouldFailTheJournalsCreationNotALaterStoreOnAFullDisk() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("tmpfs"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)
                && p.exitValue() == 0, "cannot mount a tmpfs (needs root): " + out.trim());
        try {
            Path log = Files.writeString(mount.resolve("app.log"), "");
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> MappedLogJournal.create(log, FORMAT, StandardCharsets.UTF_8));
            assertTrue(String.valueOf(e.getMessage()).contains("No space left"), e.getMessage());
            assertTrue(e.getMessage().contains(MappedLogJournal.journalOf(log).toString()), "names the journal: " + e.getMessage());
            assertFalse(Files.exists(MappedLogJournal.journalOf(log)), "no partial journal");
        } finally {
            new ProcessBuilder("umount", "-l", mount.toString()).redirectErrorStream(true).start().waitFor();
        }
    }
}
