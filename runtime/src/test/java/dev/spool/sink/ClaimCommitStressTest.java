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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stress of the claim/commit protocol of {@link SinkBuffer} and {@link ByteSink}: many threads
 * append self-describing units of varying size into tiny buffers (a rotation every few units)
 * while the writer also seals buffers on its own (linger, flush requests) and some units take the
 * direct path. Invariants checked on the bytes written:
 * <ol>
 *   <li>No lost or duplicated unit: each (thread, seq) appears exactly once.</li>
 *   <li>No torn or interleaved unit: every unit's bytes are exactly what its producer wrote
 *       (length prefix, identity and a per-unit fill byte all agree), so a reservation is never
 *       shared and the writer never writes a range before it is committed.</li>
 *   <li>Per-thread order: a thread's units appear in its append order, across buffer rotations
 *       and direct writes (a direct write never overtakes an earlier staged unit).</li>
 *   <li>Nothing written after the last unit: the output is exactly the sum of the units.</li>
 * </ol>
 * This is a JUnit stress test, not JCStress: it finds ordering bugs that show up on this machine's
 * hardware and scheduler; the memory-model proof of the same invariants under JCStress is not done.
 */
class ClaimCommitStressTest {
    private static final int THREADS = 6;
    private static final int UNITS = 6_000;
    private static final int UNIT_HEADER = 12; // length, thread, seq

    @TempDir
    Path dir;

    @RepeatedTest(3)
    void shouldWriteEveryUnitOnceIntactAndInThreadOrder() throws Exception {
        Path file = dir.resolve("stress.bin");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        SinkSettings s = SinkSettings.builder().bufferBytes(512).buffers(2).directThreshold(400).build();
        long expectedBytes = 0;
        try (ByteSink sink = ByteSink.forChannel(ch, 0, "stress", s)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            long[] bytes = new long[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    ByteBuffer unit = ByteBuffer.allocate(600).order(ByteOrder.LITTLE_ENDIAN);
                    awaitQuietly(go);
                    for (int seq = 0; seq < UNITS; seq++) {
                        int len = UNIT_HEADER + ((seq * 31 + id * 17) % 97) + (seq % 101 == 0 ? 450 : 0);
                        unit.clear();
                        unit.putInt(len).putInt(id).putInt(seq);
                        byte fill = (byte) (id * 31 + seq);
                        while (unit.position() < len) {
                            unit.put(fill);
                        }
                        unit.flip();
                        boolean ok = len >= 400 ? sink.appendDirect(unit) : sink.append(unit);
                        assertTrue(ok);
                        bytes[id] += len;
                        if (seq % 997 == 0) {
                            sink.requestFlush();
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
            for (long b : bytes) {
                expectedBytes += b;
            }
        }
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(expectedBytes, all.limit(), "output is exactly the units");
        int[] next = new int[THREADS];
        while (all.hasRemaining()) {
            int at = all.position();
            int len = all.getInt();
            int id = all.getInt();
            int seq = all.getInt();
            assertTrue(id >= 0 && id < THREADS, "unit identity at " + at);
            assertEquals(next[id], seq, "thread " + id + " order at " + at);
            byte fill = (byte) (id * 31 + seq);
            for (int i = UNIT_HEADER; i < len; i++) {
                assertEquals(fill, all.get(), "torn unit at " + at);
            }
            next[id]++;
        }
        for (int t = 0; t < THREADS; t++) {
            assertEquals(UNITS, next[t], "units of thread " + t);
        }
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
