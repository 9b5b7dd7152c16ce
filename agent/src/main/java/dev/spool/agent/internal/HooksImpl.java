package dev.spool.agent.internal;

import dev.spool.agent.journal.JournalFiles;

import dev.spool.agent.files.HostFileHooks;
import dev.spool.agent.jackson.HostJackson;
import dev.spool.agent.jackson.JacksonCaptures;
import dev.spool.agent.logback.LogbackDeferral;
import dev.spool.agent.jul.JulCaptures;
import dev.spool.bridge.Hooks;
import dev.spool.buffer.SharedBuffer;
import dev.spool.buffer.SnapshotContent;
import dev.spool.bridge.SpoolHooks;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Spool's side of the boot bridge: decides, per intercepted call, whether Spool takes it and
 * hands it to the buffer, a sink stream or the event log. Every answer other than the documented
 * {@code IOException}s of {@link SpoolHooks} is "not handled" on failure, so the host's own code
 * runs; failures are counted on {@link AgentControl} and reported once.
 *
 * <p>Thread-safe: immutable configuration, lazily created back ends ({@link Backends}).
 */
final class HooksImpl implements SpoolHooks {

    private final AgentControl control;
    private final Backends backends;
    private final SelectedPaths selected;
    private final JacksonCalls jackson = new JacksonCalls();
    private final JacksonCaptures captures;
    private final boolean logback;
    private final Set<String> emitters;
    private final boolean route;
    private final LogbackDeferral deferral;
    private final JulCaptures julCaptures;
    private final HostFileHooks files;
    /** False until the host's JDK file operations are woven (or that was refused): no write is buffered before ({@code FileWeaveGate}). */
    private volatile BooleanSupplier bufferReady = () -> true;
    /** Routes the streams of log handlers and appenders through the sink. */
    private final LogStreamRouting logStreams;

    HooksImpl(AgentControl control, Backends backends, PathFilter filter, boolean jul, boolean logback,
              Set<String> emitters, boolean route, boolean capture) {
        this(control, backends, filter, jul, logback, emitters, route, capture, null);
    }

    /** @param julCaptures JUL capture at the call, or null (off, or under {@code exact} visibility) */
    HooksImpl(AgentControl control, Backends backends, PathFilter filter, boolean jul, boolean logback,
              Set<String> emitters, boolean route, boolean capture, JulCaptures julCaptures) {
        this.julCaptures = julCaptures;
        this.control = control;
        this.files = new HostFileHooks(backends::bufferIfStarted, new RoutedLogReads(control, backends.sinkWaitMillis()),
                control::error);
        this.captures = new JacksonCaptures(capture, control::error);
        this.backends = backends;
        this.selected = new SelectedPaths(filter);
        this.logback = logback;
        this.emitters = Set.copyOf(emitters);
        this.route = route;
        this.deferral = new LogbackDeferral(control::error, backends.sinkWaitMillis(), control.plainPaths());
        this.logStreams = new LogStreamRouting(control, backends, jul, logback, deferral, julCaptures);
        control.capturedLogsOf(owner -> { // one handler's or appender's (a host reading its file)
            try {
                deferral.beforeHostLooks(owner); // Logback: what the appender captured and is writing now, under its locks
            } finally {
                if (julCaptures != null) {
                    julCaptures.drain(owner, "flush"); // JUL: what the handler captured, under its monitor
                }
            }
        });
        control.logWriterTest(deferral::writesHere);
        control.idleJournals(deferral::putAwayIdleJournals);
        control.logIdleTest(owner -> deferral.idle(owner) && (julCaptures == null || julCaptures.idle(owner))); // a roll on a thread that holds the appender's lock looks at its folder
        control.capturedLogs(() -> { // both, even when one throws (AgentControl.flush counts it)
            try {
                deferral.drainAll();
            } finally {
                if (julCaptures != null) {
                    julCaptures.drainAll();
                }
            }
        });
    }

    /**
     * Buffers Jackson writes only once {@code ready} says so (the JDK's file operations are woven,
     * or that ended in a refusal, reported; it may wait, bounded, for that): before, a buffered file
     * could be read, moved or deleted by the host behind the buffer's back, so each write runs the
     * host's own code.
     */
    void bufferOnlyWhen(BooleanSupplier ready) {
        bufferReady = ready;
    }

