package dev.spool.agent.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal put away while idle ({@link MappedLogJournal#seal}, issue 33): sealing succeeds only when
 * every reserved frame is trimmed, atomically with the callers' reservations, and no frame is
 * reserved after it.
 */
class MappedLogJournalSealTest {

    private static final int RING = 4096;
    private static final byte[] PAYLOAD = "a line of forty bytes, journaled as is.\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private MappedLogJournal journal(String name) throws Exception {
        return MappedLogJournal.create(dir.resolve(name), MappedLogJournal.LOGBACK_MAGIC, "%msg%n", StandardCharsets.UTF_8, RING);
    }

    @Test
    void shouldSealOnlyWhenEveryFrameIsTrimmedAndRefuseEveryLaterFrame() throws Exception {
        MappedLogJournal j = journal("one");
        long frame = j.append(PAYLOAD, PAYLOAD.length);
        assertTrue(frame >= 0);
        assertFalse(j.seal(), "a frame not done keeps the journal");
        j.done(frame);
        assertFalse(j.seal(), "done but not trimmed: the drainer has not moved over it");
        j.trim();
        assertTrue(j.seal());
        assertEquals(MappedLogJournal.SEALED, j.append(PAYLOAD, PAYLOAD.length));
        assertEquals(MappedLogJournal.SEALED, j.appendBytes(PAYLOAD, 0, PAYLOAD.length, 0));
        assertEquals(0, j.pendingBytes());
        assertTrue(j.empty());
        assertFalse(j.seal(), "sealed once");
        j.delete();
        assertEquals(MappedLogJournal.SEALED, j.append(PAYLOAD, PAYLOAD.length), "deleted after the seal: still SEALED, not a fault");
    }

    @Test
    void shouldRemoveTheFileOnlyWhenPutAwayIdle() throws Exception {
        MappedLogJournal j = journal("away");
        long frame = j.append(PAYLOAD, PAYLOAD.length);
        assertFalse(j.putAway(), "a frame pending");
        assertTrue(java.nio.file.Files.exists(dir.resolve("away")));
        j.done(frame);
        j.trim();
        assertTrue(j.putAway());
        assertFalse(java.nio.file.Files.exists(dir.resolve("away")));
        assertFalse(MappedLogJournal.live(dir.resolve("away")));
        assertEquals(MappedLogJournal.SEALED, j.append(PAYLOAD, PAYLOAD.length));
    }

    @Test
    void shouldGoOnAfterAnUnsealWhoseFileCouldNotBeRemoved() throws Exception {
        MappedLogJournal j = journal("unseal");
        j.done(j.append(PAYLOAD, PAYLOAD.length));
        j.trim();
        long trimmed = j.trimmed();
        assertTrue(j.seal());
        j.unseal();
        long frame = j.append(PAYLOAD, PAYLOAD.length);
        assertEquals(trimmed, frame, "the next frame right after the trimmed ones");
        assertFalse(j.seal(), "a frame pending again");
    }

    /**
     * A caller appending (and its lines reaching the file at once) races a drainer that trims and seals:
     * every frame a caller got lies below the trimmed offset at the seal, and the caller's next append is refused.
     */
    @Test
    void shouldNeverReserveAFrameAfterTheSealWhileCallersRaceIt() throws Exception {
        for (int round = 0; round < 300; round++) {
            MappedLogJournal j = journal("race-" + round);
            AtomicLong lastFrame = new AtomicLong(-1);
            AtomicLong afterSeal = new AtomicLong();
            CountDownLatch go = new CountDownLatch(1);
            Thread caller = new Thread(() -> {
                await(go);
                while (true) {
                    long at = j.append(PAYLOAD, PAYLOAD.length);
                    if (at == MappedLogJournal.SEALED) {
                        return;
                    }
                    if (at >= 0) {
                        lastFrame.set(at);
                        j.done(at);
                    } else {
                        Thread.onSpinWait(); // FULL: the drainer trims
                    }
                }
            });
            caller.start();
            go.countDown();
            int spins = round % 7 * 50;
            long trimmedAtSeal;
            while (true) {
                j.trim();
                if (spins-- <= 0 && j.seal()) {
                    trimmedAtSeal = j.trimmed();
                    break;
                }
            }
            caller.join();
            afterSeal.set(j.append(PAYLOAD, PAYLOAD.length));
            assertTrue(lastFrame.get() < trimmedAtSeal, "round " + round + ": frame " + lastFrame.get()
                    + " reserved, not below the trimmed offset " + trimmedAtSeal + " at the seal");
            assertEquals(MappedLogJournal.SEALED, afterSeal.get());
            j.delete();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
