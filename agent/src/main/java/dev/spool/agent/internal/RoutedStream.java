package dev.spool.agent.internal;

import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkStreams;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A log handler's file stream under the agent: while routing is on, bytes go to the sink's stream
 * ({@code routed}, which writes them to {@code direct} on the sink thread, same bytes, same
 * order); otherwise they go straight to {@code direct} on the caller's thread, after the sink has
 * been drained, so the order on disk is kept either way.
 *
 * <p>Bytes take the host's own path ({@code direct}) when:
 * <ul>
 *   <li>the kill switch turns routing off (until it is turned on again);
 *   <li>the bytes written reach {@code lengthLimit} (a size-based rolling policy that reads the
 *       file's length): the sink is drained, so from then on the file's length on disk is what
 *       plain logging would have left, and the policy rolls at the same record; the stream of the
 *       next file is routed again;
 *   <li>the sink reports an error ({@code IOException} from its stream, a full disk): the caller
 *       gets that exception, as a plain write would have thrown one (JUL calls its
 *       {@code ErrorManager}, Logback records a status and starts its own recovery), and later
 *       bytes go to the file directly, so the host sees every later failure as without the agent.
 * </ul>
 *
 * <p>Visibility (default {@code spool.events.visibility=bounded}): a byte written here is handed to
 * the file by the sink within {@code spool.events.visibility.max.ms} ({@link LogVisibility} asks the
 * sink to write whatever a stream got since its last tick).
 *
 * <p>Not thread-safe by itself: callers (JUL handlers, Logback appenders) already serialise
 * their writes, as for any OutputStream they own. {@link #drain()} and {@link #requestWrite()}
 * may be called from other threads.
 */
final class RoutedStream extends OutputStream {

    private final OutputStream direct;
    /** {@code direct}'s channel when it is a {@code FileOutputStream} (the host may close it under its handler), else null. */
    private final FileChannel directChannel;
    private final OutputStream routed;
    private final AgentControl control;
    private final String name;
    /** Its calls into {@link #hostWrites}, never failing the host's write. */
    private final HostWriteCalls journalCalls;
    /** The file, absolute and normalised ({@code name} read as a path), or null when it is no path. */
    private final Path file;
    /** The JUL handler or Logback appender whose stream this is (its captured records feed it), or null. */
    private volatile Object owner;
    /** The folders of the file and its archives, once a look at a folder asked ({@link LogFolders}). */
    private volatile LogFolders folders;
    private final long lengthLimit;
    private long length;
    /** The file's size when this stream was made, or -1 when unknown (issue 33's journal). */
    private final long base;
    /** Bytes written through this stream, either path; and those of them routed (issue 33's journal). */
    private volatile long written;
    private volatile long routedBytes;
    private volatile boolean routing = true;
    /** Past the length limit or after a sink error: the host's own path for good. */
    private volatile boolean ownPath;
    /** Bytes were written since the last flush: the next flush is the handler's per-record one. */
    private volatile boolean wroteSinceFlush;
    /** Bytes were routed since a reader last drained the sink ({@link #readerPending()}). */
    private volatile boolean unreadByReader;
    /** Bytes were routed since the visibility tick last asked the sink to write. */
    private volatile boolean unwritten;
    /** The journal of the bytes the host writes itself (issue 33), or null. */
    private volatile dev.spool.agent.journal.HostWrites hostWrites;
    /** Run once closed (a journal's settle), or null. */
    private volatile Runnable onClosed;
    /** An error the sink reported to the visibility tick, for the host's next call to receive. */
    private volatile IOException pending;

    /** A JUL handler's stream: its file's size now is read, the base of {@link #position()} (its journal's offsets). */
    RoutedStream(OutputStream direct, OutputStream routed, AgentControl control, String name) {
        this(direct, routed, control, name, Long.MAX_VALUE, 0, LogFilePaths.sizeOf(LogFilePaths.absolute(name)));
    }

    /**
     * A Logback appender's stream: {@code length}, the file's length when it was opened, is the base
     * of {@link #position()} (its journal's offsets, issue 33).
     *
     * @param lengthLimit the length at which the file's owner may read its length to roll it
     *     ({@code Long.MAX_VALUE}: never)
     * @param length the file's length when it was opened
     */
    RoutedStream(OutputStream direct, OutputStream routed, AgentControl control, String name, long lengthLimit, long length) {
        this(direct, routed, control, name, lengthLimit, length, length);
    }

    private RoutedStream(OutputStream direct, OutputStream routed, AgentControl control, String name, long lengthLimit,
            long length, long base) {
        this.direct = direct;
        this.directChannel = direct instanceof FileOutputStream f ? f.getChannel() : null;
        this.routed = routed;
        this.control = control;
        this.name = name;
        this.journalCalls = new HostWriteCalls(control, name);
        this.file = LogFilePaths.absolute(name);
        this.lengthLimit = lengthLimit;
        this.length = length;
        this.base = base;
    }

    /**
     * The file offset just after the last byte written through this stream, or -1 when unknown
     * (a JUL journal's record of where a line went, issue 33). The writer's thread (the handler's monitor).
     */
    long position() {
        return base < 0 ? -1 : base + written;
    }

    /**
     * The file offset up to which this stream's bytes are in the file, or -1 when unknown: every
     * byte written directly is, and routed ones as far as the sink wrote them (routed bytes before a
     * direct write were drained first, so the ones still in the sink are the last ones written).
     */
    long reached() {
        if (base < 0) {
            return -1;
        }
        long w = written;
        long routedNow = routedBytes;
        long inFile = routed instanceof LogSink.FileStream f ? f.inFile() : -1;
        return inFile < 0 ? -1 : base + w - Math.max(0, routedNow - inFile);
    }

    String name() {
        return name;
    }

    /** The handler or appender writing through this stream, or null (set once, when routed). */
    Object owner() {
        return owner;
    }

    RoutedStream owner(Object handlerOrAppender) {
        this.owner = handlerOrAppender;
        return this;
    }

    /** The folders of this stream's file and of its owner's archives (read once its owner is known). */
    LogFolders folders() {
        LogFolders f = folders;
        if (f == null) {
            Object o = owner;
            f = LogFolders.of(file, o);
            if (o != null) {
                folders = f;
            }
        }
        return f;
    }

    /** The file this stream writes (absolute, normalised), or null when its name is no path. */
    Path file() {
        return file;
    }

    /**
     * Whether {@code stream} is a routed stream that routes now and never failed (no error taken,
     * none pending): what JUL's direct writes need, see {@code dev.spool.agent.jul.JulDirectWrite}.
     */
    static boolean routesCleanly(Object stream) {
        return stream instanceof RoutedStream r && r.routing && !r.ownPath && r.pending == null && r.control.routingEnabled();
    }

    /** Shows a JUL journal's pending bytes and what the start of routing recovered on the log's Sink bean (issue 33). */
    void showJournal(java.util.function.LongSupplier pendingBytes, long recovered) {
        if (routed instanceof LogSink.FileStream f) {
            f.showJournal(pendingBytes, recovered);
        }
    }

    /** The sink's live metrics (for its Sink MBean), or null. */
    SinkMetrics metrics() {
        return SinkStreams.metricsOf(routed);
    }

    private boolean routingNow() throws IOException {
        IOException e = pending;
        if (e != null) {
            pending = null;
            throw takeOwnPath(e);
        }
        boolean on = control.routingEnabled() && !ownPath;
        if (on != routing) {
            try {
                if (!on) {
                    Sinks.drain(routed); // everything routed so far reaches the file before direct bytes
                } else {
                    direct.flush();
                }
            } finally {
                routing = on; // a failed drain leaves its bytes to the sink's close (recovery folder)
            }
        }
        return on;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (routing && !ownPath && directChannel != null && !directChannel.isOpen()) {
            closedByHost();
        }
        if (!routingNow()) {
            direct.write(b, off, len);
            written += len;
            return;
        }
        dev.spool.agent.journal.HostWrites h = hostWrites;
        long frame = h == null ? -1 : journalCalls.before(h, b, off, len, position());
        boolean handed = false;
        try {
            routed.write(b, off, len);
            handed = true;
        } catch (IOException | RuntimeException e) {
            throw takeOwnPath(e);
        } finally {
            if (!handed) {
                journalCalls.after(h, frame, -1); // the host gets the error (an Error too): never replayed, never a stuck frame
            }
        }
        routedBytes += len;
        written += len;
        journalCalls.after(h, frame, position());
        wroteSinceFlush = true;
        unwritten = true;
        unreadByReader = true;
        length += len;
        if (length >= lengthLimit) {
            ownPath = true;
            routingNow(); // drains: the file's length is exact before the owner's next look at it
        }
    }

    /** The journal the bytes the host writes itself go to (issue 33), or null: none. Under the owner's lock. */
    void hostWrites(dev.spool.agent.journal.HostWrites writes) {
        hostWrites = writes;
    }

    /**
     * Tells the handler's own flush after each record from a flush the application asked for.
     *
     * <p>JUL's {@code FileHandler.publish} (and Logback's {@code immediateFlush}) writes a
     * record's bytes and then flushes, under the handler's lock: a flush that follows a write is
     * that per-record flush, and is not forwarded while routing (forwarding it would wake the
     * sink's writer for every record and write one record per system call, which is what routing
     * exists to avoid; the bytes reach the file within the visibility bound).
     * A flush with nothing written since the last one is the application's own
     * ({@code handler.flush()} after logging: the record's own flush came first): it drains the
     * sink, so everything logged before it is in the file when it returns, as without the agent.
     */
    @Override
    public void flush() throws IOException {
        if (!routingNow()) {
            direct.flush();
            return;
        }
        if (wroteSinceFlush) {
            wroteSinceFlush = false;
            return;
        }
        drain();
    }

    /** Blocks (bounded by the sink) until everything written so far is in the file's stream. */
    void drain() throws IOException {
        if (routing) {
            try {
                Sinks.drain(routed);
            } catch (IOException | RuntimeException e) {
                throw takeOwnPath(e);
            }
        }
        direct.flush();
    }

    /**
     * Before the host reads the file ({@link RoutedLogReads}, any thread): everything written so far
     * reaches the file, bounded by the sink's wait. An error is kept for the host's next write or
     * flush, which throws it where a plain write would have failed (as for the visibility tick); the
     * stream does not change path here, so the host's own error handling runs as without Spool.
     */
    void drainForReader() {
        if (!routing) {
            return; // the host's own path: its bytes are in the file already
        }
        unreadByReader = false; // before the drain: a write after it sets it again
        try {
            Sinks.drain(routed);
            direct.flush();
        } catch (IOException e) {
            pending = e;
        } catch (RuntimeException e) {
            control.error("log-read-drain:" + name, "cannot write " + name + " before the host reads it (" + e
                    + "): the read finds what is on disk");
        }
    }

    /**
     * A JUL journal whose ring is full (issue 33, any thread holding the handler's monitor): waits,
     * bounded by the sink, until everything written so far is in the file. Unlike {@link #drain} the
     * stream keeps its path whatever happens: a sink that is only slow must not send the log to the
     * host's path for good. A failure is counted and named; false then.
     */
    boolean awaitWritten() {
        if (!routing) {
            return false;
        }
        try {
            Sinks.drain(routed);
            direct.flush();
            return true;
        } catch (IOException | RuntimeException e) {
            control.error("jul-journal-room:" + name, "the sink did not write " + name + " for a full JUL journal (" + e
                    + "): the record goes without the journal");
            return false;
        }
    }

    /**
     * Whether bytes were routed since a reader's last drain: false means a reader finds them all
     * on disk already (that drain wrote them), so the next look need not drain again.
     */
    boolean readerPending() {
        return routing && unreadByReader;
    }

    /** The visibility tick: asks the sink to write what this stream got since the last tick (never blocks). */
    void requestWrite() {
        if (unwritten && routing) {
            unwritten = false;
            try {
                routed.flush();
            } catch (IOException e) {
                pending = e; // the host's next write or flush gets it, where a plain write would have failed
            } catch (RuntimeException e) {
                control.error("visibility:" + name, "cannot ask the sink of " + name + " to write (" + e + ")");
            }
        }
    }

    /**
     * The host closed the file's stream under its handler (Logback's {@code FileAppenderResilienceTest} closes
     * the channel of {@code ResilientFileOutputStream}): plain, this write is the one that fails and starts the
     * handler's recovery, so from here on its bytes take the host's own path (what the sink holds is
     * drained first; that drain's failure, or the closed stream's own, reaches the host at this write).
     */
    private void closedByHost() {
        ownPath = true;
        control.error("log-closed:" + name, "the host closed the file of " + name
                + " under its handler: its writes go to the file directly from now on, as without the agent");
    }

    /** A sink error: later bytes take the host's own path; the caller gets the error as an IOException. */
    private IOException takeOwnPath(Exception e) {
        ownPath = true;
        control.error("sink-error:" + name, "the sink of " + name + " failed (" + e
                + "): the handler gets the error and writes the file itself from now on");
        return e instanceof IOException io ? io : new IOException("spool sink of " + name + " failed", e);
    }

    @Override
    public void close() throws IOException {
        try {
            routed.close(); // drains into the file: a reader meanwhile still finds this stream and waits for it
        } finally {
            control.forget(this);
            Runnable r = onClosed;
            if (r != null) {
                try {
                    r.run(); // a journal settles now, before the owner renames the file (a roll)
                } catch (RuntimeException e) {
                    control.error("journal-settle", "settling a log journal at the close of " + name + " failed (" + e + ")");
                }
            }
        }
    }

    /**
     * Runs {@code r} on the closing thread once this stream is closed (its bytes drained into the
     * file), before the owner goes on (a roll's rename): a journal marks its lines done there (issue 33).
     */
    void onClosed(Runnable r) {
        onClosed = r;
    }
}
