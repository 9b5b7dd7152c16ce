package dev.spool.agent.logback;

import static dev.spool.agent.logback.LogbackJournalRoundTrips.assertSameBytes;
import static dev.spool.agent.logback.LogbackJournalRoundTrips.payload;
import static dev.spool.agent.logback.LogbackJournalRoundTrips.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.LoggingEventVO;
import ch.qos.logback.classic.spi.ThrowableProxy;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.helpers.BasicMarkerFactory;

/**
 * The journal codec against Logback's own {@code PatternLayoutEncoder}: for every pattern and many
 * random events, the encoder writes the rebuilt event ({@code decode(encode(event))}) byte for byte
 * as it writes the original.
 */
class LogbackJournalCodecTest {

    private static final Charset[] CHARSETS = {StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1, StandardCharsets.US_ASCII,
        StandardCharsets.UTF_16};

    @Test
    void shouldRebuildEveryEventSoLogbacksEncoderWritesTheSameBytesForEveryPattern() throws Exception {
        long compared = LogbackJournalRoundTrips.compare(0, 150, CHARSETS);
        assertTrue(compared > 20_000, compared + " events");
    }

    @Test
    void shouldRebuildEventsAsWellOnLogback14AndOnTheNewestLine() throws Exception {
        URL slf4j = Marker.class.getProtectionDomain().getCodeSource().getLocation();
        URL main = LogbackJournalCodec.class.getProtectionDomain().getCodeSource().getLocation();
        URL tests = LogbackJournalRoundTrips.class.getProtectionDomain().getCodeSource().getLocation();
        for (String line : new String[] {"1.4", "next"}) {
            Path dir = Path.of("target", "codec-logbacks", line);
            assertTrue(Files.isRegularFile(dir.resolve("logback-classic.jar")), dir + " (copied at generate-test-resources)");
            URL[] urls = {dir.resolve("logback-classic.jar").toUri().toURL(), dir.resolve("logback-core.jar").toUri().toURL(),
                slf4j, main, tests};
            try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
                Class<?> event = Class.forName(LogbackConverters.EVENT, false, loader);
                assertEquals(urls[0].toString(), event.getProtectionDomain().getCodeSource().getLocation().toString());
                Class<?> trips = Class.forName(LogbackJournalRoundTrips.class.getName(), true, loader);
                long compared;
                try {
                    compared = (long) trips.getMethod("compare", long.class, int.class, Charset[].class)
                            .invoke(null, 1000L, 40, new Charset[] {StandardCharsets.UTF_8});
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw new AssertionError("Logback " + line + ": " + e.getCause().getMessage(), e.getCause());
                }
                assertTrue(compared > 2_000, compared + " events on Logback " + line);
            }
        }
    }

    @Test
    void shouldRebuildEveryThrowableKindWithEveryThrowableConverter() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(99, 1_650_000_000_000L);
        for (String pattern : LogbackJournalRoundTrips.JOURNAL) {
            PatternLayoutEncoder enc = events.plain().encoder(pattern, StandardCharsets.UTF_8);
            for (int kind = 0; kind < 8; kind++) {
                LoggingEvent e = events.plain().next();
                if (e.getThrowableProxy() == null) {
                    e.setThrowableProxy(events.proxy(kind));
                }
                assertSameBytes(enc, codec, e, pattern, StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void shouldGiveLogbacksEvaluatorsTheSameAnswersFromTheRebuiltEvent() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(77, 1_700_000_000_000L);
        events.registerEvaluators(); // MARK, ERR, EXC
        for (String pattern : new String[] {"%m%n%ex{full, MARK}", "%caller{3, ERR}%m%n", "%m%n%xEx{full, EXC, MARK}",
            "%m%n%rEx{5, ERR}", "%caller{1..3, MARK, EXC} %m%n%nopex"}) {
            PatternLayoutEncoder enc = events.plain().encoder(pattern, StandardCharsets.UTF_8);
            int printed = 0;
            for (int i = 0; i < 300; i++) {
                LoggingEvent e = events.next();
                if (e.getThrowableProxy() == null && i % 3 == 0) {
                    e.setThrowableProxy(events.proxy(i % 8));
                }
                byte[] theirs = enc.encode(e);
                String text = new String(theirs, StandardCharsets.UTF_8);
                printed += text.contains("\tat ") || text.contains("\t at ") ? 1 : 0; // a stack line, a caller line
                assertArrayEquals(theirs, enc.encode((ILoggingEvent) roundTrip(codec, e)), pattern + " event " + i);
            }
            assertTrue(printed > 0 && printed < 300, pattern + ": the evaluators printed " + printed + " of 300");
        }
    }

    @Test
    void shouldThrowFromOfWhenTheEventsLoaderHasNoLogback() {
        assertThrows(ClassNotFoundException.class, () -> LogbackJournalCodec.of(String.class)); // the boot loader's
    }

    @Test
    void shouldReadAPayloadAtAnOffsetAndRebuildWhatEachGetterAnswered() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(5, 1_600_000_000_000L);
        for (int i = 0; i < 300; i++) {
            LoggingEvent e = events.next();
            byte[] payload = payload(codec.encode(e));
            byte[] padded = new byte[payload.length + 10];
            System.arraycopy(payload, 0, padded, 7, payload.length);
            ILoggingEvent back = (ILoggingEvent) codec.decode(padded, 7, payload.length);
            assertEquals(e.getTimeStamp(), back.getTimeStamp());
            assertEquals(e.getNanoseconds(), back.getNanoseconds());
            assertEquals(e.getInstant(), back.getInstant());
            assertEquals(e.getSequenceNumber(), back.getSequenceNumber());
            assertEquals(e.getLevel(), back.getLevel());
            assertEquals(e.getMessage(), back.getMessage());
            assertEquals(e.getFormattedMessage(), back.getFormattedMessage());
            assertEquals(e.getMDCPropertyMap(), back.getMDCPropertyMap());
            assertEquals(new ArrayList<>(e.getMDCPropertyMap().keySet()), new ArrayList<>(back.getMDCPropertyMap().keySet()));
            assertEquals(String.valueOf(e.getMarkerList()), String.valueOf(back.getMarkerList()));
            assertEquals(String.valueOf(e.getKeyValuePairs()), String.valueOf(back.getKeyValuePairs()));
            assertEquals(Arrays.toString(e.getCallerData()), Arrays.toString(back.getCallerData()),
                    "frames print the same (a built-in loader's name is not carried)");
            assertEquals(e.getLoggerContextVO(), back.getLoggerContextVO());
            Object[] args = e.getArgumentArray();
            if (args == null || Arrays.stream(args).allMatch(a -> !(a instanceof int[]))) {
                assertArrayEquals(args, back.getArgumentArray(), "immutable JDK arguments are carried");
            } else {
                assertEquals(null, back.getArgumentArray(), "other arguments are not");
            }
        }
    }

    @Test
    void shouldRebuildAnEventWithoutCallerDataAsOneWithoutAndNoThrowableAsNone() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LoggingEvent e = new LogbackEvents(3, 1_700_000_000_000L).next();
        e.setCallerData(null);
        ILoggingEvent back = (ILoggingEvent) roundTrip(codec, e);
        assertFalse(back.hasCallerData());
        assertEquals(0, back.getCallerData().length);
        assertEquals(null, back.getThrowableProxy());
        assertEquals(e.getMarker(), back.getMarker());
    }

    @Test
    void shouldRebuildALoggingEventViewAndRefuseOneWhoseMessageWouldFormatAHostArgument() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(21, 1_700_000_000_000L);
        PatternLayoutEncoder enc = events.plain().encoder("%d %level [%thread] %logger %kvp %marker %mdc %caller{2} %cn %r %m%n%xEx",
                StandardCharsets.UTF_8);
        int rebuilt = 0;
        for (int i = 0; i < 400; i++) {
            LoggingEvent e = events.next();
            LoggingEventVO vo = LoggingEventVO.build(e);
            Object[] args = e.getArgumentArray();
            if (args != null && Arrays.stream(args).anyMatch(a -> a instanceof int[])) {
                assertThrows(IllegalArgumentException.class, () -> codec.encode(vo), "its message is not formatted yet");
                continue;
            }
            assertArrayEquals(enc.encode(vo), enc.encode((ILoggingEvent) roundTrip(codec, vo)), "event " + i);
            rebuilt++;
        }
        assertTrue(rebuilt > 200, rebuilt + " rebuilt");
    }

    @Test
    void shouldEncodeOnManyThreadsAtOnceEachIntoItsOwnScratch() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        int threads = 4;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
        java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.atomic.AtomicLong compared = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = 40 + t;
            Thread th = new Thread(() -> {
                try {
                    LogbackRichEvents events = new LogbackRichEvents(seed, 1_700_000_000_000L); // contexts of its own: the cache flips
                    PatternLayoutEncoder enc = events.plain().encoder("%d %level %logger %kvp %marker %mdc %cn %r %property{app} %m%n%xEx",
                            StandardCharsets.UTF_8);
                    start.await(30, java.util.concurrent.TimeUnit.SECONDS);
                    for (int i = 0; i < 1500 && failures.isEmpty(); i++) {
                        assertSameBytes(enc, codec, events.next(), "thread " + seed, StandardCharsets.UTF_8);
                        compared.incrementAndGet();
                    }
                } catch (Throwable x) {
                    failures.add(x);
                }
            }, "codec-" + t);
            th.start();
            running.add(th);
        }
        for (Thread th : running) {
            th.join(120_000);
            assertFalse(th.isAlive(), th.getName() + " still running after 120 s");
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.peek());
        }
        assertEquals(threads * 1500L, compared.get());
    }

    @Test
    void shouldRebuildLevelAllAsAllNotAsNoLevel() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        PatternLayoutEncoder enc = new LogbackEvents(12, 0).encoder("%level|%-5p|%highlight(%le) %m%n", StandardCharsets.UTF_8);
        for (Level level : new Level[] {Level.ALL, Level.OFF, Level.TRACE, Level.ERROR}) {
            LoggingEvent e = bare(level);
            assertSame(level, ((ILoggingEvent) roundTrip(codec, e)).getLevel());
            assertSameBytes(enc, codec, e, "levels", StandardCharsets.UTF_8);
        }
        assertEquals(null, ((ILoggingEvent) roundTrip(codec, bare(null))).getLevel());
    }

    private static LoggingEvent bare(Level level) {
        LoggingEvent e = new LoggingEvent();
        e.setLevel(level);
        e.setMessage("m");
        e.setTimeStamp(1_700_000_000_000L);
        e.setThreadName("t");
        e.setLoggerName("l");
        e.setMDCPropertyMap(new HashMap<>());
        return e;
    }

    @Test
    void shouldThrowIllegalArgumentForEveryTruncationAndNothingElseForAnyFlippedByte() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(11, 1_700_000_000_000L);
        PatternLayoutEncoder enc = events.plain().encoder("%d %kvp %marker %mdc %caller{2} %cn %r %m%n%xEx", StandardCharsets.UTF_8);
        int decodedAfterFlip = 0;
        int[] kinds = {5, 2, 4, 0, -1, -1, -1, -1}; // constructed frames, a cycle, overriding, packaging; then as they come
        for (int kind : kinds) {
            LoggingEvent e = events.next();
            if (e.getThrowableProxy() == null && kind >= 0) {
                e.setThrowableProxy(events.proxy(kind));
            }
            byte[] payload = payload(codec.encode(e));
            for (int len = 0; len < payload.length; len++) {
                int l = len;
                IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> codec.decode(payload, 0, l));
                assertTrue(x.getMessage().contains("offset"), x.getMessage());
            }
            for (int at = 0; at < payload.length; at++) {
                for (int flip : new int[] {0x01, 0xFF}) {
                    byte[] damaged = payload.clone();
                    damaged[at] ^= (byte) flip;
                    Object back;
                    try {
                        back = codec.decode(damaged, 0, damaged.length);
                    } catch (IllegalArgumentException expected) {
                        continue;
                    } catch (Throwable t) {
                        throw new AssertionError("flipping " + flip + " at " + at + " threw " + t, t);
                    }
                    if (decodedAfterFlip++ % 25 == 0) { // and Logback can still write what it decoded to (a sample: it costs)
                        assertNotNull(enc.encode((ILoggingEvent) back));
                    } // a flip that still decodes (a char, a count) is what the frame's CRC is for
                }
            }
        }
        assertTrue(decodedAfterFlip > 0, "some flips change only a value");
    }

    @Test
    void shouldThrowOnlyIllegalArgumentForRandomBytesAndSplicedPayloads() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackRichEvents events = new LogbackRichEvents(13, 1_700_000_000_000L);
        java.util.Random random = new java.util.Random(13);
        byte[][] payloads = new byte[20][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = payload(codec.encode(events.next()));
        }
        for (int round = 0; round < 20_000; round++) {
            byte[] b;
            if (round % 2 == 0) { // random bytes after the version
                b = new byte[1 + random.nextInt(200)];
                random.nextBytes(b);
                b[0] = LogbackJournalCodec.VERSION;
            } else { // the head of one payload and the tail of another
                byte[] x = payloads[random.nextInt(payloads.length)];
                byte[] y = payloads[random.nextInt(payloads.length)];
                int cut = random.nextInt(x.length);
                int from = random.nextInt(y.length);
                b = Arrays.copyOf(x, cut + y.length - from);
                System.arraycopy(y, from, b, cut, y.length - from);
            }
            try {
                codec.decode(b, 0, b.length);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("offset"), expected.getMessage());
            } catch (Throwable t) {
                throw new AssertionError("round " + round + " threw " + t, t);
            }
        }
    }

    @Test
    void shouldNameTheVersionOfAPayloadOfAnotherFormat() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        byte[] payload = payload(codec.encode(new LogbackEvents(14, 1_700_000_000_000L).next()));
        payload[0] = 1; // the format before the level's presence byte: never misread as this one
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> codec.decode(payload, 0, payload.length));
        assertTrue(x.getMessage().contains("version 1"), x.getMessage());
    }

    @Test
    void shouldRefuseAKeyValuePairWhoseValueIsAHostObjectWithoutCallingItsToString() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LoggingEvent e = new LogbackEvents(4, 1_700_000_000_000L).next();
        e.setKeyValuePairs(List.of(new KeyValuePair("k", new Object() {
            @Override
            public String toString() {
                throw new AssertionError("host code ran");
            }
        })));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> codec.encode(e));
        assertTrue(x.getMessage().contains("value of class"), x.getMessage());
        e.setKeyValuePairs(List.of(new KeyValuePair("k", "v") { }));
        assertThrows(IllegalArgumentException.class, () -> codec.encode(e), "a KeyValuePair subclass");
    }

    @Test
    void shouldNotCallAnArgumentsToStringAgainAndRebuildItsArrayAsNull() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Object host = new Object() {
            @Override
            public String toString() {
                return "host#" + calls.incrementAndGet();
            }
        };
        LogbackEvents events = new LogbackEvents(8, 1_700_000_000_000L);
        LoggingEvent e = new LoggingEvent("fqcn", events.context().getLogger("x"), Level.INFO, "arg {} and {}", null,
                new Object[] {host, "text"});
        e.prepareForDeferredProcessing(); // the caller's thread formats the message: one toString
        assertEquals(1, calls.get());
        ILoggingEvent back = (ILoggingEvent) roundTrip(codec, e);
        assertEquals(1, calls.get(), "encode ran no host code");
        assertEquals("arg host#1 and text", back.getFormattedMessage());
        assertEquals(null, back.getArgumentArray(), "a host argument is not carried");
    }

    @Test
    void shouldRefuseAForeignMarkerAnywhereInTheTreeAndARepeatedName() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        LogbackEvents events = new LogbackEvents(6, 1_700_000_000_000L);
        LoggingEvent top = events.next();
        top.getMarkerList(); // LogbackEvents may have added some
        top.addMarker(new ForeignMarker());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> codec.encode(top)).getMessage().contains("BasicMarker"));
        LoggingEvent nested = events.next();
        Marker parent = new BasicMarkerFactory().getDetachedMarker("PARENT");
        parent.add(new ForeignMarker());
        nested.addMarker(parent);
        assertThrows(IllegalArgumentException.class, () -> codec.encode(nested));
        LoggingEvent repeated = events.next();
        Marker p = new BasicMarkerFactory().getDetachedMarker("P");
        Marker c = new BasicMarkerFactory().getDetachedMarker("C");
        p.add(c);
        c.add(new BasicMarkerFactory().getDetachedMarker("P")); // slf4j's add would drop it when rebuilt bottom-up
        repeated.addMarker(p);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> codec.encode(repeated)).getMessage().contains("repeats"));
    }

    @Test
    void shouldRefuseAHostEventClassAHostMdcMapAndANonLogbackArgument() throws Exception {
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new LoggingEvent() { }));
        assertThrows(IllegalArgumentException.class, () -> codec.encode(null));
        LoggingEvent hostProxy = bare(Level.WARN);
        hostProxy.setThrowableProxy(new ThrowableProxy(new RuntimeException("x")) { });
        assertTrue(assertThrows(IllegalArgumentException.class, () -> codec.encode(hostProxy)).getMessage().contains("throwable proxy"));
        assertThrows(IllegalArgumentException.class, () -> codec.encode("not an event"));
        LoggingEvent e = bare(Level.INFO);
        e.getMDCPropertyMap(); // a plain HashMap: accepted
        codec.encode(e);
        LoggingEvent hostMap = new LoggingEvent();
        hostMap.setMDCPropertyMap(new HashMap<>() { });
        assertTrue(assertThrows(IllegalArgumentException.class, () -> codec.encode(hostMap)).getMessage().contains("MDC"));
    }
}
