package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Differential: {@link CompiledSimpleFormatter} over a {@link JulCapture} against the JDK's
 * {@code SimpleFormatter} over the same {@code LogRecord}, for every format of
 * {@link SimpleFormatCorpus}, time zones with DST transitions, non-English locales, and instants
 * around midnight, new year and the transitions.
 */
@ExtendWith(RestoresFormatDefaults.class)
class CompiledSimpleFormatterTest {

    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
            "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Chatham");
    private static final List<Locale> LOCALES = List.of(Locale.US, Locale.GERMANY, Locale.FRANCE, Locale.JAPAN,
            Locale.forLanguageTag("ar-EG"), Locale.forLanguageTag("th-TH-u-nu-thai"), Locale.forLanguageTag("tr-TR"),
            Locale.forLanguageTag("hi-IN"));
    private static final Level NOTICE = new Level("NOTICE", 850) { };

    public static final class Bundle extends ListResourceBundle {
        @Override
        protected Object[][] getContents() {
            return new Object[][] {{"greeting", "Hallo {0}, du hast {1} Nachrichten"}, {"plain", "ohne Parameter"},
                    {"broken", "kaputt {0"}};
        }
    }

    @Test
    void shouldFormatEveryRecordLikeTheJdksSimpleFormatterForEveryFormatZoneAndLocale() {
        Random random = new Random(13);
        int compared = 0;
        JulMessageFormats formats = new JulMessageFormats();
        for (String format : SimpleFormatCorpus.ALL) {
            System.setProperty(CompiledSimpleFormatter.FORMAT_PROPERTY, format);
            SimpleFormatter jdk = new SimpleFormatter(); // resolves the property now
            CompiledSimpleFormatter ours = CompiledSimpleFormatter.compile(CompiledSimpleFormatter.resolveFormat(null));
            for (String zoneId : ZONES) {
                TimeZone.setDefault(TimeZone.getTimeZone(zoneId));
                for (int k = 0; k < 2; k++) { // two of the locales (at random) for each format and zone: each locale ~77 times
                    Locale l = LOCALES.get(random.nextInt(LOCALES.size()));
                    Locale.setDefault(l);
                    for (Instant at : instants(ZoneId.of(zoneId), random)) {
                        LogRecord r = randomRecord(random, at);
                        String expected = outcome(() -> jdk.format(r));
                        // the writer's path (deferred messages formatted straight into the line with the log's
                        // parsed patterns and integer texts) and the JDK's MessageFormat path, alternately
                        JulMessageFormats writer = compared % 2 == 0 ? formats : null;
                        String actual = outcome(() -> ours.format(JulCapture.capture(r, ours.uses(2), ours.uses(5)), writer));
                        assertEquals(expected, actual, () -> "format " + format + " zone " + zoneId + " locale " + l + " at " + at);
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 4_000, "compared " + compared);
    }

    @Test
    void shouldUseTheDefaultFormatWhenTheConfiguredOneIsInvalidOrAbsent() {
        assertEquals(CompiledSimpleFormatter.DEFAULT_FORMAT, CompiledSimpleFormatter.resolveFormat(null));
        assertEquals(CompiledSimpleFormatter.DEFAULT_FORMAT, CompiledSimpleFormatter.resolveFormat("%1$tQ %7$s"));
        assertEquals("%5$s%n", CompiledSimpleFormatter.resolveFormat("%5$s%n"));
        System.setProperty(CompiledSimpleFormatter.FORMAT_PROPERTY, "%4$s%n");
        assertEquals("%4$s%n", CompiledSimpleFormatter.resolveFormat("%5$s%n")); // the system property wins, as in the JDK
    }

    @Test
    void shouldKeepTheMessageAsItWasAtTheCallWhenAMutableParameterChangesLater() {
        System.setProperty(CompiledSimpleFormatter.FORMAT_PROPERTY, "%5$s%n");
        CompiledSimpleFormatter ours = CompiledSimpleFormatter.compile(CompiledSimpleFormatter.resolveFormat(null));
        StringBuilder mutable = new StringBuilder("before");
        Object[] params = {mutable, "fixed"};
        LogRecord r = new LogRecord(Level.INFO, "{0} {1}");
        r.setParameters(params);
        JulCapture captured = JulCapture.capture(r, false, true);
        mutable.setLength(0);
        mutable.append("after");
        params[1] = "changed";
        assertEquals("before fixed" + System.lineSeparator(), ours.format(captured));
        LogRecord immutable = new LogRecord(Level.INFO, "{0} {1}");
        Object[] values = {"a", 1};
        immutable.setParameters(values);
        JulCapture deferred = JulCapture.capture(immutable, false, true);
        values[0] = "reused array"; // the capture keeps its own copy
        assertEquals("a 1" + System.lineSeparator(), ours.format(deferred));
    }

    /** The text, or the exception's class when formatting throws (a null message with a bundle: both must throw). */
    static String outcome(java.util.function.Supplier<String> format) {
        try {
            return format.get();
        } catch (JulCapture.HostCodeFailed e) {
            return "threw " + e.failure().getClass().getName(); // Spool's capture failing where the JDK's format fails, with its exception
        } catch (RuntimeException e) {
            return "threw " + e.getClass().getName();
        }
    }

    @Test
    void shouldRefuseALevelWhoseLocalizedNameIsOverridden() {
        Level odd = new Level("ODD", 801) {
            @Override
            public String getLocalizedName() {
                return "not what the JDK's formatter prints";
            }
        };
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> JulCapture.capture(new LogRecord(odd, "m"), false, true));
    }

    static List<Instant> instants(ZoneId zone, Random random) {
        List<Instant> out = new ArrayList<>();
        out.add(Instant.ofEpochSecond(1_700_000_000L + random.nextInt(100_000_000), random.nextInt(1_000_000_000)));
        out.add(Instant.ofEpochSecond(-1 - random.nextInt(1_000_000_000), random.nextInt(1_000_000_000))); // %tQ negative
        LocalDateTime newYear = LocalDateTime.of(2026 + random.nextInt(3), 1, 1, 0, 0);
        out.add(newYear.atZone(zone).toInstant().minusNanos(1 + random.nextInt(1_000_000)));
        out.add(newYear.atZone(zone).toInstant().plusNanos(random.nextInt(1_000_000)));
        LocalDateTime midnight = LocalDateTime.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28), 0, 0);
        out.add(midnight.atZone(zone).toInstant().minusMillis(1));
        out.add(midnight.atZone(zone).toInstant().plusNanos(999_999));
        ZoneOffsetTransition t = zone.getRules().nextTransition(Instant.ofEpochSecond(1_750_000_000L + random.nextInt(50_000_000)));
        if (t != null) {
            out.add(t.getInstant().minusNanos(1));
            out.add(t.getInstant());
            out.add(t.getInstant().plusSeconds(1800 + random.nextInt(60)));
        }
        return out;
    }

    static LogRecord randomRecord(Random random, Instant at) {
        Level[] levels = {Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.FINER, Level.FINEST, NOTICE};
        Level level = levels[random.nextInt(levels.length)];
        String[] messages = {"plain message", "user {0} did {1}", "{0,number,#.##} and {1}", "'{0}' quoted", "brace at end {",
                "{x} not a digit", "greeting", "plain", "broken", null, "{2} beyond the parameters", "ünïcödé ✓ {0}"};
        LogRecord r = new LogRecord(level, messages[random.nextInt(messages.length)]);
        r.setInstant(at);
        String[] loggers = {"com.example.App", "", null, "a.very.long.logger.name.that.exceeds.widths.and.precisions"};
        r.setLoggerName(loggers[random.nextInt(loggers.length)]);
        switch (random.nextInt(4)) {
            case 0 -> { }
            case 1 -> r.setParameters(new Object[0]);
            case 2 -> r.setParameters(new Object[] {"alice", random.nextBoolean() ? random.nextInt() : (long) random.nextInt(2000) - 1000,
                    null, (short) random.nextInt(), random.nextLong()});
            default -> r.setParameters(new Object[] {new Date(0), 3.14159, new StringBuilder("sb"), null, 'c', 7L});
        }
        if (random.nextInt(4) == 0) {
            r.setResourceBundle(new Bundle());
        }
        switch (random.nextInt(3)) {
            case 0 -> { r.setSourceClassName("com.example.Caller"); r.setSourceMethodName(random.nextBoolean() ? "run" : null); }
            case 1 -> { r.setSourceClassName(null); r.setSourceMethodName(null); } // inferred (this test's frames)
            default -> { }
        }
        if (random.nextInt(5) == 0) {
            IllegalStateException e = new IllegalStateException("outer", new java.io.IOException("cause " + random.nextInt()));
            e.addSuppressed(new RuntimeException("suppressed"));
            r.setThrown(e);
        }
        return r;
    }
}
