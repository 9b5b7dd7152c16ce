package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.JournalLayout;
import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: the states a SIGKILL can leave a journal and its event file in, written byte by byte
 * as the writer would have left them ({@link JournalLayout}), then recovered by the next
 * {@link EventLog#open}: every acknowledged frame once, in order, whole, and nothing written into a
 * file that is not the journal's.
 */
class JournalRecoveryTest {
    private static final int REGION = 4096;
    /** Zeros an mmap writer allocated ahead of its data (less than its 1 MiB: the test stays small). */
    private static final int MMAP_PADDING = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void shouldNotDuplicateAUseKilledBetweenItsWriteAndItsTrim() throws Exception {
        Path file = eventFile(frame("a"), frame("b"));
        long pos = 16;
        long len = frame("a").length + frame("b").length;
        Journal j = new Journal(file).region(0, 1, frame("a"), frame("b")).region(1, 2, frame("c"));
        j.pending(JournalLayout.BUFFER, 1, pos, len, new byte[0]).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 1));
    }

    @Test
    void shouldCutATornBufferWriteAndReplayItsUseWhole() throws Exception {
        byte[] ab = concat(frame("a"), frame("b"));
        Path file = eventFile(Arrays.copyOf(ab, ab.length - 7));   // the kill tore the write
        Journal j = new Journal(file).region(0, 1, frame("a"), frame("b")).region(1, 2, frame("c"));
        j.pending(JournalLayout.BUFFER, 1, 16, ab.length, new byte[0]).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 3));
    }

    @Test
    void shouldCutATornMmapWriteInsideItsZeroPaddingAndReplayItsUseWhole() throws Exception {
        byte[] ab = concat(frame("a"), frame("b"));
        // the mmap back end copies into zeros it allocated ahead: the torn write is followed by padding, not the end
        Path file = eventFile(Arrays.copyOf(ab, ab.length - 7), new byte[MMAP_PADDING]);
        Journal j = new Journal(file).region(0, 1, frame("a"), frame("b")).region(1, 2, frame("c"));
        j.pending(JournalLayout.BUFFER, 1, 16, ab.length, new byte[0]).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 3));
    }

    @Test
    void shouldReplayRightAfterTheDataOfAKilledMmapWriterNotAfterItsPadding() throws Exception {
        Path file = eventFile(frame("a"), frame("b"), new byte[MMAP_PADDING]);   // the write of a and b completed
        long len = frame("a").length + frame("b").length;
        new Journal(file).region(0, 1, frame("a"), frame("b")).region(1, 2, frame("c"))
                .pending(JournalLayout.BUFFER, 1, 16, len, new byte[0]).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 1));
        assertEquals(16 + len + frame("c").length, Files.size(file), "the padding is cut, not kept mid-file");
    }

    @Test
    void shouldReplayAfterTheDataWhenAnMmapWriterWasKilledBeforeRecordingAWrite() throws Exception {
        Path file = eventFile(frame("a"), new byte[MMAP_PADDING]);              // pending kind NONE: no write under way
        new Journal(file).region(2, 4, frame("b")).write();
        assertEquals(List.of("a", "b"), recoverAndRead(file, 1));
    }

    @Test
    void shouldStepOverATornFrameInTheJournal() throws Exception {
        Path file = eventFile();
        byte[] torn = Arrays.copyOf(frame("torn"), 20);             // header half copied, the rest still zero
        byte[] reserved = new byte[frame("x").length];               // space reserved, not yet copied
        Journal j = new Journal(file).region(0, 1, frame("a"), torn, new byte[frame("torn").length - 20], frame("b"),
                reserved, frame("c"));
        j.write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 3));
    }

    @Test
    void shouldReplayUsesOldestFirstWhateverTheirRegions() throws Exception {
        Path file = eventFile(frame("a"));
        Journal j = new Journal(file).region(0, 7, frame("d")).region(1, 5, frame("b")).region(2, 6, frame("c"))
                .region(3, JournalLayout.RETIRED, frame("retired"));
        j.write();
        assertEquals(List.of("a", "b", "c", "d"), recoverAndRead(file, 3));
    }

    @Test
    void shouldCutATornDirectWriteThatWasNeverAcknowledged() throws Exception {
        byte[] big = frame("p".repeat(500));
        Path file = eventFile(concat(frame("a"), Arrays.copyOf(big, 100)));
        long pos = 16 + frame("a").length;
        new Journal(file).region(0, 2, frame("b")).pending(JournalLayout.DIRECT, 0, pos, big.length,
                tail(frame("a"))).write();
        assertEquals(List.of("a", "b"), recoverAndRead(file, 1));
    }

    @Test
    void shouldNotReplayTwiceWhenKilledDuringRecovery() throws Exception {
        Path file = eventFile(frame("a"), frame("b"), frame("c"));   // the replay of b and c reached the file
        long end = 16 + frame("a").length;
        new Journal(file).region(0, 1, frame("b")).region(1, 2, frame("c"))
                .pending(JournalLayout.REPLAY, 0, end, frame("b").length + frame("c").length, tail(frame("a"))).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(file, 0));
        byte[] partial = concat(frame("a"), Arrays.copyOf(frame("b"), 9));   // killed inside the replay
        Path again = eventFile(partial);
        new Journal(again).region(0, 1, frame("b")).region(1, 2, frame("c"))
                .pending(JournalLayout.REPLAY, 0, end, frame("b").length + frame("c").length, tail(frame("a"))).write();
        assertEquals(List.of("a", "b", "c"), recoverAndRead(again, 2));
    }

    @Test
    void shouldNeverWriteAJournalIntoAFileThatReplacedItsOwn() throws Exception {
        Path file = eventFile(frame("a"), frame("b"));
        new Journal(file).region(0, 3, frame("lost-with-the-old-file"))
                .pending(JournalLayout.BUFFER, 2, 16 + frame("a").length, frame("b").length, tail(frame("a"))).write();
        Files.delete(file);                                          // the file was deleted (or moved away)
        Path replaced = eventFile(frame("z"));                       // and another took its name
        assertEquals(file, replaced);
        List<String> read;
        String lastError;
        try (EventLog log = EventLog.open(file)) {
            assertEquals(0, log.metrics().recoveredAtOpen());
            lastError = log.metrics().lastError();
        }
        read = read(file);
        assertEquals(List.of("z"), read, "nothing of the old file's journal is written into the new file");
        assertTrue(lastError != null && lastError.contains("not replayed") && lastError.contains(".orphan-"), lastError);
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.filter(p -> p.getFileName().toString().startsWith("events.spool.journal.orphan-")).count());
        }
    }

    @Test
    void shouldReplayAnOrphanIntoTheMovedFileOnceRenamedBesideIt() throws Exception {
        Path file = eventFile(frame("a"));
        new Journal(file).region(0, 1, frame("b")).pending(JournalLayout.DIRECT, 0, 16 + frame("a").length, 1000,
                tail(frame("a"))).write();
        Path moved = Files.move(file, dir.resolve("moved.spool"));
        EventLog.open(file).close();                                 // a new file at the old name: the journal is not its own
        Path orphan;
        try (Stream<Path> s = Files.list(dir)) {
            orphan = s.filter(p -> p.getFileName().toString().startsWith("events.spool.journal.orphan-")).findFirst().orElseThrow();
        }
        Files.move(orphan, JournalLayout.journalOf(moved));         // what OPERATIONS tells the operator to do
        assertTrue(EventLog.recover(moved).contains("1 records"));
        assertEquals(List.of("a", "b"), read(moved));
    }

    @Test
    void shouldNeverTouchALiveWritersJournal() throws Exception {
        Path file = dir.resolve("events.spool");
        try (EventLog log = EventLog.open(file)) {
            log.emit("live");
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> EventLog.recover(file));
            assertTrue(e.getMessage().contains("already open for writing"), e.getMessage());
            assertTrue(Files.isRegularFile(JournalLayout.journalOf(file)), "the live writer's journal is left alone");
            log.emit("still live");
        }
        assertEquals(List.of("live", "still live"), read(file));
    }

    @Test
    void shouldNeverFollowASymlinkAtTheJournalsName() throws Exception {
        Path file = dir.resolve("events.spool");
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Files.createSymbolicLink(JournalLayout.journalOf(file), victim);
        try (EventLog log = EventLog.open(file)) {
            log.emit("x");
            assertTrue(log.metrics().lastError().contains("not created"), log.metrics().lastError());
        }
        assertEquals("keep me", Files.readString(victim));
        assertTrue(Files.isSymbolicLink(JournalLayout.journalOf(file)), "not ours to remove");
    }

    @Test
    void shouldOpenWithoutAJournalWhenItCannotBeCreated() throws Exception {
        Path file = dir.resolve("events.spool");
        Files.createDirectories(JournalLayout.journalOf(file));      // the name is taken: creating it fails
        try (EventLog log = EventLog.open(file)) {
            log.emit("kept in memory, written at close");
            assertTrue(log.metrics().lastError().contains("not created"), log.metrics().lastError());
            assertEquals(0, log.metrics().journalPendingBytes());
        }
        assertEquals(List.of("kept in memory, written at close"), read(file));
        assertTrue(Files.isDirectory(JournalLayout.journalOf(file)), "what was at the name is left alone");
    }

    @Test
    void shouldShowPendingJournalBytesAndRemoveTheJournalAtClose() throws Exception {
        Path file = dir.resolve("events.spool");
        try (EventLog log = EventLog.open(file)) {
            assertTrue(Files.size(JournalLayout.journalOf(file)) >= (long) (SinkSettings.DEFAULT_BUFFERS + 2)
                    * SinkSettings.DEFAULT_BUFFER_BYTES, "regions allocated at open");
            log.emit("x");
            assertTrue(log.metrics().journalPendingBytes() > 0 || log.metrics().eventsWritten() == 1);
            log.flush();
            assertEquals(0, log.metrics().journalPendingBytes());
        }
        assertFalse(Files.exists(JournalLayout.journalOf(file)));
        try (EventLog log = EventLog.open(file, SinkSettings.builder().journal(false).build())) {
            log.emit("y");
            assertFalse(Files.exists(JournalLayout.journalOf(file)), "spool.sink.journal=false writes none");
        }
    }

    // --- helpers: files as a killed writer left them

    private Path eventFile(byte[]... frames) throws IOException {
        Path file = dir.resolve("events.spool");
        byte[] all = RecordDescriptor.fileHeader().array();
        for (byte[] f : frames) {
            all = concat(all, f);
        }
        Files.write(file, all);
        return file;
    }

    private List<String> recoverAndRead(Path file, long frames) throws IOException {
        try (EventLog log = EventLog.open(file)) {
            assertEquals(frames, log.metrics().recoveredAtOpen());
            assertEquals(null, log.metrics().lastError());
        }
        assertFalse(Files.exists(JournalLayout.journalOf(file)));
        return read(file);
    }

    private static List<String> read(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (EventReader r = EventReader.open(file)) {
            r.forEach(rec -> out.add(rec.value().textValue()));
            assertTrue(r.sound(), r.problems().toString());
        }
        return out;
    }

    static byte[] frame(String value) {
        byte[] payload = EventCodec.encode(value);
        ByteBuffer b = ByteBuffer.allocate(RecordDescriptor.HEADER_LENGTH + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        RecordDescriptor.putHeader(b, 0, payload.length, RecordDescriptor.TYPE_EVENT, (byte) 0, 0, 1L, 1L);
        b.put(RecordDescriptor.HEADER_LENGTH, payload);
        b.putInt(RecordDescriptor.CRC_OFFSET, RecordDescriptor.crc(new CRC32C(), b, 0, b, RecordDescriptor.HEADER_LENGTH,
                payload.length));
        return b.array();
    }

    private static byte[] tail(byte[] f) {
        return Arrays.copyOfRange(f, f.length - JournalLayout.TAIL_MAX, f.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** A journal file as the writer lays it out: 4 regions of {@link #REGION} bytes. */
    private static final class Journal {
        final Path file;
        final ByteBuffer b;

        Journal(Path file) throws IOException {
            this.file = file;
            int regions = 4;
            b = ByteBuffer.allocate(JournalLayout.headerBytes(regions) + regions * REGION).order(ByteOrder.LITTLE_ENDIAN);
            b.put(0, JournalLayout.MAGIC);
            b.putInt(JournalLayout.VERSION_OFFSET, JournalLayout.VERSION);
            b.putInt(JournalLayout.REGION_COUNT_OFFSET, regions);
            b.putInt(JournalLayout.REGION_BYTES_OFFSET, REGION);
            Object k = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            byte[] key = (k == null ? "" : k.toString()).getBytes(StandardCharsets.UTF_8);
            b.put(JournalLayout.KEY_OFFSET, key);
            b.putInt(JournalLayout.KEY_LENGTH_OFFSET, key.length);
        }

        Journal region(int i, long use, byte[]... content) {
            b.putLong(JournalLayout.USE_TABLE_OFFSET + 8 * i, use);
            int at = JournalLayout.headerBytes(4) + i * REGION;
            for (byte[] c : content) {
                b.put(at, c);
                at += c.length;
            }
            return this;
        }

        Journal pending(long kind, long seq, long pos, long len, byte[] tail) {
            b.putLong(JournalLayout.PENDING_KIND_OFFSET, kind);
            b.putLong(JournalLayout.PENDING_SEQ_OFFSET, seq);
            b.putLong(JournalLayout.PENDING_POS_OFFSET, pos);
            b.putLong(JournalLayout.PENDING_LEN_OFFSET, len);
            b.put(JournalLayout.TAIL_OFFSET, tail);
            b.putInt(JournalLayout.TAIL_LENGTH_OFFSET, tail.length);
            return this;
        }

        void write() throws IOException {
            Files.write(JournalLayout.journalOf(file), b.array());
        }
    }
}