    /**
     * Journals deferred Logback appenders (issue 33) through {@code files}: each one's start of
     * routing replays what a killed process left beside its file first; with {@code hostBytes}
     * ({@code spool.sink.journal.hostBytes}) appenders Spool does not defer journal their bytes too.
     * Set once, before the hooks are installed.
     */
    void journalLogback(JournalFiles files, boolean hostBytes) {
        logStreams.journalLogback(files);
        deferral.journalHostBytes(hostBytes);
    }

    /** The path of {@code file} if the filter selects it for buffering, else null (cached per path string). */
    private Path selectedPath(File file) {
        return selected.of(file);
    }

    /**
     * The buffer that may hold {@code path}'s content: the running buffer while routing is on, and
     * even after the kill switch turned it off (a flush that failed keeps entries; reads and
     * writes must still see them), but never one created just for this question.
     */
    private SharedBuffer bufferFor(boolean routing) {
        return routing ? backends.buffer() : backends.bufferIfStarted();
    }

    @Override
    public boolean writeJson(Object writer, File file, Object value) throws IOException {
        boolean routing = control.routingEnabled();
        Path path = selectedPath(file);
        if (path == null) {
            return false;
        }
        if (!routing || !bufferReady.getAsBoolean()) {
            writeJsonBypassed(file); // the original write runs: nothing older may be flushed over it
            return false;
        }
        SharedBuffer buffer = backends.buffer();
        JacksonCaptures.Outcome captured = captures.capture(writer, value, buffer.getCapacityBytes());
        if (captured.failure() != null) {
            buffer.countEncodedAtCall(captured.reason());
            JacksonCaptures.encodedAtCall(captured.reason());
            failedAtCall(file, captured.failedBytes(), captured.failure());
        }
        SnapshotContent content = captured.content();
        if (captured.reason() != null) {
            buffer.countEncodedAtCall(captured.reason()); // the Buffer bean's EncodedAtCall
        }
        if (content == null) { // not captured: encoded at the call, as before
            JacksonCaptures.encodedAtCall(captured.reason());
            try {
                content = SnapshotContent.ofBytes(jackson.encodeAtCall(writer, value));
            } catch (JacksonCalls.WriteFailed failed) {
                // The host's own failure (a serializer threw): thrown as the host's write would, with
                // the file left as plain Jackson leaves it (truncated to what was written before the throw),
                // and no second run of the serializers, which might succeed where this one failed (H).
                failedAtCall(file, failed.written, failed.thrown);
            } catch (JacksonCalls.Unsupported | RuntimeException e) {
                control.error("jackson-write:" + writer.getClass().getName(),
                        "cannot encode with " + writer.getClass().getName() + " (" + e + "): writing " + file + " directly");
                writeJsonBypassed(file);
                return false;
            }
        }
        try {
            return buffer.putSnapshot(path, content); // a refusal already dropped older content
        } catch (RuntimeException e) {
            control.error("buffer-put", "the buffer refused " + path + " (" + e + "): written directly");
            writeJsonBypassed(file);
            return false;
        }
    }

    /**
     * The host's serializers failed on their one run (issue 31, H): as the host's own write, the
     * file is truncated to what the generator had been given, and the serializers' exception is
     * thrown. They are not run again (a second run may succeed where the host's one failed).
     * Older buffered content is dropped first; the file is written in place, as Jackson does.
     */
    private void failedAtCall(File file, byte[] written, Exception thrown) throws IOException {
        writeJsonBypassed(file);
        try (java.io.FileOutputStream out = new java.io.FileOutputStream(file)) {
            out.write(written);
        } catch (java.io.FileNotFoundException cannotOpen) {
            throw cannotOpen; // the host's write opens the file first: it meets this before any serializer
        } catch (IOException closing) {
            thrown.addSuppressed(closing); // as Jackson's close on a failure
        }
        if (thrown instanceof IOException io) {
            throw io;
        }
        if (thrown instanceof RuntimeException re) {
            throw re;
        }
        throw new IOException(thrown); // not thrown by Jackson's writeValue, which wraps every checked failure
    }

