package dev.spool.agent.internal;

import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One logical log's sink: a JUL {@code FileHandler} across its {@code %g} rotations, a Logback
 * file appender across its rolls. It keeps one sink (one writer thread, one set of counters,
 * rates and live settings, one {@code Sink} bean) for the whole life of the log and points it at
 * each file the log opens in turn: {@link #open} attaches the next file, and closing the stream
 * it returns drains the sink into that file and closes it. So a roll changes {@link #path()} and
 * nothing else an operator sees.
 *
 * <p>Thread-safe. A log writes one file at a time (its handler or appender holds its lock across
 * the close and reopen of a roll); bytes written while no file is attached are counted as sink
 * errors by the sink, never written to the wrong file. Example:
 * <pre>{@code
 * LogSink log = new LogSink("app%g.log", null, settings, control::drainCapturedLogs);
 * OutputStream file0 = log.open(new FileOutputStream("app0.log"), "/logs/app0.log", false);
 * file0.write(bytes);   // through the sink, into app0.log
 * file0.close();        // drained into app0.log, which is closed
 * }</pre>
 */
final class LogSink {

    final String name;
    final String appender;
    private final LogFileSwitch files = new LogFileSwitch();
    private final OutputStream shared;
    private final Metrics metrics;
    private volatile String activePath;
    /** The stream of the file attached now, or null between files. Guarded by this. */
    private FileStream attached;
    /** When the last file was closed (System.nanoTime), while none is attached. Guarded by this. */
    private long idleSince;

    /**
     * @param drainCaptured run by the bean's {@code flush()} before the sink's own: encodes the log
     *                      records captured at the call and still queued, so they are in the sink
     */
    LogSink(String name, String appender, SinkSettings settings, Runnable drainCaptured) {
        this.name = name;
        this.appender = appender;
        this.activePath = name;
        this.shared = SinkStreams.wrap(files, appender == null ? name : appender + " " + name, settings);
        this.metrics = new Metrics(SinkStreams.metricsOf(shared), drainCaptured);
    }

    /** The live view its {@code Sink} bean shows: the sink's, with {@code Path} the active file. */
    SinkMetrics metrics() {
        return metrics;
    }

    String path() {
        return activePath;
    }

    /**
     * Attaches the log's next file; the returned stream writes through the sink into it. When a
     * file is still attached, {@code replace} drains the sink into it and moves on (the owner
     * replaces its stream and closes the old one itself, as Logback's {@code setOutputStream}
     * does); without {@code replace} the log is left as it is.
     *
     * @return null when a file is attached and not replaced (another writer of the same name: it gets a log of its own)
     */
    synchronized OutputStream open(OutputStream file, String path, boolean replace) {
        if (attached != null) {
            if (!replace) {
                return null;
            }
            FileStream old = attached;
            old.writable = false;
            old.drained = SinkStreams.flushed(shared); // the sink only: a roll runs under the log's own locks, maybe on its encoding thread
        }
        files.attach(file, path);
        activePath = path;
        attached = new FileStream(file, files.size());
        return attached;
    }

    /** Whether no file has been attached for at least {@code nanos} (the log was closed for good). */
    synchronized boolean idleLongerThan(long nanos, long now) {
        return attached == null && now - idleSince >= nanos;
    }

    /** Ends the sink (its writer thread, its buffers); only once {@link #idleLongerThan idle}. */
    void close() {
        try {
            shared.close();
        } catch (IOException e) {
            // nothing attached: nothing of the log's can be lost here
        }
    }

    private synchronized void detach(FileStream stream) throws IOException {
        if (stream.closed) {
            return;
        }
        stream.closed = true;
        stream.writable = false;
        if (attached != stream) { // replaced: the sink moved on already
            stream.file.close();
            return;
        }
        try {
            stream.drained = SinkStreams.flushed(shared); // every byte of this file in it before the next is attached (the sink only, as above)
        } finally {
            files.detach();
            attached = null;
            idleSince = System.nanoTime();
            stream.file.close();
        }
    }

    /**
     * One file of the log as its handler sees it: writes go into the shared sink;
     * {@code flush()} is the sink stream's cheap request, {@link #drain()} waits (bounded) until
     * every byte written so far is in the file; {@code close()} drains and detaches the file.
     */
    final class FileStream extends OutputStream {
        final OutputStream file;
        /** False once closed or replaced: later writes fail as on a closed file. */
        volatile boolean writable = true;
        /** Set once the close or the replacement drained the sink into this file: every byte written here is in it. */
        volatile boolean drained;
        boolean closed; // guarded by LogSink.this
        /** The file's size when attached (-1: unknown). */
        private final long sizeAtAttach;

        FileStream(OutputStream file, long sizeAtAttach) {
            this.file = file;
            this.sizeAtAttach = sizeAtAttach;
        }

        /**
         * How many of the bytes written here the sink has written into the file (the kernel's), or -1
         * when unknown; once the close or a replacement drained the sink, every one of them. Between the
         * end of writing and the end of that drain (a sink slow or stuck at a roll's close) unknown, not
         * "all": a journal must not take its lines for written before they are (issue 33).
         */
        long inFile() {
            if (drained) {
                return Long.MAX_VALUE;
            }
            if (!writable) {
                return -1; // closing or replaced: the sink's switch may be on the next file already
            }
            long size = files.size();
            return size < 0 || sizeAtAttach < 0 ? -1 : size - sizeAtAttach;
        }

        /** Shows a JUL journal's pending bytes (and what the start of routing recovered) on this log's Sink bean. */
        void showJournal(java.util.function.LongSupplier pending, long recovered) {
            if (pending != null) {
                metrics.journalPending = pending;
            }
            if (recovered > 0) {
                metrics.recovered += recovered;
            }
        }

        private void open() throws IOException {
            if (!writable) {
                throw new IOException("stream closed");
            }
        }

        @Override
        public void write(int b) throws IOException {
            open();
            shared.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            open();
            shared.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (writable) {
                shared.flush();
            }
        }

        void drain() throws IOException {
            if (writable) {
                SinkStreams.drain(shared); // bounded; the sink's error or time-out as an IOException
                file.flush();
            }
        }

        @Override
        public void close() throws IOException {
            detach(this);
        }
    }

    /** The sink's metrics with {@code path()} the file attached now (or last). */
    private final class Metrics implements SinkMetrics {
        private final SinkMetrics sink;
        private final Runnable drainCaptured;

        Metrics(SinkMetrics sink, Runnable drainCaptured) {
            this.sink = sink;
            this.drainCaptured = drainCaptured;
        }

        @Override public String path() { return activePath; }
        @Override public long eventsWritten() { return sink.eventsWritten(); }
        @Override public long bytesWritten() { return sink.bytesWritten(); }
        @Override public double eventsPerSecond() { return sink.eventsPerSecond(); }
        @Override public double bytesPerSecond() { return sink.bytesPerSecond(); }
        @Override public long dropped() { return sink.dropped(); }
        @Override public long directWrites() { return sink.directWrites(); }
        @Override public long splitRecords() { return sink.splitRecords(); }
        @Override public long pendingBytes() { return sink.pendingBytes(); }
        /** A JUL handler's journal's pending bytes (issue 33), or null. */
        volatile java.util.function.LongSupplier journalPending;
        /** Records a JUL journal's recovery appended to this log's file at the start of routing. */
        volatile long recovered;

        @Override public long journalPendingBytes() {
            java.util.function.LongSupplier j = journalPending;
            return sink.journalPendingBytes() + (j == null ? 0 : j.getAsLong());
        }

        @Override public long recoveredAtOpen() { return sink.recoveredAtOpen() + recovered; }
        @Override public long errors() { return sink.errors(); }
        @Override public String lastError() { return sink.lastError(); }
        @Override public int bufferBytes() { return sink.bufferBytes(); }
        @Override public void setBufferBytes(int bufferBytes) { sink.setBufferBytes(bufferBytes); }
        @Override public SinkPolicy policy() { return sink.policy(); }
        @Override public void setPolicy(SinkPolicy policy) { sink.setPolicy(policy); }
        @Override public long maxBytesPerSecond() { return sink.maxBytesPerSecond(); }
        @Override public void setMaxBytesPerSecond(long limit) { sink.setMaxBytesPerSecond(limit); }
        @Override
        public void flush() {
            drainCaptured.run(); // records still queued for encoding reach the sink first
            sink.flush();
        }

        @Override public void resetStatistics() { sink.resetStatistics(); }
    }
}
