package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.internal.handoff.TaskState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shared writer pool: sinks keep their order, never run on two threads at once, a blocked sink
 * never stops the others, the threads stay bounded, a lost wake-up is repaired, idle sinks cost no
 * turns. Every wait is a condition awaited with a generous bound (the machine may be loaded).
 */
class SinkWriterPoolTest {
    private static final SinkSettings SMALL = SinkSettings.builder().bufferBytes(SinkSettings.MIN_BUFFER_BYTES)
            .buffers(SinkSettings.MIN_BUFFERS).waitMillis(60_000).build();
    private static final long BOUND_MILLIS = 60_000;
    private final List<ByteSink> sinks = new ArrayList<>();
    private final List<SinkWriterPool> pools = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void end() {
        release.countDown();
        for (ByteSink s : sinks) {
            s.close();
        }
        for (SinkWriterPool p : pools) {
            p.shutdown();
        }
    }

    private SinkWriterPool pool(int threads) {
        SinkWriterPool p = new SinkWriterPool("test-sink-writer", threads);
        pools.add(p);
        return p;
    }

    private ByteSink sink(OutputStream out, String name, SinkWriterPool pool) {
        ByteSink s = ByteSink.forStream(out, name, SMALL, pool);
        sinks.add(s);
        return s;
    }

