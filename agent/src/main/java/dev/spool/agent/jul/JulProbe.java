package dev.spool.agent.jul;

import java.time.Instant;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Checks a compiled format against the handler's own {@code SimpleFormatter} instance (whose format
 * string is private: it was resolved when the formatter was made, maybe from another value than
 * now) on probe records with every argument distinct: source and no source, a parameter, a thrown.
 */
final class JulProbe {

    private JulProbe() {}

    static boolean matches(Formatter jdk, CompiledSimpleFormatter compiled) {
        for (int i = 0; i < 3; i++) {
            LogRecord r = new LogRecord(i == 2 ? Level.WARNING : Level.INFO, "probe {0} message");
            r.setInstant(Instant.ofEpochSecond(1_234_567_890L + i * 86_399L, 123_456_789));
            r.setLoggerName(i == 1 ? null : "spool.probe.logger");
            r.setParameters(new Object[] {"p" + i});
            r.setSourceClassName(i == 1 ? null : "spool.probe.Source");
            r.setSourceMethodName(i == 0 ? "method" : null);
            if (i == 2) {
                r.setThrown(new IllegalStateException("probe"));
            }
            String expected = jdk.format(r);
            String actual = compiled.format(JulCapture.capture(r, compiled.uses(2), compiled.uses(5)));
            if (!expected.equals(actual)) {
                return false;
            }
        }
        return true;
    }
}
