package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    @Test
    void shouldBufferANewFileServeItAndCreateItAtTheFlushWithThePlainMode() throws IOException {
        Path folder = dir.toRealPath();
        Path file = folder.resolve("result.json");
        assertTrue(buffer.putSnapshot(file, b("{\"v\":1}")));
        assertFalse(Files.exists(file), "created by the flush, not at the call");
        assertEquals("{\"v\":1}", new String(buffer.readBuffered(file), UTF_8), "served before the flush");
        assertEquals(1, buffer.flushWithReport().filesWritten());
        assertEquals("{\"v\":1}", Files.readString(file));
        Path plain = Files.write(folder.resolve("plain.json"), b("{}"));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(file), "the umask's mode, as plain's create");
        assertEquals(List.of(), conflicts(folder));
        assertTrue(buffer.putSnapshot(file, b("{\"v\":2}")), "a rewrite of the created file is buffered as any");
        buffer.flush();
        assertEquals("{\"v\":2}", Files.readString(file));
    }

    @Test
    void shouldKeepAFileSomeoneElseMadeBeforeTheFlushAndPutTheBufferedContentBeside() throws IOException {
        Path folder = dir.toRealPath();
        Path file = folder.resolve("taken.json");
        assertTrue(buffer.putSnapshot(file, b("{\"ours\":true}")));
        Files.writeString(file, "{\"theirs\":true}");
        FlushReport report = buffer.flushWithReport();
        assertEquals("{\"theirs\":true}", Files.readString(file), "never replaced");
        assertEquals(1, report.conflicts().size());
        assertEquals("{\"ours\":true}", Files.readString(report.conflicts().get(0).conflictFile()));
        assertNull(buffer.readBuffered(file), "after the conflict the disk is all there is");
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
            for (int i = 0; i < files; i++) assertTrue(buffer.putSnapshot(sub.resolve(i + ".json"), b("{\"ours\":" + i + "}")));
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
            go.countDown();
            FlushReport report = buffer.flushWithReport();
            racer.join();
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
            assertEquals(theirs, report.conflicts().size(), "each name the racer won keeps the buffered content beside it");
            assertEquals(theirs, conflicts(sub).size());
            won += theirs;
        }
        assertTrue(won > 0, "the racer won no name at all: the race was not exercised");
    }
}
