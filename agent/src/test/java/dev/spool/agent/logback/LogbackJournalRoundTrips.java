package dev.spool.agent.logback;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;

/**
 * The journal codec's differential, free of JUnit so that {@link LogbackJournalCodecTest} can also
 * run it in a class loader of its own over another Logback line (1.4, the newest): for each pattern
 * and random rich event, Logback's {@code PatternLayoutEncoder} writes {@code decode(encode(e))}
 * byte for byte as {@code e}; a difference throws {@link AssertionError} naming the pattern, the
 * charset and both lines.
 */
public final class LogbackJournalRoundTrips {

    /** What the corpus rarely prints: everything else an event carries. */
    public static final List<String> JOURNAL = List.of(
            "%kvp %kvp{NONE} %kvp{SINGLE} %maskedKvp{k1} [%marker] %m%n",
            "%sn %sequenceNumber %micros %ms %ep %epoch %d{yyyy-MM-dd HH:mm:ss.SSS} %m%n",
            "%property{app} %property{HOSTNAME} %property{empty} %property{java.specification.version} %cn %r %m%n",
            "%prefix(%X{user} %level %logger %thread) %m%n",
            "%replace(%msg){'[0-9]','#'} %replace(%ex){'\\t','>'}%nopex%n",
            "%caller{3} %caller{1..4} %C %M %L %F %class{0} %m%n",
            "%m%n%ex{full}", "%m%n%ex{3}", "%m%n%ex{short}", "%m%n%xEx", "%m%n%xEx{2}", "%m%n%rEx", "%m%n%rEx{full}",
            "%m %nopex%n", "[%mdc] [%X{nullValue}] [%X{nullValue:-dflt}] [%X{user}] %m%n",
            "%highlight(%-5level) %boldRed(%marker) %m%n",
            "%d{HH:mm:ss.SSS, UTC} %-5level %logger{36} %kvp - %msg%n%xEx{full, ignore.nothing, java.lang.reflect}");

    private LogbackJournalRoundTrips() {
    }

    /** Every corpus and journal pattern in each charset, {@code perPattern} events each; the number compared. */
    public static long compare(long seed, int perPattern, Charset... charsets) throws ReflectiveOperationException {
        List<String> patterns = new ArrayList<>(LogbackPatternCorpus.PUBLIC);
        patterns.addAll(LogbackPatternCorpus.EDGES);
        patterns.addAll(JOURNAL);
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        long compared = 0;
        for (String pattern : patterns) {
            for (Charset cs : charsets) {
                LogbackRichEvents events = new LogbackRichEvents(++seed, 1_700_000_000_000L + seed * 7_919_000L);
                PatternLayoutEncoder enc = events.plain().encoder(pattern, cs);
                for (int i = 0; i < perPattern; i++) {
                    assertSameBytes(enc, codec, events.next(), pattern, cs);
                    compared++;
                }
            }
        }
        return compared;
    }

    /** Logback's bytes for {@code e} and for its rebuild are the same. */
    static void assertSameBytes(PatternLayoutEncoder enc, LogbackJournalCodec codec, LoggingEvent e, String pattern, Charset cs) {
        byte[] theirs = enc.encode(e);
        byte[] ours = enc.encode((ILoggingEvent) roundTrip(codec, e));
        if (!Arrays.equals(theirs, ours)) {
            throw new AssertionError("pattern " + pattern + " in " + cs + ", event " + e + "\n original: ["
                    + new String(theirs, cs) + "]\n rebuilt:  [" + new String(ours, cs) + "]");
        }
    }

    static Object roundTrip(LogbackJournalCodec codec, Object event) {
        byte[] payload = payload(codec.encode(event));
        return codec.decode(payload, 0, payload.length);
    }

    static byte[] payload(ByteBuffer b) {
        return Arrays.copyOf(b.array(), b.position());
    }
}
