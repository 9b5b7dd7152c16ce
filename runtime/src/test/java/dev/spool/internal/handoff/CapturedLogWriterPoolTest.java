package dev.spool.internal.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.SinkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CapturedLogWriterPoolTest {

    private static final long GENEROUS_MILLIS = 60_000;

    private final List<CapturedLogWriterPool> pools = new ArrayList<>();

    @AfterEach
    void shutdown() throws InterruptedException {
        for (CapturedLogWriterPool p : pools) {
            p.shutdown();
            assertTrue(p.awaitShutdown(GENEROUS_MILLIS));
        }
    }

    private CapturedLogWriterPool pool(String name, int threads) {
        CapturedLogWriterPool p = new CapturedLogWriterPool(name, threads);
        pools.add(p);
        return p;
    }

    /** One log: the records its encoder saw, the threads that encoded them, and how many drains overlapped. */
    private static final class Log implements CapturedRecordEncoder<long[]> {
        final MpscCapturedRecordQueue<long[]> queue;
        final List<long[]> records = new ArrayList<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger maxInside = new AtomicInteger();
        volatile int count;

        Log(String name) {
            queue = new MpscCapturedRecordQueue<>(name, 512, SinkPolicy.BLOCK, GENEROUS_MILLIS);
        }

        /** The task the pool runs: counts overlapping runs before the queue's own lock could serialise them. */
        int drain() {
            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                Thread.onSpinWait();
                return queue.drainTo(this, 32);
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public void encode(long[] r) {
            records.add(r);
            threads.add(Thread.currentThread().getName());
            count++;
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out awaiting " + what);
            Thread.yield();
        }
    }

    private static long poolThreadsAlive(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix + "-") && t.isAlive()).count();
    }

    @Test
    void shouldDrainTenLogsWithThePoolsTwoThreadsOnlyOneThreadPerLogAtATimeInEachProducersOrder() throws Exception {
        CapturedLogWriterPool pool = pool("pool-ten", 2);
        int logs = 10;
        int producersPerLog = 2;
        int perProducer = 5_000;
        List<Log> all = new ArrayList<>();
        for (int i = 0; i < logs; i++) {
            Log log = new Log("log" + i);
            all.add(log);
            pool.register("log" + i, log::drain, log.queue);
        }
        assertEquals(2, poolThreadsAlive("pool-ten"), "ten logs, the pool's two threads");
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (Log log : all) {
            for (int p = 0; p < producersPerLog; p++) {
                long id = p;
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perProducer; i++) {
                        assertTrue(log.queue.offer(new long[] {id, i}));
                    }
                });
                t.start();
                producers.add(t);
            }
        }
        go.countDown();
        for (Thread t : producers) {
            t.join();
        }
        for (Log log : all) {
            await(() -> log.count == producersPerLog * perProducer, "every record of " + log.queue.name());
        }
        Set<String> encodingThreads = ConcurrentHashMap.newKeySet();
        for (Log log : all) {
            encodingThreads.addAll(log.threads);
            assertEquals(1, log.maxInside.get(), "two pool threads ran " + log.queue.name() + "'s task at once");
            long[] next = new long[producersPerLog];
            for (long[] r : log.records) {
                assertEquals(next[(int) r[0]]++, r[1], "producer " + r[0] + " of " + log.queue.name() + " out of order");
            }
        }
        assertTrue(encodingThreads.stream().allMatch(n -> n.startsWith("pool-ten-")), "encoded on " + encodingThreads);
        assertTrue(encodingThreads.size() <= 2, "encoded on " + encodingThreads);
        assertEquals(2, poolThreadsAlive("pool-ten"));
    }

    @Test
    void shouldGoOnWithOtherLogsWhileOneLogsTaskBlocksOnItsOwnLock() throws Exception {
        CapturedLogWriterPool pool = pool("pool-blocked", 2);
        CountDownLatch release = new CountDownLatch(1);
        Log stuck = new Log("stuck");
        pool.register("stuck", () -> {
            try {
                release.await(); // a host holding the log's monitor
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return stuck.drain();
        }, stuck.queue);
        Log free = new Log("free");
        pool.register("free", free::drain, free.queue);
        assertTrue(stuck.queue.offer(new long[] {0, 0}));
        for (int i = 0; i < 1_000; i++) {
            assertTrue(free.queue.offer(new long[] {0, i}));
        }
        await(() -> free.count == 1_000, "the free log's records while the other log's task is blocked");
        assertEquals(0, stuck.count);
        release.countDown();
        await(() -> stuck.count == 1, "the blocked log's record once its lock is free");
    }

    @Test
    void shouldRetryABusyLogWithoutANewOfferUntilItsLockIsFree() {
        CapturedLogWriterPool pool = pool("pool-busy", 1);
        AtomicBoolean held = new AtomicBoolean(true);
        AtomicInteger busyAnswers = new AtomicInteger();
        Log log = new Log("busy");
        pool.register("busy", () -> {
            if (held.get()) {
                busyAnswers.incrementAndGet();
                return CapturedLogWriterPool.BUSY;
            }
            return log.drain();
        }, log.queue);
        for (int i = 0; i < 10; i++) {
            assertTrue(log.queue.offer(new long[] {0, i}));
        }
        await(() -> busyAnswers.get() >= 3, "the pool retrying the busy log");
        held.set(false); // no further offer: only the pool's retry can drain now
        await(() -> log.count == 10, "the busy log's records after its lock was let go");
    }

    @Test
    void shouldDrainALogWhoseProducerDiedBetweenSchedulingAndQueueingIt() {
        CapturedLogWriterPool pool = pool("pool-lost", 1);
        Log log = new Log("lost");
        CapturedLogWriterPool.Registration r = pool.register("lost", log::drain, log.queue);
        await(() -> r.state.get() == TaskState.IDLE, "the log idle after its first drain");
        // a producer that set the log scheduled and died (a StackOverflowError) before queueing it:
        assertTrue(r.state.schedule()); // ... and never offered it to the ready queue
        for (int i = 0; i < 10; i++) {
            assertTrue(log.queue.offer(new long[] {0, i})); // each signal sees SCHEDULED: no wake-up
        }
        await(() -> log.count == 10, "the pool's sweep queueing a log scheduled but never queued");
    }

    @Test
    void shouldDrainOnceMoreOnStopAndForgetTheLog() throws Exception {
        CapturedLogWriterPool pool = pool("pool-stop", 2);
        Log log = new Log("stopping");
        CapturedLogWriterPool.Registration r = pool.register("stopping", log::drain, log.queue);
        for (int i = 0; i < 20; i++) {
            assertTrue(log.queue.offer(new long[] {0, i}));
        }
        r.stop();
        assertTrue(r.awaitStopped(GENEROUS_MILLIS));
        assertEquals(20, log.count);
        assertEquals(0, pool.logs());
    }

    @Test
    void shouldRejectASizeOutsideOneToSixtyFour() {
        for (int bad : new int[] {0, -1, 65}) {
            try {
                new CapturedLogWriterPool("bad", bad);
                throw new AssertionError("accepted " + bad);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("1..64"));
            }
        }
    }
}
