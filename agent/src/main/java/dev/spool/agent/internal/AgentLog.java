package dev.spool.agent.internal;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's own diagnostics: one line each, to stderr, prefixed {@code [spool]}, filtered by
 * {@code spool.log.level} (error, warn, info, debug; off silences all). A problem with a key is
 * reported once per JVM however often it recurs. Never uses java.util.logging (the host's
 * LogManager must not be initialised by the agent).
 */
public final class AgentLog {

    public enum Level { OFF, ERROR, WARN, INFO, DEBUG }

    private static volatile Level level = Level.INFO;
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private AgentLog() {}

    /** Sets the level from a {@code spool.log.level} value; an unknown value keeps info. */
    public static void level(String name) {
        if (name == null) {
            return;
        }
        try {
            level = Level.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            level = Level.INFO;
        }
    }

    public static boolean enabled(Level at) {
        return at != Level.OFF && at.ordinal() <= level.ordinal();
    }

    public static void log(Level at, String message) {
        if (enabled(at)) {
            System.err.println("[spool] " + message);
        }
    }

    public static void warn(String message) {
        log(Level.WARN, message);
    }

    public static void info(String message) {
        log(Level.INFO, message);
    }

    public static void debug(String message) {
        log(Level.DEBUG, message);
    }

    /** Logs {@code message} at warn the first time {@code key} is reported; returns whether it did. */
    public static boolean once(String key, String message) {
        if (REPORTED.add(key)) {
            warn(message);
            return true;
        }
        return false;
    }
}