    @Override
    public void writeJsonBypassed(File file) {
        try {
            Path path = selectedPath(file);
            SharedBuffer buffer = backends.bufferIfStarted();
            if (path != null && buffer != null) {
                buffer.supersede(path);
            }
        } catch (RuntimeException e) {
            control.error("buffer-supersede", "cannot drop the buffered content of " + file + " (" + e + ")");
        }
    }

    @Override
    public Object readJson(Object reader, String method, File file, Object type) throws IOException {
        Path path = selectedPath(file);
        SharedBuffer buffer = path == null ? null : bufferFor(control.routingEnabled());
        if (buffer == null) {
            return null;
        }
        SnapshotContent buffered = buffer.readBufferedContent(path);
        if (buffered == null) {
            return null;
        }
        if (jackson.updatesInPlace(reader) && buffer.writeNow(path)) {
            return null; // into an existing object: the host's own read, once, of the file as the buffer holds it
        }
        Object fromTokens = captures.read(buffered, reader, method, type);
        if (fromTokens != HostJackson.NOT_SERVED) {
            return fromTokens == null ? Hooks.NULL : fromTokens;
        }
        try {
            Object value = jackson.read(reader, method, buffered.encode(), type);
            return value == null ? Hooks.NULL : value;
        } catch (IOException | RuntimeException readFailed) {
            // The read fails (a type mismatch, an unknown property...). Plain Jackson's exception names
            // the file as its source and location; one from these bytes would name the bytes (their
            // text, in Jackson before 2.16). So the file is written now and the host's own read meets
            // the failure on it. Only when that write fails is this read's own exception thrown.
            if (buffer.writeNow(path)) {
                return null;
            }
            throw readFailed;
        } catch (JacksonCalls.Unsupported e) {
            control.error("jackson-read:" + reader.getClass().getName() + '#' + method,
                    e.getMessage() + ": flushing the buffer and reading " + file + " from disk");
            control.flush();
            return null;
        }
    }

    @Override
    public OutputStream wrapLogStream(String kind, Object owner, String name, OutputStream out) {
        return logStreams.wrap(kind, owner, name, out);
    }

    @Override
    public boolean logRecord(String kind, Object owner, Object record) {
        boolean roll = "logback-roll".equals(kind); // a rolling appender's subAppend, before its check
        if (!logback || owner == null || !(roll || "logback".equals(kind))) {
            return false;
        }
        if (!control.routingEnabled()) {
            deferral.closing(owner); // the kill switch: what was captured goes first, then Logback's own path
            return false;
        }
        return roll ? deferral.captureChecked(owner, record) : deferral.capture(owner, record);
    }

    @Override
    public void logClosing(String kind, Object owner) {
        if (logback && "logback".equals(kind)) {
            deferral.closing(owner);
        }
    }

    @Override
    public boolean emit(String method, Object[] args) {
        if (!control.routingEnabled() || !emitters.contains(method)) {
            return false;
        }
        Object event = args.length == 1 ? args[0] : Arrays.asList(args);
        try {
            if (!backends.emit(event)) {
                return false;
            }
        } catch (IllegalArgumentException e) {
            control.error("emit-arg:" + method, "cannot record a call of " + method + " as an event (" + e.getMessage()
                    + "): the method runs instead");
            return false;
        }
        return route;
    }

    @Override
    public boolean filesBuffered() {
        return files.active();
    }

    @Override
    public void fileOp(int op, Object a, Object b) {
        files.before(op, a, b);
    }

    @Override
    public boolean julPublish(Object handler, Object record) {
        JulCaptures c = julCaptures;
        if (c == null) {
            return false;
        }
        try {
            return c.publish(handler, record);
        } catch (RuntimeException | LinkageError e) {
            control.error("jul-capture", "cannot capture a JUL record (" + e + "): formatted on the caller's thread");
            return false;
        }
    }

    @Override
    public void julDrain(Object handler, String method) {
        JulCaptures c = julCaptures;
        if (c == null) {
            return;
        }
        try {
            c.drain(handler, method);
        } catch (RuntimeException | LinkageError e) {
            control.error("jul-capture", "cannot write the captured JUL records before " + method + " (" + e + ")");
        }
    }
}
