package dev.spool.bench.anchors;

import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * java.util.logging contenders: a plain {@code FileHandler}, and the same handler behaviour (a
 * {@code StreamHandler} flushing after every record, as {@code FileHandler} does) on a
 * {@code SinkStreams.wrap(FileOutputStream)} whose per-record {@code flush()} is not forwarded,
 * as the agent's routed stream does (the sink writes by itself; {@code close()} drains). Both log
 * through a real {@link Logger} ({@code logger.log(INFO, template, param)}). The floor
 * {@link #onNullStream} is the same handler on a stream that writes nothing.
 */
final class JulLines implements Contender {
    private final Logger logger;
    private final Handler handler;
    private final Path file;
    private final CountingNullStream counter;

    private JulLines(Handler handler, Path file, CountingNullStream counter) {
        this.handler = handler;
        this.file = file;
        this.counter = counter;
        handler.setFormatter(new OneParameter());
        handler.setLevel(Level.ALL);
        logger = Logger.getAnonymousLogger();
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.INFO);
        logger.addHandler(handler);
    }

    static JulLines fileHandler(Path file) throws IOException {
        return new JulLines(new FileHandler(file.toString(), false), file, null);
    }

    static JulLines onSpoolSink(Path file) throws IOException {
        OutputStream sink = SinkStreams.wrap(new FileOutputStream(file.toFile()), file.getFileName().toString(),
                SinkSettings.defaults());
        return new JulLines(new FlushingStreamHandler(new FlushNotForwarded(sink)), file, null);
    }

    /** The floor: the same handler on a stream that writes nothing (JUL's own cost per line). */
    static JulLines onNullStream() {
        CountingNullStream counter = new CountingNullStream();
        return new JulLines(new FlushingStreamHandler(counter), null, counter);
    }

    @Override
    public void log(int i) {
        logger.log(Level.INFO, Workload.TEMPLATE, Workload.FIRST_PARAM + i);
    }

    @Override
    public void stop() throws IOException {
        logger.removeHandler(handler);
        handler.close();
        if (file != null) {
            Files.deleteIfExists(Path.of(file + ".lck"));
        }
    }

    @Override
    public long[] output(Path target) throws IOException {
        return counter != null ? counter.output() : Contender.super.output(target);
    }

    /** The message with its one {@code {}} filled, and a newline: what the others' "%m%n" gives. */
    static final class OneParameter extends Formatter {
        @Override
        public String format(LogRecord r) {
            String m = r.getMessage();
            Object[] params = r.getParameters();
            int at = m.indexOf("{}");
            if (at < 0 || params == null || params.length == 0) {
                return m + "\n";
            }
            return new StringBuilder(m.length() + 16).append(m, 0, at).append(params[0])
                    .append(m, at + 2, m.length()).append('\n').toString();
        }
    }

    /** What {@code FileHandler} does after each record, on any stream. */
    static final class FlushingStreamHandler extends StreamHandler {
        FlushingStreamHandler(OutputStream out) {
            super(out, new OneParameter());
        }

        @Override
        public synchronized void publish(LogRecord record) {
            super.publish(record);
            flush();
        }
    }

    /** The agent's routed stream while routing: writes and close go to the sink, flush does not. */
    static final class FlushNotForwarded extends FilterOutputStream {
        FlushNotForwarded(OutputStream sink) {
            super(sink);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() {
            // the sink writes a partly filled buffer by itself; close() drains
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
