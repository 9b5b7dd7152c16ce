package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HostFileOps} without the agent (the agent's woven JDK operations call these methods first,
 * then run the host's operation; here the test runs it): what each leaves on disk and in the buffer,
 * the folder index, a path through a symlink, and Spool's own I/O (under the entry's monitor) left alone.
 */
class HostFileOpsTest {

    @TempDir
    Path dir;

    private final SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
    private final HostFileOps ops = buffer.hostFiles();
    /** spool.buffer.create=flush: new files are created by the flusher (held back in these tests). */
    private final SharedBuffer createAtFlush = SharedBuffer.create(
            BufferSettings.builder().flushIntervalMillis(0).createAtFlush(true).build());

    @AfterEach
    void close() throws Exception {
        buffer.close();
        createAtFlush.close();
    }

    @Test
    void shouldCreateANewFileNotCreatedYetBeforeAnExistenceCheck() throws Exception {
        Path f = dir.resolve("new.json");
        ReentrantLock flusher = flushLock(createAtFlush);
        flusher.lock(); // the flusher's create pass waits: the file stays not created until the check
        try {
            assertTrue(createAtFlush.putSnapshot(f, b("{\"v\":1}")));
            assertFalse(Files.exists(f), "not created yet");
            createAtFlush.hostFiles().beforeStat(f);
            assertEquals("{\"v\":1}", Files.readString(f), "created for the check, whole");
        } finally {
            flusher.unlock();
        }
        assertEquals(0, createAtFlush.metrics().conflicts(), "the flusher's later pass finds it clean");
    }

