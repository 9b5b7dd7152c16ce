package dev.spool.agent.internal;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The handlers and appenders Spool leaves on the plain path because it cannot prove its own path
 * exact for them (a formatter, pattern, filter or stream it does not reproduce): each is counted
 * once per reason (the Agent bean's {@code PlainPathByReason}, {@code status --json}'s
 * {@code plainPathByReason}) and named once in Spool's log, one {@code [spool]} line with the
 * handler's or appender's class and name, its file and the reason; never once per record.
 *
 * <p>Some fallbacks are decided per event, not per handler or appender (a Logback event whose MDC
 * map or caller data Spool cannot take exactly: {@link #plainEvent}); their reasons count events,
 * and each is still named once per appender and reason, never once per event.
 *
 * <p>Reasons are short keys (docs/LIBRARIES.md lists them); the sentence beside each says what
 * exactly was found. Thread-safe and lock-free: handlers and appenders are held weakly, by
 * identity (their {@code equals}/{@code hashCode}, host code, are never called); the log line and
 * the reads of the file name ({@code getFile()}, a getter of the host's object) run on the calling
 * thread with no lock of Spool's held. Example:
 * <pre>{@code
 * plainPaths.plain(handler, "jul-formatter", "its formatter com.acme.JsonFormatter is not the JDK's");
 * }</pre>
 */
public final class PlainPaths {

    private final AgentControl control;
    private final Map<Seen, Boolean> seen = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> gone = new ReferenceQueue<>();
    private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();
    private final Map<String, EventReason> events = new ConcurrentHashMap<>();

    PlainPaths(AgentControl control) {
        this.control = control;
    }

    /**
     * {@code owner} (a JUL handler or a Logback appender) takes the plain path for {@code reason}:
     * counted and logged the first time for this owner and reason; never throws.
     */
    public void plain(Object owner, String reason, String sentence) {
        try {
            expunge();
            if (owner == null || seen.putIfAbsent(new Seen(owner, reason, gone), Boolean.TRUE) != null) {
                return;
            }
            byReason.computeIfAbsent(reason, r -> new LongAdder()).increment();
            AgentLog.debug("plain path for " + describe(owner) + ": " + sentence + " [" + reason + "]");
        } catch (RuntimeException | LinkageError e) {
            // counting is best effort; the host's path runs either way
        }
    }

    /**
     * One event of {@code owner} (a Logback appender) takes the plain path for {@code reason}: counted
     * per event under the reason, named in Spool's log (debug) the first time for this owner and
     * reason, {@code {}} in the sentence replaced by {@code detail} then; never throws. Per event it
     * costs an adder's increment and an identity comparison with the owner named last for the reason
     * (an appender's run of such events allocates nothing).
     */
    public void plainEvent(Object owner, String reason, String sentence, String detail) {
        try {
            EventReason r = events.computeIfAbsent(reason, k -> new EventReason());
            r.events.increment();
            if (owner == null || r.lastNamed.get() == owner) {
                return;
            }
            expunge();
            if (seen.putIfAbsent(new Seen(owner, reason, gone), Boolean.TRUE) == null) {
                AgentLog.debug("plain path for events of " + describe(owner) + ": " + sentence.replace("{}", String.valueOf(detail))
                        + " [" + reason + "]");
            }
            r.lastNamed = new WeakReference<>(owner);
        } catch (RuntimeException | LinkageError e) {
            // counting is best effort; the host's path runs either way
        }
    }

    /** Handlers and appenders (events, for {@link #plainEvent}'s reasons) on the plain path since start, by reason (sorted). */
    public Map<String, Long> byReason() {
        Map<String, Long> m = new TreeMap<>();
        byReason.forEach((k, v) -> m.put(k, v.sum()));
        events.forEach((k, v) -> m.merge(k, v.events.sum(), Long::sum));
        return m;
    }

    /** "JUL handler java.util.logging.FileHandler (file /logs/app.log)" or "Logback appender FILE (...)". */
    private String describe(Object owner) {
        String type = owner.getClass().getName();
        String file = null;
        for (RoutedStream s : control.openStreams()) {
            if (s.owner() == owner) {
                file = s.name();
                break;
            }
        }
        if (isJulHandler(owner.getClass())) {
            return "JUL handler " + type + "@" + Integer.toHexString(System.identityHashCode(owner))
                    + " (file " + (file == null ? "not routed" : file) + ")";
        }
        String name = call(owner, "getName");
        return "Logback appender " + (name == null ? "?" : name) + " " + type + " (file " + (file != null ? file : call(owner, "getFile")) + ")";
    }

    /** By name: this class must not load JUL's types (the host's LogManager is its own business). */
    private static boolean isJulHandler(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals("java.util.logging.Handler")) {
                return true;
            }
        }
        return false;
    }

    private static String call(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            Object v = m.invoke(target);
            return v == null ? null : v.toString();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private void expunge() {
        for (Object r; (r = gone.poll()) != null; ) {
            seen.remove(r);
        }
    }

    /** A per-event reason: its events, and the owner named last for it (weakly; a cache in front of {@link #seen}). */
    private static final class EventReason {
        final LongAdder events = new LongAdder();
        volatile WeakReference<Object> lastNamed = new WeakReference<>(null);
    }

    /** An owner (weakly, by identity) with a reason. */
    private static final class Seen extends WeakReference<Object> {
        private final int hash;
        private final String reason;

        Seen(Object owner, String reason, ReferenceQueue<Object> queue) {
            super(owner, queue);
            this.reason = reason;
            this.hash = System.identityHashCode(owner) * 31 + reason.hashCode();
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Seen other) || !reason.equals(other.reason)) {
                return false;
            }
            Object mine = get();
            return mine != null && mine == other.get();
        }
    }
}
