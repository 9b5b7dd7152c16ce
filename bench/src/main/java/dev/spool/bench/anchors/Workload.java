package dev.spool.bench.anchors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one message every contender logs, the producer threads, and the line count.
 *
 * <p>The template has one {@code {}} placeholder; the parameter is {@code FIRST_PARAM + i}, a
 * 7-digit number for every i below 8,999,999, so each line is exactly {@link #LINE_BYTES} bytes
 * with its newline. Each framework fills the placeholder its own cheap way (Log4j2's and
 * Logback's parameterised messages; a one-placeholder formatter for JUL, see {@link JulLines}).
 */
final class Workload {
    static final String TEMPLATE =
            "order {} accepted: customer=ACME-0042 items=3 total=129.95 EUR channel=web status=CONFIRMED ok";
    static final int FIRST_PARAM = 1_000_000;
    static final int LINE_BYTES = 100;

    static {
        int len = TEMPLATE.length() - 2 + 7 + 1;
        if (len != LINE_BYTES) {
            throw new ExceptionInInitializerError("template makes " + len + "-byte lines, not " + LINE_BYTES);
        }
    }

    /** What one producer calls for message number {@code i}. */
    interface Producer {
        void log(int i);
    }

    private Workload() {
    }

    /**
     * Starts {@code threads} threads logging {@code messages / threads} messages each (numbers
     * disjoint per thread), waits until the last call has returned.
     */
    static void produce(Producer p, int threads, int messages) throws InterruptedException {
        int per = messages / threads;
        Thread[] ts = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            int from = t * per;
            ts[t] = new Thread(() -> {
                for (int i = from; i < from + per; i++) {
                    p.log(i);
                }
            }, "anchor-producer-" + t);
            ts[t].setUncaughtExceptionHandler((th, e) -> failure[0] = e);
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException("a producer failed", failure[0]);
        }
    }

    /** Newlines in the file: the lines that reached it. */
    static long countLines(Path file) throws IOException {
        long n = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    if (buf.get() == '\n') {
                        n++;
                    }
                }
                buf.clear();
            }
        }
        return n;
    }
}
