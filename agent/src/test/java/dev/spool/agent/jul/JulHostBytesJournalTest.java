package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.journal.MappedLogJournal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery of a journal of the bytes a {@code FileHandler} formatted itself ({@link JulHostBytesJournal},
 * issue 33): each frame's bytes go back unchanged, once: skipped when at their offset, the rest of a torn
 * write appended, a write that never reached the file appended after the last one that did.
 */
class JulHostBytesJournalTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteBackTheHostsBytesOnceWhereTheFileLacksThem() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "older\n");
        MappedLogJournal j = MappedLogJournal.create(log, JulHostBytesJournal.FORMAT, StandardCharsets.UTF_8);
        byte[] one = "<one> ü, as the application's formatter wrote it\n".getBytes(StandardCharsets.UTF_8);
        byte[] two = "two: torn by the kill\n".getBytes(StandardCharsets.UTF_8);
        byte[] three = "three: never reached the file\n".getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(j.appendBytes(one, 0, one.length, 6) >= 0);
        assertTrue(j.appendBytes(two, 0, two.length, 6 + one.length) >= 0);
        assertTrue(j.appendBytes(three, 0, three.length, 6 + one.length + two.length) >= 0);
        Files.write(log, one, StandardOpenOption.APPEND);
        Files.write(log, java.util.Arrays.copyOf(two, 5), StandardOpenOption.APPEND);
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(2, r.lines(), r.describe(log));
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.writeBytes("older\n".getBytes(StandardCharsets.UTF_8));
        expected.writeBytes(one);
        expected.writeBytes(two);
        expected.writeBytes(three);
        assertEquals(new String(expected.toByteArray(), StandardCharsets.ISO_8859_1),
                new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1));
        assertFalse(Files.exists(MappedLogJournal.journalOf(log)), "journal removed");
    }
}
