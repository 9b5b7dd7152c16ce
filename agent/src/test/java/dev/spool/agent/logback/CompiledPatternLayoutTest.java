package dev.spool.agent.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.FormattingConverter;
import org.junit.jupiter.api.Test;

/**
 * The compiled layout against Logback's own {@code PatternLayoutEncoder}: for every event, the
 * compiled bytes (when it does not leave the event to Logback) equal {@code encoder.encode(event)}.
 */
class CompiledPatternLayoutTest {

    private static final Charset[] CHARSETS = {StandardCharsets.UTF_8, null, StandardCharsets.ISO_8859_1, StandardCharsets.US_ASCII};
    private static final String[] ZONES = {"UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Sao_Paulo",
        "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin", "America/St_Johns"};
    private static final String[] DATES = {"yyyy-MM-dd HH:mm:ss.SSS", "ISO8601", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
        "EEE MMM dd HH:mm:ss.SSS zzz yyyy", "\"yyyy-MM-dd HH:mm:ss,SSS Z\"", "HH:mm:ss", "dd/MM/yy hh:mm:ss.SSS a VV", "SSS"};

    /** A converter the agent does not know: Logback writes it, Spool encodes it. */
    public static final class Upper extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            String m = event.getFormattedMessage();
            return m == null ? "-" : m.toUpperCase(java.util.Locale.ROOT);
        }
    }

    @Test
    void shouldWriteLogbacksBytesForEveryPublicAndEdgePattern() throws Exception {
        List<String> patterns = new ArrayList<>(LogbackPatternCorpus.PUBLIC);
        patterns.addAll(LogbackPatternCorpus.EDGES);
        patterns.add("%-20upper|%.5upper|%m%n");
        long compiled = 0;
        long total = 0;
        int seed = 0;
        for (String pattern : patterns) {
            for (Charset cs : CHARSETS) {
                LogbackEvents events = new LogbackEvents(++seed, 1_700_000_000_000L + seed * 7_919_000L);
                Map<String, String> rules = new HashMap<>();
                rules.put("upper", Upper.class.getName());
                events.context().putObject(CoreConstants.PATTERN_RULE_REGISTRY, rules);
                long[] counts = compare(events, pattern, cs, 600, null);
                compiled += counts[0];
                total += counts[1];
            }
        }
        assertTrue(compiled > total * 3 / 4, "the compiled layout wrote " + compiled + " of " + total + " events");
    }

    @Test
    void shouldWriteLogbacksDatesInEveryZoneAcrossTransitionsMidnightsAndNewYears() throws Exception {
        int seed = 1000;
        for (String zone : ZONES) {
            List<Long> times = times(ZoneId.of(zone));
            for (String date : DATES) {
                for (String z : new String[] {", " + zone, ""}) {
                    LogbackEvents events = new LogbackEvents(++seed, 0);
                    String pattern = "%d{" + date + z + "} %-5level %msg%n";
                    compare(events, pattern, StandardCharsets.UTF_8, 0, times);
                }
            }
        }
    }

    @Test
    void shouldApplyEveryFormatModifierAsLogback() throws Exception {
        String[] converters = {"level", "logger", "logger{10}", "thread", "msg", "X{user}", "X{user:-none}", "marker", "ex",
            "d{HH:mm:ss.SSS}", "d", "relative", "mdc"};
        String[] modifiers = {"", "-5", "5", ".3", ".-3", "10.20", "-10.-20", "-40.40", "1.1", "0", "-0.2", "30"};
        int seed = 2000;
        for (String c : converters) {
            StringBuilder p = new StringBuilder();
            for (String m : modifiers) {
                p.append('[').append('%').append(m).append(c).append(']');
            }
            compare(new LogbackEvents(++seed, 1_600_000_000_000L), p.append("%n").toString(), StandardCharsets.UTF_8, 600, null);
        }
    }

    @Test
    void shouldLeaveToLogbackCharsetsAndLinesItCannotEncodeExactly() throws Exception {
        LogbackEvents events = new LogbackEvents(7, 1_700_000_000_000L);
        assertNull(LogbackEvents.compile(events.encoder("%m%n", StandardCharsets.UTF_16), s -> { }), "UTF-16 is left to Logback");
        PatternLayoutEncoder enc = events.encoder("%m%n", StandardCharsets.UTF_8);
        CompiledPatternLayout compiled = LogbackEvents.compile(enc, s -> fail(s));
        assertNotNull(compiled);
        LoggingEvent pairs = events.at(1_700_000_000_000L, "ends with a high surrogate \uD83D", 0);
        assertNull(compiled.encode(pairs), "a high surrogate before %n could pair in the whole line");
        LoggingEvent plain = events.at(1_700_000_000_001L, "plain", 0);
        byte[] ours = compiled.encode(plain);
        assertNotNull(ours);
        assertEquals(new String(enc.encode(plain), StandardCharsets.UTF_8), new String(ours, StandardCharsets.UTF_8));
        enc.getLayout().stop();
        assertNull(compiled.encode(plain), "a stopped layout is Logback's to handle");
    }

    @Test
    void shouldGiveUpForGoodWhenItsBytesDifferFromLogbacks() throws Exception {
        LogbackEvents events = new LogbackEvents(8, 1_700_000_000_000L);
        PatternLayoutEncoder enc = events.encoder("%-5level %m%n", StandardCharsets.UTF_8);
        List<String> reports = new ArrayList<>();
        CompiledPatternLayout compiled = LogbackEvents.compile(enc, reports::add);
        int written = 0;
        for (int i = 0; i < 10; i++) {
            written += compiled.encode(events.next()) != null ? 1 : 0;
        }
        assertTrue(written > 5, written + " of 10 compiled");
        java.lang.reflect.Field headField = ch.qos.logback.core.pattern.PatternLayoutBase.class.getDeclaredField("head");
        headField.setAccessible(true);
        Object head = headField.get(enc.getLayout()); // changed behind the compiled layout's back
        ((FormattingConverter<?>) head).getFormattingInfo().setMin(12);
        for (int i = 0; i <= 3 * CompiledPatternLayout.CHECK_EVERY && reports.isEmpty(); i++) {
            compiled.encode(events.next());
        }
        assertEquals(1, reports.size(), "one report when the sample differs");
        assertTrue(reports.get(0).contains("%-5level %m%n"), reports.get(0));
        assertNull(compiled.encode(events.next()), "given up for good");
    }

    /** Compares {@code count} events (or one per time in {@code times}); returns {compiled, total}. */
    private static long[] compare(LogbackEvents events, String pattern, Charset cs, int count, List<Long> times) throws Exception {
        PatternLayoutEncoder enc = events.encoder(pattern, cs);
        List<String> reports = new ArrayList<>();
        CompiledPatternLayout compiled = LogbackEvents.compile(enc, reports::add);
        assertNotNull(compiled, "compiled: " + pattern + " in " + cs);
        long done = 0;
        int n = times == null ? count : times.size();
        for (int i = 0; i < n; i++) {
            LoggingEvent e = times == null ? events.next() : events.at(times.get(i));
            byte[] ours = compiled.encode(e);
            byte[] theirs = enc.encode(e);
            if (ours != null) {
                done++;
                if (!Arrays.equals(theirs, ours)) {
                    Charset c = cs == null ? Charset.defaultCharset() : cs;
                    fail("pattern " + pattern + " in " + c + ", event " + e + " at " + e.getTimeStamp() + " thread "
                            + e.getThreadName() + " logger " + e.getLoggerName() + "\n logback: [" + new String(theirs, c)
                            + "]\n spool:   [" + new String(ours, c) + "]");
                }
            }
        }
        assertEquals(List.of(), reports, pattern);
        return new long[] {done, n};
    }

    /** Times around each of the zone's transitions in 1990-2040, local midnights and new years, in and out of order. */
    private static List<Long> times(ZoneId zone) {
        List<Long> times = new ArrayList<>();
        ZoneRules rules = zone.getRules();
        ZoneOffsetTransition t = rules.nextTransition(Instant.parse("1990-01-01T00:00:00Z"));
        for (int i = 0; t != null && i < 12; i++, t = rules.nextTransition(t.getInstant())) {
            around(times, t.getInstant().toEpochMilli());
        }
        for (int year : new int[] {1969, 1999, 2000, 2024, 2038}) {
            around(times, LocalDate.of(year, 1, 1).atStartOfDay(zone).toInstant().toEpochMilli());
            around(times, LocalDate.of(year, 6, 30).atStartOfDay(zone).toInstant().toEpochMilli());
        }
        List<Long> shuffled = new ArrayList<>(times);
        java.util.Collections.shuffle(shuffled, new java.util.Random(zone.getId().hashCode()));
        times.addAll(shuffled.subList(0, shuffled.size() / 4));
        return times;
    }

    private static void around(List<Long> times, long at) {
        for (long d : new long[] {-2001, -1000, -999, -501, -1, 0, 1, 123, 999, 1000, 1001, 1999, 2500}) {
            times.add(at + d);
        }
    }
}
