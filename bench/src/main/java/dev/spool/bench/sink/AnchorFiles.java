package dev.spool.bench.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/** Waiting until a log file holds the expected number of bytes: the count check of the anchors. */
final class AnchorFiles {
    private AnchorFiles() {
    }

    /** Waits until {@code file} is {@code expected} bytes long; fails after 120 s or if it grows beyond. */
    static void awaitSize(Path file, long expected, String who) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            long size = Files.exists(file) ? Files.size(file) : 0;
            if (size == expected) {
                return;
            }
            if (size > expected || System.nanoTime() > deadline) {
                throw new IllegalStateException(who + ": file has " + size + " bytes, expected " + expected
                        + " (" + (expected - size) / JulAnchorBench.MESSAGE.length() + " records missing)");
            }
            LockSupport.parkNanos(100_000L);
        }
    }

    /** Runs {@code body} on {@code threads} threads, {@code records / threads} calls each. */
    static void onThreads(int threads, int records, Runnable body) throws InterruptedException {
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                for (int i = 0; i < records / threads; i++) {
                    body.run();
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }
}
