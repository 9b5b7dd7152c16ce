package dev.spool.bench.anchors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One logging set-up writing {@link Workload}'s lines into one file. */
interface Contender extends Workload.Producer {

    /** Stops the logging system: all it accepted is written and the file is closed. Idempotent. */
    void stop() throws Exception;

    /** Lines and bytes that reached the output, after {@link #stop()}: by default, the file's. */
    default long[] output(Path file) throws IOException {
        return new long[] {Workload.countLines(file), Files.size(file)};
    }

    /** The length of every line this contender writes, with its newline. */
    default long lineBytes() {
        return Workload.LINE_BYTES;
    }

    /**
     * Opens the contender named {@code name} (a benchmark's {@code contender} parameter) on a
     * fresh {@code file}.
     */
    static Contender open(String name, Path file) throws Exception {
        switch (name) {
            case "julFileHandler":
                return JulLines.fileHandler(file);
            case "spoolJul":
                return JulLines.onSpoolSink(file);
            case "julNoIo":
                return JulLines.onNullStream();
            case "log4j2Async":
            case "log4j2AsyncDisruptor4":
                return Log4j2Lines.allAsync(file);
            case "log4j2Sync":
                return Log4j2Lines.synchronous(file);
            case "logbackAsync":
                return LogbackLines.asyncLossless(file);
            case "logbackAsyncDefault":
                return LogbackLines.asyncDefault(file);
            case "spoolLogback":
                return LogbackLines.onSpoolSink(file);
            case "logbackNoIo":
                return LogbackLines.onNullStream();
            default:
                throw new IllegalArgumentException("unknown contender " + name);
        }
    }

    /**
     * Whether losing a line fails the run. Only Log4j2 on Disruptor 4.0 (measured to lose events)
     * and Logback's AsyncAppender in its default discarding configuration are allowed to lose;
     * their loss is reported.
     */
    static boolean lossless(String name) {
        return !name.equals("log4j2AsyncDisruptor4") && !name.equals("logbackAsyncDefault");
    }
}
