package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkStreamsTest {
    @TempDir
    Path dir;

    private static final SinkSettings SMALL = SinkSettings.builder().bufferBytes(1024).buffers(2)
            .directThreshold(2000).build();

    @Test
    void shouldProduceTheSameBytesAsWritingDirectly() throws Exception {
        ByteArrayOutputStream direct = new ByteArrayOutputStream();
        Path file = dir.resolve("out.log");
        try (OutputStream wrapped = SinkStreams.wrap(new FileOutputStream(file.toFile()), "out.log", SMALL)) {
            for (int i = 0; i < 3000; i++) {
                byte[] line = ("line " + i + " " + "x".repeat(i % 50) + "\n").getBytes(StandardCharsets.UTF_8);
                wrapped.write(line);
                direct.write(line);
                if (i % 500 == 0) {
                    byte[] big = new byte[5000 + i];             // over the direct threshold and the buffer
                    java.util.Arrays.fill(big, (byte) ('a' + i % 26));
                    wrapped.write(big);
                    direct.write(big);
                    wrapped.write('!');
                    direct.write('!');
                    wrapped.flush();
                }
            }
        }
        assertArrayEquals(direct.toByteArray(), Files.readAllBytes(file));
    }

    @Test
    void shouldKeepEachThreadsLinesWholeAndInOrder() throws Exception {
        Path file = dir.resolve("mt.log");
        int threads = 4;
        int lines = 5000;
        try (OutputStream wrapped = SinkStreams.wrap(new FileOutputStream(file.toFile()), "mt.log", SMALL)) {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < lines; i++) {
                        try {
                            wrapped.write(("t" + id + " " + i + "\n").getBytes(StandardCharsets.UTF_8));
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join();
            }
        }
        int[] next = new int[threads];
        for (String l : Files.readAllLines(file)) {
            String[] p = l.split(" ");
            int t = Integer.parseInt(p[0].substring(1));
            assertEquals(next[t]++, Integer.parseInt(p[1]), "line order of thread " + t);
        }
        for (int n : next) {
            assertEquals(lines, n);
        }
    }

    @Test
    void shouldCloseTheDelegateOnCloseAndWriteOnFlushRequest() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        OutputStream wrapped = SinkStreams.wrap(sink, "mem", SMALL);
        wrapped.write("hello".getBytes(StandardCharsets.UTF_8));
        wrapped.flush();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (sink.size() < 5 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals("hello", sink.toString(StandardCharsets.UTF_8));
        wrapped.close();
        assertTrue(closed.get());
    }

    @Test
    void shouldCountRetryAndRecoverFromFailingWrites() throws Exception {
        AtomicInteger failuresLeft = new AtomicInteger(2);
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        OutputStream flaky = flaky(failuresLeft, target);
        OutputStream wrapped = SinkStreams.wrap(flaky, "flaky", SMALL);
        SinkMetrics m = SinkStreams.metricsOf(wrapped);
        wrapped.write("survives".getBytes(StandardCharsets.UTF_8));
        wrapped.close();
        assertEquals("survives", target.toString(StandardCharsets.UTF_8));
        assertEquals(2, m.errors());
        assertNotNull(m.lastError());
        assertTrue(m.lastError().contains("disk full"), m.lastError());
    }

    /**
     * {@link SinkStreams#flushed} (a routed log's close or roll asking whether its bytes are in the file) says
     * so, and leaves an error the sink recorded for the stream's own drain to report, as a plain write would.
     */
    @Test
    void shouldSayWhetherFlushedAndLeaveTheErrorForTheStreamsOwnDrain() throws Exception {
        AtomicInteger failuresLeft = new AtomicInteger(1);
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        OutputStream flaky = flaky(failuresLeft, target);
        OutputStream wrapped = SinkStreams.wrap(flaky, "flaky", SMALL);
        wrapped.write("first".getBytes(StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!SinkStreams.flushed(wrapped)) { // false while the writer retries the failed write
            assertTrue(System.nanoTime() < deadline, "the sink never wrote the bytes");
        }
        assertEquals("first", target.toString(StandardCharsets.UTF_8));
        IOException reported = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> SinkStreams.drain(wrapped));
        assertTrue(reported.getMessage().contains("disk full"), reported.getMessage());
        wrapped.close();
        assertEquals(false, SinkStreams.flushed(new ByteArrayOutputStream()), "not a sink's stream");
    }

    /** A delegate whose first {@code failuresLeft} writes fail (a full disk), the rest going to {@code target}. */
    private static OutputStream flaky(AtomicInteger failuresLeft, ByteArrayOutputStream target) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new IOException("disk full (simulated)");
                }
                target.write(b, off, len);
            }
        };
    }
}
