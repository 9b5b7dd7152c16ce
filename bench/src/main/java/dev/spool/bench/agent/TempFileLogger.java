package dev.spool.bench.agent;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.logging.FileHandler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The host of the JUL rounds programs ({@link JulIssueRounds}, {@link JulCallerCostRounds}): a
 * logger writing only to one {@code FileHandler} with the default {@code SimpleFormatter}, in a
 * temporary folder that {@link #close} deletes. One thread runs it.
 */
final class TempFileLogger implements AutoCloseable {
    final Logger logger;
    final FileHandler handler;
    private final Path dir;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

    TempFileLogger(String folderPrefix, String loggerName, String fileName) throws IOException {
        dir = Files.createTempDirectory(folderPrefix);
        logger = Logger.getLogger(loggerName);
        logger.setUseParentHandlers(false);
        handler = new FileHandler(dir.resolve(fileName).toString(), false);
        handler.setFormatter(new SimpleFormatter());
        logger.addHandler(handler);
    }

    /**
     * Runs {@code body} (given the thread's index) on {@code threads} threads named
     * {@code producer-<i>} at once, waits for them and flushes the handler (every captured record
     * written); returns the CPU time the threads spent in {@code body}, summed.
     */
    long runThreads(int threads, IntConsumer body) throws InterruptedException {
        AtomicLong cpu = new AtomicLong();
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            all[t] = new Thread(() -> {
                long c0 = mx.getCurrentThreadCpuTime();
                body.accept(id);
                cpu.addAndGet(mx.getCurrentThreadCpuTime() - c0);
            }, "producer-" + t);
            all[t].start();
        }
        for (Thread t : all) {
            t.join();
        }
        handler.flush();
        return cpu.get();
    }

    @Override
    public void close() throws IOException {
        handler.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }
}