    @Test
    void shouldCreateTheNewFilesOfAListedFolderAndOnlyThose() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a/sub"));
        Files.createDirectories(dir.resolve("b"));
        ReentrantLock flusher = flushLock(createAtFlush);
        flusher.lock();
        try {
            for (String name : new String[] {"a/x.json", "a/y.json", "a/sub/z.json", "b/w.json"}) {
                assertTrue(createAtFlush.putSnapshot(dir.resolve(name), b("{}")));
            }
            createAtFlush.hostFiles().beforeList(dir.resolve("a"));
            assertTrue(Files.exists(dir.resolve("a/x.json")));
            assertTrue(Files.exists(dir.resolve("a/y.json")));
            assertFalse(Files.exists(a.resolve("z.json")), "a subfolder's file is not in the listing");
            assertFalse(Files.exists(dir.resolve("b/w.json")));
        } finally {
            flusher.unlock();
        }
    }

    @Test
    void shouldLeaveAFolderHoldingANewFileNotEmptyForItsDeletion() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("job"));
        ReentrantLock flusher = flushLock(createAtFlush);
        flusher.lock();
        try {
            assertTrue(createAtFlush.putSnapshot(folder.resolve("doc.json"), b("{}")));
            createAtFlush.hostFiles().beforeDelete(folder);
            assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(folder), "as without Spool");
        } finally {
            flusher.unlock();
        }
    }

    @Test
    void shouldWriteEveryBufferedFileBeforeAChildProcessStarts() throws IOException {
        Path a = buffered(dir.resolve("a.json"));
        Path b = buffered(dir.resolve("job/b.json"));
        ops.beforeChildProcess();
        assertEquals("{\"v\":2}", Files.readString(a));
        assertEquals("{\"v\":2}", Files.readString(b));
        assertEquals(0, buffer.metrics().dirtyEntries());
        assertEquals(0, ops.failures());
    }

    @Test
    void shouldLeaveABufferedRewriteForTheFlushOnAnExistenceCheckOrListing() throws IOException {
        Path f = buffered(dir.resolve("a.json"));
        ops.beforeStat(f);
        ops.beforeList(dir);
        assertEquals("{\"v\":1}", Files.readString(f), "the file exists: nothing to write for the check");
        assertEquals(1, buffer.metrics().dirtyEntries());
    }

    @Test
    void shouldWatchOnlyWhileSomethingIsBuffered() throws IOException {
        assertFalse(ops.watching(), "an empty buffer: the hooks return at once");
        buffered(dir.resolve("a.json"));
        assertTrue(ops.watching());
    }

    @Test
    void shouldWriteBeforeAReadAndKeepTheEntry() throws IOException {
        Path f = buffered(dir.resolve("a.json"));
        ops.beforeRead(f);
        assertEquals("{\"v\":2}", Files.readString(f));
        assertEquals(1, buffer.metrics().entries(), "still held (its stamp is the file just written)");
        assertEquals(0, buffer.metrics().dirtyEntries());
    }

    @Test
    void shouldWriteAndForgetBeforeADirectWriteSoTheNextPutWins() throws IOException {
        Path f = buffered(dir.resolve("a.json"));
        ops.beforeWrite(f);
        Files.writeString(f, "{\"direct\":1}");
        assertNull(buffer.readBuffered(f), "forgotten: a read goes to the disk");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":3}")));
        buffer.flush();
        assertEquals("{\"v\":3}", Files.readString(f), "the last write wins, no conflict");
        assertEquals(0, buffer.metrics().conflicts());
    }

    @Test
    void shouldDropBeforeADeleteSoNothingIsResurrected() throws IOException {
        Path f = buffered(dir.resolve("a.json"));
        ops.beforeDelete(f);
        Files.delete(f);
        buffer.flush();
        assertFalse(Files.exists(f));
        assertEquals(0, buffer.metrics().conflicts());
    }

    @Test
    void shouldWriteTheFilesOfAMovedFolderAndOnlyThose() throws IOException {
        Path a = buffered(dir.resolve("ws/job-1/doc.json"));
        Path nested = buffered(dir.resolve("ws/job-1/sub/state.json"));
        Path lookalike = buffered(dir.resolve("ws/job-10/doc.json"));
        assertEquals(2, ops.under(dir.resolve("ws/job-1")).size());
        assertEquals(3, ops.under(dir.resolve("ws")).size(), "an ancestor of the folders holding entries");
        assertEquals(0, ops.under(dir.resolve("ws/job-2")).size());
        ops.beforeMove(dir.resolve("ws/job-1"), dir.resolve("ws/job-1-moved"));
        assertEquals("{\"v\":2}", Files.readString(a));
        assertEquals("{\"v\":2}", Files.readString(nested));
        assertEquals("{\"v\":1}", Files.readString(lookalike), "job-10 is not under job-1");
        assertEquals(1, buffer.metrics().entries(), "the moved folder's entries are forgotten");
        assertEquals(0, ops.under(dir.resolve("ws/job-1")).size());
    }

    @Test
    void shouldFindAFileTheHostWritesThroughASymlinkedFolder() throws IOException {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        buffered(link.resolve("a.json"));
        ops.beforeRead(link.resolve("a.json"));
        assertEquals("{\"v\":2}", Files.readString(real.resolve("a.json")));
    }

    @Test
    void shouldLeaveSpoolsOwnIoOnTheEntryAlone() throws IOException {
        Path f = buffered(dir.resolve("a.json"));
        Entry e = entry(f);
        synchronized (e) { // what the flush holds while it renames onto the entry and stamps it
            ops.beforeMove(dir.resolve(".a.json.spool-tmp-0"), f);
            ops.beforeRead(f);
            ops.beforeDelete(f);
        }
        assertEquals("{\"v\":1}", Files.readString(f), "nothing written by the hooks");
        assertEquals(1, buffer.metrics().dirtyEntries(), "nothing forgotten");
    }

    /** The lock a flush pass (the flusher's create pass too) holds while it writes. */
    private static ReentrantLock flushLock(SharedBuffer b) {
        try {
            java.lang.reflect.Field passes = SharedBuffer.class.getDeclaredField("passes");
            passes.setAccessible(true);
            java.lang.reflect.Field lock = FlushPasses.class.getDeclaredField("flushLock");
            lock.setAccessible(true);
            return (ReentrantLock) lock.get(passes.get(b));
        } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
        }
    }

    private Entry entry(Path f) throws IOException {
        try {
            java.lang.reflect.Field table = SharedBuffer.class.getDeclaredField("table");
            table.setAccessible(true);
            return ((EntryTable) table.get(buffer)).get(f.toRealPath());
        } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
        }
    }

    /** Created at the first put, buffered at the second: the disk holds {"v":1}, the buffer {"v":2}. */
    private Path buffered(Path f) throws IOException {
        Files.createDirectories(f.getParent());
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")));
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")));
        return f;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