    @Test
    void shouldKeepWritingTheOtherSinksWhileMoreSinksThanThreadsAreBlockedInAWrite() throws Exception {
        SinkWriterPool pool = pool(2);
        AtomicInteger entered = new AtomicInteger();
        List<ByteSink> blocked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {           // more blocked sinks than threads: only spares can serve the rest
            blocked.add(sink(new BlockingStream(entered, release), "blocked-" + i, pool));
        }
        for (ByteSink b : blocked) {
            b.append(line("stuck"));
            b.requestFlush();
        }
        await(() -> entered.get() == 3, "every blocked sink's write has begun");
        List<ByteArrayOutputStream> outs = new ArrayList<>();
        List<ByteSink> free = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            outs.add(out);
            free.add(sink(out, "free-" + i, pool));
        }
        for (int n = 0; n < 200; n++) {
            for (ByteSink f : free) {
                assertTrue(f.append(line("line " + n)));
            }
        }
        for (ByteSink f : free) {
            assertTrue(f.flush(BOUND_MILLIS), "a free sink flushes while three are blocked: " + f.metrics());
        }
        for (ByteArrayOutputStream out : outs) {
            assertEquals(expected(200), out.toString(StandardCharsets.US_ASCII));
        }
        assertTrue(pool.threadsAlive() <= 2 + 1 + 3, "threads: the pool, its timer, a spare per blocked sink: "
                + pool.threadsAlive());
        release.countDown();
        for (ByteSink b : blocked) {
            assertTrue(b.flush(BOUND_MILLIS));
        }
        await(() -> pool.threadsAlive() == 2 + 1, "the spares end once nothing is blocked (alive: " + pool.threadsAlive() + ")");
    }

    @Test
    void shouldEndASpareThatWasRefusedRetirementOnceTheBlockageEndsWithNoProducerWakingIt() throws Exception {
        SinkWriterPool pool = pool(1);
        AtomicInteger entered = new AtomicInteger();
        ByteSink stuck = sink(new BlockingStream(entered, release), "stuck", pool);
        stuck.append(line("stuck"));
        stuck.requestFlush();
        await(() -> entered.get() == 1, "the pool's only thread is blocked in a write");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteSink free = sink(out, "free", pool);
        assertTrue(free.append(line("line 0")));
        assertTrue(free.flush(BOUND_MILLIS), "a spare serves the free sink: " + free.metrics());
        // the spare is now idle while the pool's thread is still blocked: it may not retire yet
        await(() -> pool.threadsAlive() == 1 + 1 + 1, "the pool's thread, its timer and one spare");
        release.countDown();  // the blockage ends; no producer calls any sink from here on
        await(() -> pool.threadsAlive() == 1 + 1, "the spare ends without a wake-up (alive: " + pool.threadsAlive() + ")");
        assertEquals(expected(1), out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldKeepEachSinksOrderAndRunItOnOneThreadAtATime() throws Exception {
        SinkWriterPool pool = pool(3);
        int sinkCount = 10;
        int lines = 2_000;
        List<OrderedStream> outs = new ArrayList<>();
        List<ByteSink> all = new ArrayList<>();
        for (int i = 0; i < sinkCount; i++) {
            OrderedStream out = new OrderedStream();
            outs.add(out);
            all.add(sink(out, "ordered-" + i, pool));
        }
        List<Thread> producers = new ArrayList<>();
        for (int i = 0; i < sinkCount; i++) {
            ByteSink s = all.get(i);
            Thread t = new Thread(() -> {
                for (int n = 0; n < lines; n++) {
                    s.append(line("line " + n));
                    if (n % 97 == 0) {
                        s.requestFlush();
                    }
                }
            });
            producers.add(t);
            t.start();
        }
        for (Thread t : producers) {
            t.join();
        }
        for (int i = 0; i < sinkCount; i++) {
            assertTrue(all.get(i).flush(BOUND_MILLIS));
            assertEquals(expected(lines), outs.get(i).toString(StandardCharsets.US_ASCII), "sink " + i + " in order");
            assertEquals(1, outs.get(i).maxInside.get(), "sink " + i + " was written by one thread at a time");
            assertEquals(lines, all.get(i).metrics().eventsWritten(), "EventsWritten counts the units");
        }
        assertTrue(pool.threadsAlive() <= 3 + 1, "nothing blocked: the pool and its timer only (" + pool.threadsAlive() + ")");
    }

    @Test
    void shouldRunASinkAgainWhoseProducerDiedBetweenSchedulingAndQueueingIt() throws Exception {
        SinkWriterPool pool = pool(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteSink sink = sink(out, "lost", pool);
        SinkWriterPool.Member m = sink.writerMember();
        await(() -> m.state.get() == TaskState.IDLE, "the sink is idle after its first turn");
        // a producer that sets the sink scheduled and dies before offering it to the ready queue:
        assertTrue(m.state.schedule());                 // ... and never offered it to the ready queue
        assertTrue(sink.append(line("after the death")));
        assertTrue(sink.flush(BOUND_MILLIS), "the timer queues a sink scheduled for two ticks without a turn");
        assertEquals("after the death\n", out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldGiveIdleSinksNoTurnsAndEndTheTimersWorkWhenNoSinkIsLeft() throws Exception {
        SinkWriterPool pool = pool(2);
        List<ByteSink> idle = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ByteSink s = sink(new ByteArrayOutputStream(), "idle-" + i, pool);
            assertTrue(s.append(line("one")));
            assertTrue(s.flush(BOUND_MILLIS));
            idle.add(s);
        }
        await(() -> idle.stream().allMatch(s -> s.writerMember().state.get() == TaskState.IDLE),
                "every sink idle after its flush");
        int turns = 0;
        for (ByteSink s : idle) {
            turns += s.writerMember().state.turns();
        }
        long ticks = pool.ticks;
        await(() -> pool.ticks >= ticks + 5, "five ticks pass");
        int after = 0;
        for (ByteSink s : idle) {
            after += s.writerMember().state.turns();
        }
        assertEquals(turns, after, "an idle sink (nothing buffered, nothing queued) takes no turn at a tick");
        for (ByteSink s : idle) {
            s.close();
        }
        await(() -> pool.members() == 0, "closed sinks leave the pool");
        long parkedAt = pool.ticks;
        await(() -> pool.timerParked(), "the timer parks for good with no sink left");
        assertTrue(pool.ticks <= parkedAt + 1, "no ticks without sinks");
    }

    private static ByteBuffer line(String text) {
        return ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    private static String expected(int lines) {
        StringBuilder b = new StringBuilder();
        for (int n = 0; n < lines; n++) {
            b.append("line ").append(n).append('\n');
        }
        return b.toString();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMillis(BOUND_MILLIS).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not met in " + BOUND_MILLIS + " ms: " + what);
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** A stream whose writes block until released: a stalled disk, a host holding the stream's lock. */
    private static final class BlockingStream extends OutputStream {
        private final AtomicInteger entered;
        private final CountDownLatch release;

        BlockingStream(AtomicInteger entered, CountDownLatch release) {
            this.entered = entered;
            this.release = release;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            entered.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
        }
    }

    /** Collects bytes and the most threads seen inside one write at once. */
    private static final class OrderedStream extends ByteArrayOutputStream {
        private final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger maxInside = new AtomicInteger();

        @Override
        public void write(byte[] b, int off, int len) {
            int n = inside.incrementAndGet();
            maxInside.accumulateAndGet(n, Math::max);
            Thread.yield();                     // widen the window a second runner would need
            synchronized (this) {
                super.write(b, off, len);
            }
            inside.decrementAndGet();
        }
    }
}
