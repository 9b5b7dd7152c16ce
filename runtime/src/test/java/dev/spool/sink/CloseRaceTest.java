package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends racing {@code close()} (issue 11, defect 1): an append that returns true must be in the
 * file once {@code close()} returned and the producers ended; one that cannot be written returns
 * false (counted). Before the fix a racing append installed a fresh buffer after the writer had
 * decided to end, was acknowledged and vanished.
 */
class CloseRaceTest {
    private static final int ROUNDS = 300;
    private static final int PRODUCERS = 3;

    @TempDir
    Path dir;

    @Test
    void shouldWriteEveryAcknowledgedAppendThatRacesClose() throws Exception {
        int lostRounds = 0;
        StringBuilder firstLoss = new StringBuilder();
        for (int round = 0; round < ROUNDS; round++) {
            Path file = dir.resolve("r" + round + ".bin");
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            SinkSettings s = SinkSettings.builder().bufferBytes(256).buffers(2).build();
            ByteSink sink = ByteSink.forChannel(ch, 0, "race", s);
            CountDownLatch go = new CountDownLatch(PRODUCERS + 1);
            AtomicBoolean closeReturned = new AtomicBoolean();
            List<Set<Long>> acked = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < PRODUCERS; t++) {
                Set<Long> mine = new HashSet<>();
                acked.add(mine);
                int id = t;
                Thread th = new Thread(() -> {
                    ByteBuffer unit = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
                    go.countDown();
                    awaitQuietly(go);
                    for (int seq = 0; !closeReturned.get() && seq < 1_000_000; seq++) {
                        long key = ((long) id << 32) | seq;
                        unit.clear();
                        unit.putLong(0x5350_4f4f_4c21_2121L).putLong(key).putLong(~key).flip();
                        if (sink.append(unit)) {
                            mine.add(key);
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            go.countDown();
            awaitQuietly(go);
            Thread.onSpinWait();
            sink.close();
            closeReturned.set(true);
            for (Thread th : threads) {
                th.join();
            }
            Set<Long> found = new HashSet<>();
            ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(0, all.limit() % 24, "whole units only");
            while (all.hasRemaining()) {
                assertEquals(0x5350_4f4f_4c21_2121L, all.getLong(), "unit magic");
                long key = all.getLong();
                assertEquals(~key, all.getLong(), "unit intact");
                assertTrue(found.add(key), "unit written twice: " + key);
            }
            int missing = 0;
            for (Set<Long> mine : acked) {
                for (long k : mine) {
                    if (!found.contains(k)) {
                        missing++;
                    }
                }
            }
            if (missing > 0) {
                if (lostRounds == 0) {
                    firstLoss.append("round ").append(round).append(": ").append(missing).append(" acknowledged appends missing");
                }
                lostRounds++;
            }
        }
        assertEquals(0, lostRounds, lostRounds + " of " + ROUNDS + " rounds lost acknowledged appends; first: " + firstLoss);
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
