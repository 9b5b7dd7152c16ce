package dev.spool.bench.sink;

import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.StreamHandler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The JDK anchor: java.util.logging {@code FileHandler} (flushes after every record) against the
 * same handler semantics (a StreamHandler that flushes after every record, as FileHandler does)
 * on a stream wrapped by {@link SinkStreams}, which is what the agent does. 200,000 records of a
 * 100-byte message from 1 or 2 threads, until the handler is closed (all on disk); the lines
 * in the file are counted. Log4j2 and Logback anchors are not in this class (see BENCHMARKS.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JulAnchorBench {
    static final int RECORDS = 200_000;
    static final String MESSAGE = "x".repeat(99);

    @Param({"1", "2"})
    public int threads;

    @Param({"julFileHandler", "spoolSinkStream"})
    public String handler;

    /** Message plus newline: 100 bytes per record, identical for both handlers. */
    static final class Plain extends Formatter {
        @Override
        public String format(LogRecord r) {
            return r.getMessage() + "\n";
        }
    }

    /** What FileHandler does after each record, on any stream. */
    static final class FlushingStreamHandler extends StreamHandler {
        FlushingStreamHandler(OutputStream out) {
            super(out, new Plain());
        }

        @Override
        public synchronized void publish(LogRecord record) {
            super.publish(record);
            flush();
        }
    }

    @Benchmark
    public long logAndClose() throws Exception {
        Path file = Files.createTempFile("spool-bench-jul", ".log");
        Handler h;
        if (handler.equals("julFileHandler")) {
            h = new FileHandler(file.toString(), false);
            h.setFormatter(new Plain());
        } else {
            OutputStream out = SinkStreams.wrap(new FileOutputStream(file.toFile()), file.getFileName().toString(),
                    SinkSettings.defaults());
            h = new FlushingStreamHandler(out);
        }
        h.setLevel(Level.ALL);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                for (int i = 0; i < RECORDS / threads; i++) {
                    h.publish(new LogRecord(Level.INFO, MESSAGE));
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        h.close();
        long lines = countLines(file);
        Files.deleteIfExists(file);
        Files.deleteIfExists(Path.of(file + ".lck"));
        if (lines != RECORDS) {
            throw new IllegalStateException(handler + " wrote " + lines + " of " + RECORDS + " lines");
        }
        return lines;
    }

    private static long countLines(Path file) throws IOException {
        long n = 0;
        for (byte b : Files.readAllBytes(file)) {
            if (b == '\n') {
                n++;
            }
        }
        return n;
    }
}
