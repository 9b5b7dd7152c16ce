package dev.spool.agent.logback;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * How a Logback file appender's stream is routed without changing what the host sees.
 *
 * <p>Logback's {@code FileAppender} writes to a {@code ResilientFileOutputStream}: an
 * {@code OutputStream} over a {@code BufferedOutputStream} over the {@code FileOutputStream}.
 * Code (Logback's own prudent mode among it) casts {@code getOutputStream()} to that class and
 * uses its channel, so the appender keeps its own stream object: only the stream <em>inside</em>
 * it is replaced, by a {@code BufferedOutputStream} of the same size over the routed stream, which
 * itself writes to the original {@code FileOutputStream}. Logback's buffering, flushing, error
 * recovery (it reopens a plain stream after an {@code IOException}) and status messages run
 * unchanged; the routed stream sees exactly the writes plain Logback hands to the file.
 *
 * <p>Left unrouted, each for a reason that keeps plain behaviour exact:
 * <ul>
 *   <li>prudent mode: the appender locks the file around each write and expects the bytes in it
 *       before the lock is released (several processes share the file);
 *   <li>a stream that is not a {@code ResilientFileOutputStream} (an appender subclass opening its
 *       own), or fields that reflection cannot reach (Logback in a named module not opened);
 *   <li>a rolling appender whose triggering policy is not one of those below: a custom policy may
 *       read the active file's length at any time.
 * </ul>
 * Rolling policies: {@code SizeBasedTriggeringPolicy} reads the active file's length, so its
 * {@code maxFileSize} becomes the stream's {@linkplain Plan#lengthLimit() length limit} (past it
 * every byte is in the file before the next check); time-based policies, and size-and-time
 * policies that count bytes themselves ({@code getLengthCounter()} not null, Logback 1.5.8+), do
 * not read the file.
 *
 * <p>Reflection only; called under the appender's stream lock (from {@code setOutputStream}).
 */
public final class LogbackStreams {

    private static final String CORE = "ch:qos:logback:core:".replace(':', '.');
    static final String FILE_APPENDER = CORE + "FileAppender";
    static final String ROLLING_APPENDER = CORE + "rolling.RollingFileAppender";
    static final String RESILIENT_STREAM = CORE + "recovery.ResilientFileOutputStream";
    static final String RESILIENT_BASE = CORE + "recovery.ResilientOutputStreamBase";
    static final String SIZE_POLICY = CORE + "rolling.SizeBasedTriggeringPolicy";
    static final String TIME_POLICY = CORE + "rolling.TimeBasedRollingPolicy";
    static final String DEFAULT_TIME_FNATP = CORE + "rolling.DefaultTimeBasedFileNamingAndTriggeringPolicy";
    static final String SIZE_TIME_FNATP = CORE + "rolling.SizeAndTimeBasedFileNamingAndTriggeringPolicy";

    /** No length limit: the file's length is never read by the appender's policy. */
    public static final long NO_LIMIT = Long.MAX_VALUE;

    private LogbackStreams() {}

    /** A decision for one appender's new stream: routed ({@link #routable()}) or why not. */
    public static final class Plan {
        private final String key;
        private final String reason;
        private final Field inner;
        private final Object resilient;
        private final FileOutputStream file;
        private final int bufferBytes;
        private final long lengthLimit;
        private final String fileName;
        private final boolean rollsByBytes;

        private Plan(String reason, Field inner, Object resilient, FileOutputStream file, int bufferBytes, long lengthLimit,
                     String fileName, boolean rollsByBytes) {
            this(reason, inner, resilient, file, bufferBytes, lengthLimit, fileName, rollsByBytes, null);
        }

        private Plan(String reason, Field inner, Object resilient, FileOutputStream file, int bufferBytes, long lengthLimit,
                     String fileName, boolean rollsByBytes, String key) {
            this.key = key;
            this.reason = reason;
            this.inner = inner;
            this.resilient = resilient;
            this.file = file;
            this.bufferBytes = bufferBytes;
            this.lengthLimit = lengthLimit;
            this.fileName = fileName;
            this.rollsByBytes = rollsByBytes;
        }

        static Plan unrouted(String key, String reason) {
            Plan p = new Plan(reason, null, null, null, 0, NO_LIMIT, null, false, key);
            return p;
        }

        /** The plain-path reason counted on the Agent bean ({@code logback-prudent}, ...), or null when routable. */
        public String key() {
            return key;
        }

        /** Whether the appender's triggering policy looks at the bytes written (the file's length or its own count). */
        public boolean rollsByBytes() {
            return rollsByBytes;
        }

        public boolean routable() {
            return reason == null;
        }

        /** Why the stream stays unrouted, or null. */
        public String reason() {
            return reason;
        }

        /** The appender's own file stream: what the routed stream writes to. */
        public FileOutputStream file() {
            return file;
        }

        public String fileName() {
            return fileName;
        }

