package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spool.buffer.create=flush} (issue 16, write-once): a new file is buffered and created by
 * the flush with the same atomic, never-replacing create as at the call; someone else's file made at
 * the name before or while the flush creates it is kept, and the buffered content goes beside it.
 */
class CreateAtFlushTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).createAtFlush(true).build());

    @AfterEach
    void close() throws FlushException {
        buffer.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static List<Path> conflicts(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().contains(AtomicFiles.CONFLICT_MARK)).toList();
        }
    }

    /**
     * Runs {@code body} on this thread under the buffer's flush lock (from a flush listener), so the
     * flusher cannot create anything meanwhile: what a new file looks like before its flush.
     */
    private void beforeAnyFlush(IoBody body) throws Exception {
        Thread me = Thread.currentThread();
        AtomicReference<Exception> failed = new AtomicReference<>();
        boolean[] ran = new boolean[1];
        BufferListener inside = new BufferListener() {
            @Override
            public void flushCompleted(int files, long millis) {
                if (Thread.currentThread() != me || ran[0]) return;
                ran[0] = true;
                try {
                    body.run();
                } catch (Exception | AssertionError e) {
                    failed.set(e instanceof Exception ex ? ex : new IllegalStateException(e));
                }
            }
        };
        buffer.addListener(inside);
        try {
            buffer.flush();
        } finally {
            buffer.removeListener(inside);
        }
        assertTrue(ran[0]);
        if (failed.get() != null) throw failed.get();
    }

    interface IoBody {
        void run() throws Exception;
    }

    @Test
    void shouldBufferANewFileServeItAndCreateItAtTheFlushWithThePlainMode() throws Exception {
        Path folder = dir.toRealPath();
        Path file = folder.resolve("result.json");
        beforeAnyFlush(() -> {
            assertTrue(buffer.putSnapshot(file, b("{\"v\":1}")));
            assertFalse(Files.exists(file), "created by the flush, not at the call");
            assertEquals("{\"v\":1}", new String(buffer.readBuffered(file), UTF_8), "served before the flush");
        });
        buffer.flush();
        assertEquals("{\"v\":1}", Files.readString(file));
        Path plain = Files.write(folder.resolve("plain.json"), b("{}"));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file), "the umask's mode, as plain's create");
        assertEquals(List.of(), conflicts(folder));
        assertTrue(buffer.putSnapshot(file, b("{\"v\":2}")), "a rewrite of the created file is buffered as any");
        buffer.flush();
        assertEquals("{\"v\":2}", Files.readString(file));
    }

    /**
     * No timed flush here (interval 0): the flusher creates new files as they come, on its own, and
     * only them (a rewrite buffered meanwhile keeps coalescing until a flush).
     */
    @Test
    void shouldHaveTheFlusherCreateNewFilesSoonWithoutWritingBufferedRewrites() throws Exception {
        Path folder = dir.toRealPath();
        Path a = folder.resolve("a.json");
        assertTrue(buffer.putSnapshot(a, b("{\"a\":1}")));
        Await.until("a created by the flusher", Duration.ofSeconds(30), () -> Files.exists(a));
        assertEquals("{\"a\":1}", Files.readString(a));
        assertTrue(buffer.putSnapshot(a, b("{\"a\":2}")), "a rewrite: buffered");
        Path b = folder.resolve("b.json");
        assertTrue(buffer.putSnapshot(b, b("{\"b\":1}")));
        Await.until("b created by the flusher", Duration.ofSeconds(30), () -> Files.exists(b));
        assertEquals("{\"a\":1}", Files.readString(a), "creating b wrote no rewrite");
        assertEquals("{\"a\":2}", new String(buffer.readBuffered(a), UTF_8));
        buffer.flush();
        assertEquals("{\"a\":2}", Files.readString(a));
    }

    @Test
    void shouldKeepAFileSomeoneElseMadeBeforeTheFlushAndPutTheBufferedContentBeside() throws Exception {
        Path folder = dir.toRealPath();
        Path file = folder.resolve("taken.json");
        beforeAnyFlush(() -> {
            assertTrue(buffer.putSnapshot(file, b("{\"ours\":true}")));
            Files.writeString(file, "{\"theirs\":true}");
        });
        buffer.flush(); // the flusher's create or this flush meets their file
        assertEquals("{\"theirs\":true}", Files.readString(file), "never replaced");
        List<Path> conflicts = conflicts(folder);
        assertEquals(1, conflicts.size());
        assertEquals("{\"ours\":true}", Files.readString(conflicts.get(0)));
        assertNull(buffer.readBuffered(file), "after the conflict the disk is all there is");
    }

    @Test
    void shouldRefuseANewFileWhoseFolderIsMissingSoTheCallersOwnWriteMeetsTheError() throws Exception {
        Path file = dir.toRealPath().resolve("missing").resolve("doc.json");
        assertFalse(buffer.putSnapshot(file, b("{}")), "refused at the call: the host's own write throws, as plain");
        assertEquals(0, buffer.metrics().entries(), "nothing held, nothing to fail at the flush");
        buffer.flush();
        assertFalse(Files.exists(file.getParent()));
    }

    @Test
    void shouldCreateANewFileAtOnceOnceTheBufferIsClosed() throws IOException {
        Path file = dir.toRealPath().resolve("late.json");
        buffer.close();
        assertTrue(buffer.putSnapshot(file, b("{}")));
        assertEquals("{}", Files.readString(file), "after close a new file is written through");
    }

    /**
     * A racer creates every name ({@code O_CREAT|O_EXCL}) while flushes create the same names:
     * whoever made a name first keeps it; a racer that made one never sees its file replaced (a check
     * before a rename would replace it when the racer comes between), and the buffered content of
     * every file the racer won is in a conflict file.
     */
    @Test
    void shouldNeverReplaceANameSomeoneCreatesWhileTheFlushCreatesIt() throws Exception {
        Path folder = dir.toRealPath();
        int files = 400;
        int won = 0;
        for (int round = 0; round < 5; round++) {
            Path sub = Files.createDirectory(folder.resolve("r" + round));
            boolean[] racerMade = new boolean[files];
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread racer = new Thread(() -> {
                try {
                    go.await();
                    for (int i = files - 1; i >= 0; i--) { // from the other end: the two meet in the middle
                        try {
                            Files.write(sub.resolve(i + ".json"), b("{\"theirs\":" + i + "}"), StandardOpenOption.CREATE_NEW,
                                    StandardOpenOption.WRITE);
                            racerMade[i] = true;
                        } catch (FileAlreadyExistsException flushedFirst) {
                            // the flush made it first
                        }
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            racer.start();
            beforeAnyFlush(() -> {
                for (int i = 0; i < files; i++) assertTrue(buffer.putSnapshot(sub.resolve(i + ".json"), b("{\"ours\":" + i + "}")));
                go.countDown(); // the flusher's creates start as this returns
            });
            racer.join();
            buffer.flush();
            assertNull(failed.get());
            int theirs = 0;
            for (int i = 0; i < files; i++) {
                String onDisk = Files.readString(sub.resolve(i + ".json"));
                if (racerMade[i]) {
                    theirs++;
                    assertEquals("{\"theirs\":" + i + "}", onDisk, "the racer's file " + i + " was replaced");
                } else {
                    assertEquals("{\"ours\":" + i + "}", onDisk);
                }
            }
            assertEquals(theirs, conflicts(sub).size(), "each name the racer won keeps the buffered content beside it");
            won += theirs;
        }
        assertTrue(won > 0, "the racer won no name at all: the race was not exercised");
    }
}
