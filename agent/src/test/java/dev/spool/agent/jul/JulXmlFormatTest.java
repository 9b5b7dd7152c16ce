package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.XMLFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Differential: {@link JulXmlFormat} over a {@link JulXmlCapture} against the JDK's
 * {@code XMLFormatter} over the same {@code LogRecord}, with {@code useInstant} on (the default)
 * and off (the old local date, in several time zones): random records with escaped characters,
 * null logger names, sources, sequence numbers and long thread ids, messages with and without
 * parameters (the {@code <param>} list, a parameter that is null, whose {@code toString()} is
 * null or throws), resource bundles (key and catalog), nanosecond instants and exceptions with
 * causes.
 */
class JulXmlFormatTest {

    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
            "Asia/Kolkata");
    private static final Level NOTICE = new Level("NOTICE <&>", 850) { };

    private TimeZone zone;
    private Locale locale;

    public static final class Bundle extends ListResourceBundle {
        @Override
        protected Object[][] getContents() {
            return new Object[][] {{"greeting", "Hallo {0} & <du>"}, {"plain", "ohne Parameter"}, {"nulls", "x {0}"}};
        }
    }

    private static final class Odd {
        private final int kind;

        Odd(int kind) {
            this.kind = kind;
        }

        @Override
        public String toString() {
            if (kind == 0) {
                throw new IllegalStateException("toString fails");
            }
            return kind == 1 ? null : "odd <" + kind + ">";
        }
    }

    @BeforeEach
    void remember() {
        zone = TimeZone.getDefault();
        locale = Locale.getDefault();
    }

    @AfterEach
    void restore() throws IOException {
        TimeZone.setDefault(zone);
        Locale.setDefault(locale);
        LogManager.getLogManager().readConfiguration();
    }

    @Test
    void shouldFormatEveryRecordLikeTheJdksXmlFormatterWithAndWithoutUseInstant() throws IOException {
        Random random = new Random(1717);
        int compared = 0;
        for (boolean useInstant : new boolean[] {true, false}) {
            configure(useInstant);
            XMLFormatter jdk = new XMLFormatter();
            JulXmlFormat ours = new JulXmlFormat(useInstant);
            for (String zoneId : ZONES) {
                TimeZone.setDefault(TimeZone.getTimeZone(zoneId));
                for (int i = 0; i < 600; i++) {
                    LogRecord r = randomRecord(random);
                    String expected = outcome(() -> jdk.format(r));
                    String actual = outcome(() -> ours.format(ours.capture(r, null)));
                    assertEquals(expected, actual, () -> "useInstant " + useInstant + " zone " + zoneId);
                    compared++;
                }
            }
        }
        assertTrue(compared >= 6000, "compared " + compared);
    }

    static void configure(boolean useInstant) throws IOException {
        String config = "java.util.logging.XMLFormatter.useInstant = " + useInstant + "\n";
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(config.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** The text, or the exception's class when formatting throws (both must throw alike). */
    static String outcome(java.util.function.Supplier<String> format) {
        try {
            return format.get();
        } catch (JulCapture.HostCodeFailed e) {
            return "threw " + e.failure().getClass().getName(); // Spool's capture failing where the JDK's format fails, with its exception
        } catch (RuntimeException e) {
            return "threw " + e.getClass().getName();
        }
    }

    static LogRecord randomRecord(Random random) {
        Level[] levels = {Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.FINEST, NOTICE};
        String[] messages = {"plain message", "user {0} did {1}", "no braces & <tags>", "greeting", "plain", "nulls",
            null, "{0,number,#.##} and {1}", "ünïcödé ✓ {0}", ""};
        LogRecord r = new LogRecord(levels[random.nextInt(levels.length)], messages[random.nextInt(messages.length)]);
        r.setInstant(Instant.ofEpochSecond(1_600_000_000L + random.nextInt(200_000_000),
                random.nextBoolean() ? random.nextInt(1_000) * 1_000_000 : random.nextInt(1_000_000_000)));
        String[] loggers = {"com.example.App", "", null, "a<b>&c"};
        r.setLoggerName(loggers[random.nextInt(loggers.length)]);
        r.setSequenceNumber(random.nextBoolean() ? random.nextInt(1000) : random.nextLong());
        r.setLongThreadID(random.nextBoolean() ? random.nextInt(100) : random.nextLong());
        switch (random.nextInt(6)) {
            case 0 -> { }
            case 1 -> r.setParameters(new Object[0]);
            case 5 -> r.setParameters(new Object[] {"only <one>"});
            case 2 -> r.setParameters(new Object[] {"alice & <bob>", 42, null});
            case 3 -> r.setParameters(new Object[] {new Odd(0), new Odd(1), new Odd(2), 3.5});
            default -> r.setParameters(new Object[] {new StringBuilder("sb"), 'c', 7L});
        }
        if (random.nextInt(3) == 0) {
            r.setResourceBundle(new Bundle());
            if (random.nextBoolean()) {
                r.setResourceBundleName("com.example.Bundle<&>");
            }
        }
        switch (random.nextInt(3)) {
            case 0 -> { r.setSourceClassName("com.example.Caller<&>"); r.setSourceMethodName(random.nextBoolean() ? "run" : null); }
            case 1 -> { r.setSourceClassName(null); r.setSourceMethodName(null); }
            default -> { } // inferred: no logger frame here, so none
        }
        if (random.nextInt(5) == 0) {
            IllegalStateException e = new IllegalStateException("outer <&>", new IOException("cause " + random.nextInt()));
            e.addSuppressed(new RuntimeException("suppressed"));
            r.setThrown(e);
        }
        return r;
    }
}
