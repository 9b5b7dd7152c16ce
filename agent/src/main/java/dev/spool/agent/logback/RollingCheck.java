package dev.spool.agent.logback;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.locks.ReentrantLock;
import dev.spool.bridge.Hooks;

/**
 * A Logback {@code RollingFileAppender}'s rolling check, moved from the caller's thread to the
 * thread that encodes its events: what {@code RollingFileAppender.subAppend} does before it writes
 * ({@code triggeringPolicy.isTriggeringEvent(currentlyActiveFile, event)}, then {@code rollover()}),
 * run for each queued event just before that event is encoded and written, so the check sees every
 * earlier event's bytes (the file's length or the policy's own count) exactly as plain Logback's
 * check on the caller's thread does.
 *
 * <p>Which policies (exact classes; a subclass may read anything at any time): Logback's
 * {@code SizeBasedTriggeringPolicy} (reads the active file's length, exact through the routed
 * stream's length limit; its {@code InvocationGate} reads {@code System.currentTimeMillis()} here, at
 * encoding) and {@code SizeAndTimeBasedRollingPolicy} (or {@code TimeBasedRollingPolicy} with a
 * {@code SizeAndTimeBasedFileNamingAndTriggeringPolicy}) counting bytes itself (Logback 1.5.8+). The latter reads its clock through
 * {@code getCurrentTime()}, which Spool weaves: during this check it returns the value the caller's
 * thread read when it queued the event ({@link #callerClock}), so time-based rolls fall between the
 * same events as plain.
 *
 * <p>Locks: the drainer holds the appender's {@code triggeringPolicyLock} (taken before its
 * {@code streamWriteLock}, Logback's own order) around the check, as plain {@code subAppend} does.
 * The roll runs on the draining thread with Spool's thread mark lifted (so the new file's stream is
 * routed) and re-entrant drains of the same queue refused (the roll's {@code closeOutputStream}).
 *
 * <p>Example: {@code if (check.rolls(event, clock)) ... // the event is written after, into the new file}
 */
final class RollingCheck {

    private static final String CORE = "ch:qos:logback:core:rolling:".replace(':', '.');
    private static final String ROLLING_APPENDER = CORE + "RollingFileAppender";
    private static final String SIZE_POLICY = CORE + "SizeBasedTriggeringPolicy";
    private static final String TIME_POLICY = CORE + "TimeBasedRollingPolicy";
    private static final String SIZE_TIME = CORE + "SizeAndTimeBasedFileNamingAndTriggeringPolicy";
    private static final String SIZE_TIME_POLICY = CORE + "SizeAndTimeBasedRollingPolicy";
    private static final String TRIGGERING_POLICY = CORE + "TriggeringPolicy";
    /** System property: {@code false} keeps size-based rolling appenders encoding on the caller's thread (measurement). */
    static final String PROPERTY = "spool.logback.rollOnWriter";

    private final Object appender;
    private final ReentrantLock policyLock;
    private final Object policy;
    private final MethodHandle triggering;   // (policy, File, event) -> boolean
    private final MethodHandle rollover;     // (appender) -> void
    private final MethodHandle activeFile;   // (appender) -> File
    private final MethodHandle clock;        // (fnatp) -> long, or null (the check reads no woven clock)
    private final Object clockOwner;

    private RollingCheck(Object appender, ReentrantLock policyLock, Object policy, MethodHandle triggering,
                         MethodHandle rollover, MethodHandle activeFile, MethodHandle clock, Object clockOwner) {
        this.appender = appender;
        this.policyLock = policyLock;
        this.policy = policy;
        this.triggering = triggering;
        this.rollover = rollover;
        this.activeFile = activeFile;
        this.clock = clock;
        this.clockOwner = clockOwner;
    }

