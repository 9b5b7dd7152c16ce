package dev.spool.agent.internal;

import dev.spool.mbeans.SpoolMBeans;
import dev.spool.sink.SinkSettings;
import java.io.File;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The logical logs routed through sinks, one {@link LogSink} each, so that a roll keeps the
 * log's sink and its {@code Sink} bean:
 * <ul>
 *   <li>a JUL {@code FileHandler} always reopens its generation-0 file when it rotates, so its
 *       log is keyed and named by that file's absolute path;</li>
 *   <li>a Logback file appender is keyed by the appender itself and named by its file name
 *       pattern (a rolling policy's {@code fileNamePattern}, else its {@code file}), absolute,
 *       with the appender's name beside it; {@code Path} follows the active file.</li>
 * </ul>
 * A log whose file stays closed for {@link #LINGER_NANOS} (closed for good, not rolled) loses
 * its sink and bean within {@link #SWEEP_NANOS} more: a daemon thread ({@code spool-log-sweep},
 * started with the first log, ending once no log is left, started again by the next log to open) looks
 * for such logs that often; the next log file to open does too.
 * (Before the thread, only the next open did: a log closed for good while no other log opened
 * later, as the sample app's {@code sim.log} at the end of its run, kept its bean until exit.)
 *
 * <p>Thread-safe (one lock, taken when a log file opens and at each sweep).
 */
final class LogSinks {

    /**
     * How long a log may stay between two files before it counts as closed. Rolls take
     * microseconds (a handler or appender closes and reopens under its own lock); a log reopened
     * later gets a fresh sink and bean, under the same name.
     */
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How often the sweeping thread looks for logs closed for good. */
    static final long SWEEP_NANOS = LINGER_NANOS / 4;

    private final AgentControl control;
    private final SinkSettings settings;
    private final Map<Object, LogSink> logs = new HashMap<>(); // guarded by this
    private boolean sweeping; // guarded by this

    LogSinks(AgentControl control, SinkSettings settings) {
        this.control = control;
        this.settings = settings;
    }

    /**
     * The stream a routed log file writes through: its log's sink, attached to {@code file}.
     *
     * @param owner the Logback appender, or null (JUL)
     * @param path  the file's name as the handler or appender gave it
     */
    OutputStream open(String kind, Object owner, OutputStream file, String path) {
        String active = absolute("logback".equals(kind) ? activeFile(file, path) : path);
        Object key;
        String name;
        String appender = null;
        if ("logback".equals(kind) && owner != null) {
            key = new Identity(owner);
            appender = call(owner, "getName");
            Object policy = callObject(owner, "getRollingPolicy");
            String pattern = policy == null ? null : call(policy, "getFileNamePattern");
            name = pattern != null ? absolute(pattern) : active;
        } else {
            key = kind + ":" + active;
            name = active;
        }
        List<LogSink> ended = new ArrayList<>();
        OutputStream stream;
        synchronized (this) {
            startSweeping();
            sweep(key, ended);
            LogSink log = logs.get(key);
            // a Logback appender replaces its own stream; JUL reopens its file only after closing it
            stream = log == null ? null : log.open(file, active, key instanceof Identity);
            if (stream == null) {
                if (log != null) { // another writer of an open log: a log (and bean) of its own
                    key = new Identity(file);
                }
                log = new LogSink(name, appender, settings, control::drainCapturedLogs);
                logs.put(key, log);
                control.sinkOpened(log.metrics(), name, appender);
                stream = log.open(file, active, false);
            }
        }
        end(ended);
        return stream;
    }

    /** Ends logs taken out of the map (outside the lock): their beans go, then their sinks. */
    private void end(List<LogSink> ended) {
        for (LogSink log : ended) {
            control.sinkClosed(log.metrics());
            log.close();
        }
    }

    /** Starts the sweeping thread unless it runs (lock held; a log is being added). */
    private void startSweeping() {
        if (sweeping) {
            return;
        }
        sweeping = true;
        Thread t = new Thread(this::sweepWhileLogsExist, "spool-log-sweep");
        t.setDaemon(true);
        t.setContextClassLoader(null); // created on a host thread: never pin a web application's loader
        t.start();
    }

    /**
     * The sweeping thread: ends once no log is left (decided under the lock, where {@link #open}
     * adds logs and starts a new thread if this one has decided to end), so a JVM whose logs are
     * all closed for good has no Spool thread waking for them.
     */
    private void sweepWhileLogsExist() {
        dev.spool.bridge.Hooks.markSpoolThread();
        while (true) {
            LockSupport.parkNanos(this, SWEEP_NANOS);
            try {
                List<LogSink> ended = new ArrayList<>();
                boolean last;
                synchronized (this) {
                    sweep(null, ended);
                    last = logs.isEmpty();
                    if (last) {
                        sweeping = false;  // the next open() starts a new thread
                    }
                }
                end(ended);
                if (last) {
                    return;
                }
            } catch (RuntimeException | LinkageError e) {
                AgentLog.once("log-sweep", "ending a closed log's sink failed: " + e);
            }
        }
    }

    /** Takes out the logs closed for good (except {@code keep}, may be null); the caller ends them outside the lock. */
    private void sweep(Object keep, List<LogSink> ended) {
        long now = System.nanoTime();
        logs.entrySet().removeIf(e -> {
            if (!e.getKey().equals(keep) && e.getValue().idleLongerThan(LINGER_NANOS, now)) {
                ended.add(e.getValue());
                return true;
            }
            return false;
        });
    }

    /** Logback's {@code ResilientFileOutputStream.getFile()}: the file a roll opened; else the given name. */
    private static String activeFile(OutputStream file, String path) {
        Object f = callObject(file, "getFile");
        if (f instanceof File) {
            return ((File) f).getPath();
        }
        return path;
    }

    private static String absolute(String path) {
        return SpoolMBeans.absolute(path);
    }

    private static String call(Object target, String method) {
        Object v = callObject(target, method);
        return v == null ? null : v.toString();
    }

    /** A public no-argument method of the host's object, or null (absent, failing, or not public). */
    private static Object callObject(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            return m.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** A key equal only to itself's referent (appenders and streams by identity, whatever their equals). */
    private static final class Identity {
        private final Object referent;

        Identity(Object referent) {
            this.referent = referent;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Identity && ((Identity) o).referent == referent;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(referent);
        }
    }
}