        /** The length at which the appender's policy may roll, or {@link #NO_LIMIT}. */
        public long lengthLimit() {
            return lengthLimit;
        }

        /** The file's length now (at open: what is already there in append mode). */
        public long currentLength() {
            return fileName == null ? 0 : new File(fileName).length();
        }

        /** Puts {@code routed} under the appender's own buffer, inside its own stream object. */
        public void install(OutputStream routed) throws IllegalAccessException {
            inner.set(resilient, new BufferedOutputStream(routed, bufferBytes));
        }
    }

    public static boolean isFileAppender(Class<?> type) {
        return is(type, FILE_APPENDER);
    }

    /** Decides how the stream {@code out} that {@code appender} is about to use may be routed. */
    public static Plan plan(Object appender, OutputStream out) {
        try {
            if (out == null || !is(out.getClass(), RESILIENT_STREAM)) {
                return Plan.unrouted("logback-stream", "its stream is a " + (out == null ? "null" : out.getClass().getName())
                        + ", not Logback's ResilientFileOutputStream");
            }
            if (Boolean.TRUE.equals(appender.getClass().getMethod("isPrudent").invoke(appender))) {
                return Plan.unrouted("logback-prudent", "prudent mode locks the file around each write");
            }
            long limit = NO_LIMIT;
            boolean byBytes = false;
            if (is(appender.getClass(), ROLLING_APPENDER)) {
                Object policy = appender.getClass().getMethod("getTriggeringPolicy").invoke(appender);
                limit = lengthLimit(policy);
                byBytes = limit != NO_LIMIT || countsBytes(policy);
                if (limit < 0) {
                    return Plan.unrouted("logback-length-policy", "its triggering policy " + (policy == null ? "null" : policy.getClass().getName())
                            + " may read the file's length");
                }
            }
            Object size = field(appender, FILE_APPENDER, "bufferSize").get(appender);
            long bufferBytes = (Long) size.getClass().getMethod("getSize").invoke(size);
            FileOutputStream file = (FileOutputStream) field(out, RESILIENT_STREAM, "fos").get(out);
            File name = (File) out.getClass().getMethod("getFile").invoke(out);
            if (file == null || name == null || bufferBytes <= 0 || bufferBytes > Integer.MAX_VALUE) {
                return Plan.unrouted("logback-not-open", "its stream is not open");
            }
            Field inner = field(out, RESILIENT_BASE, "os");
            return new Plan(null, inner, out, file, (int) bufferBytes, limit, name.getPath(), byBytes);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Plan.unrouted("logback-inaccessible", "Logback's fields are not accessible (" + e + ")");
        }
    }

    /** The size at which {@code policy} rolls by the file's length; {@link #NO_LIMIT}; or -1 when unknown. */
    static long lengthLimit(Object policy) throws ReflectiveOperationException {
        if (policy == null) {
            return -1;
        }
        Class<?> type = policy.getClass();
        if (is(type, SIZE_POLICY)) {
            Object max = type.getMethod("getMaxFileSize").invoke(policy);
            return max == null ? -1 : (Long) max.getClass().getMethod("getSize").invoke(max);
        }
        if (is(type, TIME_POLICY)) {
            Object fnatp = type.getMethod("getTimeBasedFileNamingAndTriggeringPolicy").invoke(policy);
            if (fnatp == null) {
                return -1;
            }
            if (is(fnatp.getClass(), DEFAULT_TIME_FNATP) && !is(fnatp.getClass(), SIZE_TIME_FNATP)) {
                return NO_LIMIT;
            }
            if (is(fnatp.getClass(), SIZE_TIME_FNATP)) {
                Method counter = lengthCounterMethod(fnatp.getClass());
                return counter != null && counter.invoke(fnatp) != null ? NO_LIMIT : -1;
            }
        }
        return -1;
    }

    /** Whether {@code policy} (a routable one) rolls by a byte count of its own: a size-and-time policy. */
    static boolean countsBytes(Object policy) throws ReflectiveOperationException {
        if (policy == null || !is(policy.getClass(), TIME_POLICY)) {
            return false;
        }
        Object fnatp = policy.getClass().getMethod("getTimeBasedFileNamingAndTriggeringPolicy").invoke(policy);
        return fnatp != null && is(fnatp.getClass(), SIZE_TIME_FNATP);
    }

    private static Method lengthCounterMethod(Class<?> type) {
        try {
            return type.getMethod("getLengthCounter");
        } catch (NoSuchMethodException e) {
            return null; // Logback before 1.5.8: the policy reads the file's length
        }
    }

    static boolean is(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The field {@code name} declared by the class {@code owner} in {@code instance}'s hierarchy, made accessible. */
    private static Field field(Object instance, String owner, String name) throws ReflectiveOperationException {
        for (Class<?> c = instance.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(owner)) {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            }
        }
        throw new NoSuchFieldException(owner + "." + name);
    }
}