    /** A rolling appender's check that can move to the encoding thread, or null when it must stay on the caller's. */
    static RollingCheck of(Object appender) {
        if ("false".equals(System.getProperty(PROPERTY))) {
            return null;
        }
        try {
            Class<?> base = appender.getClass();
            if (!base.getName().equals(ROLLING_APPENDER)) {
                return null; // a subclass may override subAppend or rollover with its own expectations
            }
            Object policy = base.getMethod("getTriggeringPolicy").invoke(appender);
            Object lock = field(base, "triggeringPolicyLock").get(appender);
            if (policy == null || !(lock instanceof ReentrantLock)) {
                return null;
            }
            MethodHandle clock = null;
            Object clockOwner = null;
            String type = policy.getClass().getName();
            if (type.equals(TIME_POLICY) || type.equals(SIZE_TIME_POLICY)) {
                clockOwner = policy.getClass().getMethod("getTimeBasedFileNamingAndTriggeringPolicy").invoke(policy);
                if (clockOwner == null || !clockOwner.getClass().getName().equals(SIZE_TIME)
                        || clockOwner.getClass().getMethod("getLengthCounter").invoke(clockOwner) == null) {
                    return null; // time only (checked on the caller's thread), or a size policy reading the file
                }
                clock = MethodHandles.publicLookup().unreflect(clockOwner.getClass().getMethod("getCurrentTime"))
                        .asType(MethodType.methodType(long.class, Object.class));
            } else if (!type.equals(SIZE_POLICY)) {
                return null;
            }
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Class<?> trigger = Class.forName(TRIGGERING_POLICY, false, base.getClassLoader());
            Method isTriggering = trigger.getMethod("isTriggeringEvent", File.class, Object.class);
            MethodHandle triggering = lookup.unreflect(isTriggering)
                    .asType(MethodType.methodType(boolean.class, Object.class, File.class, Object.class));
            MethodHandle rollover = lookup.unreflect(base.getMethod("rollover")).asType(MethodType.methodType(void.class, Object.class));
            MethodHandle active = lookup.unreflectGetter(field(base, "currentlyActiveFile"))
                    .asType(MethodType.methodType(File.class, Object.class));
            return new RollingCheck(appender, (ReentrantLock) lock, policy, triggering, rollover, active, clock, clockOwner);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // another Logback: the check stays on the caller's thread
        }
    }

    ReentrantLock policyLock() {
        return policyLock;
    }

    /** Whether the current thread holds the policy lock (a drain that could not take it writes without checks). */
    boolean held() {
        return policyLock.isHeldByCurrentThread();
    }

    /** On the caller's thread, where plain Logback checks: the clock reading the check must use ({@code 0}: none needed). */
    long callerClock() {
        if (clock == null) {
            return 0;
        }
        try {
            return (long) clock.invokeExact(clockOwner);
        } catch (Throwable t) {
            return System.currentTimeMillis();
        }
    }

    /**
     * Plain {@code subAppend}'s check for {@code event}, on the drainer (holding the policy lock and the
     * appender's stream lock): rolls when the policy says so. Throws what the policy or the roll throws
     * (the caller reports it as Logback's {@code doAppend} would, and the event is not written).
     */
    void check(Object event, long callerClock) throws Throwable {
        boolean mark = Hooks.markSpoolThread(false); // the roll's new stream is routed like a host thread's
        boolean behalf = Hooks.markOnSpoolsBehalf(true); // but its looks at the folder wait for no other log
        long was = clock == null ? Long.MIN_VALUE : Hooks.useLogClock(callerClock);
        try {
            if ((boolean) triggering.invokeExact(policy, (File) activeFile.invokeExact(appender), event)) {
                rollover.invokeExact(appender);
            }
        } finally {
            if (clock != null) {
                Hooks.useLogClock(was);
            }
            Hooks.markOnSpoolsBehalf(behalf);
            Hooks.markSpoolThread(mark);
        }
    }

    /** A queued event of a rolling appender with the clock its check reads. */
    record Checked(Object event, long clock) {}

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
