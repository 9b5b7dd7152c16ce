package dev.spool.agent.internal;

import dev.spool.internal.jfr.SpoolJfr;
import dev.spool.mbeans.SpoolMBeans;
import dev.spool.sink.SinkMetrics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The installed agent's live state and controls — what {@code dev.spool:type=Agent} shows and
 * the CLI's {@code status}/{@code flush} use: version, the routing kill switch, instrumented
 * classes, effective configuration, error count and last error.
 *
 * <p>Thread-safe. {@link #setRoutingEnabled(boolean) setRoutingEnabled(false)} flushes the
 * buffer and drains every routed log stream, then every later call takes the original path;
 * {@code true} resumes routing.
 */
public final class AgentControl implements dev.spool.mbeans.AgentControl {

    private static final AtomicReference<AgentControl> CURRENT = new AtomicReference<>();

    private final String version;
    private final Map<String, String> configuration;
    private final Set<String> instrumented = new ConcurrentSkipListSet<>();
    private final Set<RoutedStream> streams = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>("");
    private volatile boolean routingEnabled = true;
    private final PlainPaths plainPaths = new PlainPaths(this);
    private final LogOwners owners = new LogOwners();
    private volatile Runnable extraFlush = () -> { };
    private volatile Runnable capturedLogs = () -> { };
    private volatile java.util.function.Consumer<Object> capturedLogsOf = owner -> { };
    private volatile java.util.function.Consumer<java.nio.file.Path> idleJournals = path -> { };
    private volatile java.util.function.Predicate<Object> logWriter = owner -> false;
    private volatile java.util.function.Predicate<Object> logIdle = owner -> false;
    private volatile Backends backends;
    private volatile LogVisibility visibility;
    /** Whether any log stream is routed now (read per host file operation: {@link RoutedLogReads}). */
    private volatile boolean anyRoutedStream;
    /** Runs when a stream is routed while none was (the JDK's file operations are woven then; idempotent). */
    private volatile Runnable firstRoutedStream = () -> { };
    /** Open sinks and their bean names (name, appender or null). */
    private final Map<SinkMetrics, String[]> sinks = new ConcurrentHashMap<>();
    private SpoolMBeans beans; // guarded by sinks
    /** The CLI's commands ({@link Commands}); set once the agent is wired, before the MBeans exist. */
    private volatile java.util.function.Function<String, String> commands =
            c -> "{\"installed\":true,\"error\":\"the agent is still starting\"}";

    AgentControl(String version, Map<String, String> configuration) {
        this.version = version;
        this.configuration = Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
    }

    /** The installed agent's control, or null when the agent is not installed in this JVM. */
    public static AgentControl current() {
        return CURRENT.get();
    }

    static void publish(AgentControl control) {
        CURRENT.set(control);
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public boolean routingEnabled() {
        return routingEnabled;
    }

    /** The kill switch: off flushes everything routed so far and sends later calls down the original path. */
    @Override
    public void setRoutingEnabled(boolean enabled) {
        if (!enabled && routingEnabled) {
            routingEnabled = false;
            flush();
            AgentLog.info("routing disabled: later calls take the original path");
        } else if (enabled && !routingEnabled) {
            routingEnabled = true;
            AgentLog.info("routing enabled");
        }
    }

    /** Names of the classes the agent has transformed, sorted. */
    @Override
    public List<String> instrumentedClasses() {
        return new ArrayList<>(instrumented);
    }

    /** Names (files) of the log streams currently routed through the sink, sorted. */
    public List<String> routedStreams() {
        List<String> names = new ArrayList<>();
        synchronized (streams) {
            for (RoutedStream s : streams) {
                names.add(s.name());
            }
        }
        Collections.sort(names);
        return names;
    }

    /** Effective configuration, key to value (SPEC keys). */
    @Override
    public Map<String, String> configuration() {
        return configuration;
    }

    /** The handlers and appenders left on the plain path, counted and named once by reason. */
    public PlainPaths plainPaths() {
        return plainPaths;
    }

    @Override
    public Map<String, Long> plainPathByReason() {
        return plainPaths.byReason();
    }

    @Override
    public long errors() {
        return errors.get();
    }

    public String lastError() {
        return lastError.get();
    }

    void answerCommandsWith(java.util.function.Function<String, String> answers) {
        this.commands = answers;
    }

    /** A CLI command's JSON answer ({@link Commands}), here for the Agent bean's {@code status()}/{@code flush()}. */
    @Override
    public String command(String command) {
        return commands.apply(command);
    }

    /**
     * Writes every buffered file and drains every routed log stream and the event file.
     *
     * @return the number of buffered files written
     */
    public int flush() {
        int files = 0;
        drainCapturedLogs(); // log records captured for encoding on Spool's thread reach their streams first
        Backends b = backends;
        if (b != null && b.bufferIfStarted() != null) {
            try {
                files = b.bufferIfStarted().flush();
            } catch (Exception e) {
                error("flush-buffer", "flush of the buffer failed: " + e);
            }
        }
        for (RoutedStream s : openStreams()) {
            try {
                s.drain();
            } catch (IOException | RuntimeException e) {
                error("flush-stream:" + s.name(), "flush of log stream " + s.name() + " failed: " + e);
            }
        }
        try {
            extraFlush.run();
        } catch (RuntimeException e) {
            error("flush-events", "flush of the event file failed: " + e);
        }
        return files;
    }

    /** What {@link #flush()} runs first: writing log records captured before encoding into their streams. */
    void capturedLogs(Runnable step) {
        capturedLogs = step;
    }

    /**
     * Encodes every captured log record still queued (JUL and Logback) into its routed stream, on
     * the calling thread; a failure is counted and reported, never thrown. The Agent bean's flush
     * runs it first, and so does each log's {@code Sink} bean flush (a log's records may still be
     * queued for encoding, not yet in its sink).
     */
    void drainCapturedLogs() {
        try {
            capturedLogs.run();
        } catch (RuntimeException e) {
            error("flush-captured-logs", "writing captured log records failed: " + e);
        }
    }

    /** What {@link #drainCapturedLogsOf} runs: one handler's or appender's captured records into its stream. */
    void capturedLogsOf(java.util.function.Consumer<Object> step) {
        capturedLogsOf = step;
    }

    /**
     * Encodes the captured log records still queued for one JUL handler or Logback appender into its
     * routed stream, on the calling thread (taking the handler's monitor or the appender's lock); a
     * failure is counted and reported, never thrown.
     */
    void drainCapturedLogsOf(Object owner) {
        if (owner == null) {
            return;
        }
        try {
            capturedLogsOf.accept(owner);
        } catch (RuntimeException e) {
            error("flush-captured-logs", "writing captured log records failed: " + e);
        }
    }

    /** What {@link #putAwayIdleJournals} runs (Logback's journals of bytes, issue 33). */
    void idleJournals(java.util.function.Consumer<java.nio.file.Path> step) {
        idleJournals = step;
    }

    /**
     * The host lists or deletes {@code path} (absolute): the log journals in that folder that hold
     * nothing to replay are removed first; a failure is counted and reported, never thrown.
     */
    void putAwayIdleJournals(java.nio.file.Path path) {
        try {
            idleJournals.accept(path);
        } catch (RuntimeException e) {
            error("journal-put-away", "removing idle log journals beside " + path + " failed: " + e);
        }
    }

    /** What {@link #logIdle} asks: whether nothing a handler or appender captured waits or is being written. */
    void logIdleTest(java.util.function.Predicate<Object> test) {
        logIdle = test;
    }

    /** Whether nothing {@code owner} captured waits or is being written now (false when that cannot be told). */
    boolean logIdle(Object owner) {
        try {
            return logIdle.test(owner);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** What {@link #writesLogHere} asks: whether this thread holds a Logback appender's lock or drains its queue. */
    void logWriterTest(java.util.function.Predicate<Object> test) {
        logWriter = test;
    }

    /** Whether the current thread writes {@code owner}'s log now (a Logback appender's lock or queue; never throws). */
    boolean writesLogHere(Object owner) {
        try {
            return logWriter.test(owner);
        } catch (RuntimeException e) {
            return false;
        }
    }

    void instrumented(String className) {
        instrumented.add(className);
    }

    /** The handlers and appenders ever routed whose folders hold {@code target} ({@link LogOwners}). */
    List<Object> logOwnersConcerning(java.nio.file.Path target) {
        return owners.concerning(target);
    }

    /** Whether any handler or appender was ever routed ({@link LogOwners#any}), even if none of its streams is open now. */
    boolean anyLogOwner() {
        return owners.any();
    }

    /** The log streams routed now. */
    List<RoutedStream> openStreams() {
        synchronized (streams) {
            return new ArrayList<>(streams);
        }
    }

    void track(RoutedStream stream) {
        boolean first;
        synchronized (streams) { // with forget's: the flag never reads false while a stream is routed
            streams.add(stream);
            first = !anyRoutedStream;
            anyRoutedStream = true;
        }
        if (first) {
            firstRoutedStream.run();
        }
        Object owner = stream.owner();
        if (owner != null) {
            owners.routed(owner, stream.folders());
        }
        sinkOpened(stream.metrics());
        LogVisibility v = visibility;
        if (v != null) {
            v.start();
        }
    }

    /** The bound on routed log bytes' delay, started with the first routed stream. */
    void visibility(long maxMillis) {
        visibility = new LogVisibility(maxMillis, this::openStreams);
    }

    /** Whether any log stream is routed now. */
    boolean anyRoutedStream() {
        return anyRoutedStream;
    }

    /** Runs {@code step} when a stream is routed while none was ({@code step} must be idempotent; never throws into the routing). */
    void onFirstRoutedStream(Runnable step) {
        firstRoutedStream = () -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                error("first-routed-stream", "cannot prepare for the host's reads of its routed logs (" + e + ")");
            }
        };
    }

    void forget(RoutedStream stream) {
        synchronized (streams) {
            streams.remove(stream);
            anyRoutedStream = !streams.isEmpty();
        }
        sinkClosed(stream.metrics());
    }

    /** A sink Spool opened (the event log): shown as a Sink MBean named by its absolute path. */
    void sinkOpened(SinkMetrics sink) {
        if (sink != null) {
            sinkOpened(sink, SpoolMBeans.absolute(sink.path()), null);
        }
    }

    /** A sink Spool opened (a logical log: name, appender or null), shown as a Sink MBean once the MBeans are registered. */
    void sinkOpened(SinkMetrics sink, String name, String appender) {
        synchronized (sinks) {
            sinks.put(sink, new String[] {name, appender});
            if (beans != null) {
                beans.addSink(sink, name, appender);
            }
        }
    }

    void sinkClosed(SinkMetrics sink) {
        if (sink == null) {
            return;
        }
        synchronized (sinks) {
            if (sinks.remove(sink) != null && beans != null) {
                beans.removeSink(sink);
            }
        }
    }

    /** The MBeans are registered: the sinks opened so far get their beans, later ones on opening. */
    void beansRegistered(SpoolMBeans registered) {
        synchronized (sinks) {
            beans = registered;
            sinks.forEach((sink, name) -> registered.addSink(sink, name[0], name[1]));
        }
    }

    void backends(Backends b) {
        backends = b;
        extraFlush = b::flushEvents;
    }

    /** Counts an error, remembers it, and reports it once per distinct message. */
    void error(String message) {
        errors.incrementAndGet();
        lastError.set(message);
        SpoolJfr.fallback(message);
        AgentLog.once(message, message);
    }

    /** Counts an error and reports it once per {@code key} (a recurring problem is one line). */
    void error(String key, String message) {
        errors.incrementAndGet();
        lastError.set(message);
        SpoolJfr.fallback(message);
        AgentLog.once(key, message);
    }
}
