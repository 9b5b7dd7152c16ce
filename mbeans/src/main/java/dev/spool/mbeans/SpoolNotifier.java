package dev.spool.mbeans;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;

/**
 * Sends Spool's JMX notifications, rate-limited per type so a storm of drops or errors cannot
 * flood a JConsole: at most {@link #MAX_PER_WINDOW} notifications of one type per
 * {@link #WINDOW_MILLIS}; the ones held back are counted and the count is carried in the
 * message and user data ({@code suppressed}) of the next one sent.
 *
 * <p>Thread-safe; {@link #send} never blocks on listeners (the JDK's broadcaster delivers on the
 * calling thread, so listeners are expected to be JMX connectors that queue).
 */
public final class SpoolNotifier extends NotificationBroadcasterSupport {
    /** A flush of the buffer completed. User data: files written. */
    public static final String FLUSH_COMPLETED = "dev.spool.flush.completed";
    /** A buffered file was changed on disk by someone else; its content went to a conflict file. */
    public static final String CONFLICT = "dev.spool.conflict";
    /** A sink dropped events under policy {@code drop}. */
    public static final String EVENTS_DROPPED = "dev.spool.events.dropped";
    /** A write waited at the buffer's memory bound for the flush to catch up. User data: milliseconds waited. */
    public static final String BACKPRESSURE = "dev.spool.buffer.backpressure";
    /** A write failed (the data is kept for retry). */
    public static final String WRITE_ERROR = "dev.spool.write.error";

    static final int MAX_PER_WINDOW = 5;
    static final long WINDOW_MILLIS = 1000;

    private final Object source;
    private final String[] types;
    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    SpoolNotifier(Object source, String... types) {
        this.source = source;
        this.types = types.clone();
    }

    /**
     * Sends one notification unless its type is over the rate limit.
     *
     * @return whether it was sent
     */
    public boolean send(String type, String message, Object userData) {
        Window w = windows.computeIfAbsent(type, t -> new Window());
        long suppressed;
        synchronized (w) {
            long now = System.currentTimeMillis();
            if (now - w.start >= WINDOW_MILLIS) {
                w.start = now;
                w.sent = 0;
            }
            if (w.sent >= MAX_PER_WINDOW) {
                w.suppressed++;
                return false;
            }
            w.sent++;
            suppressed = w.suppressed;
            w.suppressed = 0;
        }
        String text = suppressed == 0 ? message
                : message + " (" + suppressed + " similar notifications suppressed)";
        Notification n = new Notification(type, source, sequence.incrementAndGet(), text);
        n.setUserData(userData);
        sendNotification(n);
        return true;
    }

    MBeanNotificationInfo[] infos() {
        return new MBeanNotificationInfo[] {
            new MBeanNotificationInfo(types, Notification.class.getName(), "Spool events: " + String.join(", ", types))
        };
    }

    private static final class Window {
        long start;
        int sent;
        long suppressed;
    }
}
