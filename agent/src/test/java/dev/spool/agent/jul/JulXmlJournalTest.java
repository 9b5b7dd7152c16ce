package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.journal.MappedLogJournal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SimpleTimeZone;
import java.util.TimeZone;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.XMLFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code XMLFormatter} handler's journal (issue 33): a record read back from its frame formats to
 * the JDK's text ({@link JulXmlFormatTest}'s random records, both date kinds, several zones); recovery
 * writes the formatter's head where the killed run's file lacks it (an empty file, a head cut short)
 * and never a second one.
 */
class JulXmlJournalTest {
    private static final String HEAD = new XMLFormatter().getHead(null);

    @TempDir
    Path dir;

    private TimeZone zone;
    private Locale locale;

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
    void shouldFormatARecordReadBackFromItsFrameLikeTheJdksXmlFormatter() throws IOException {
        Random random = new Random(3301);
        int compared = 0;
        for (boolean useInstant : new boolean[] {true, false}) {
            JulXmlFormatTest.configure(useInstant);
            XMLFormatter jdk = new XMLFormatter();
            JulXmlFormat ours = new JulXmlFormat(useInstant);
            JulXmlJournalCodec codec = new JulXmlJournalCodec();
            JulXmlJournalCodec.Decoder decoder = new JulXmlJournalCodec.Decoder();
            for (String zoneId : new String[] {"UTC", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham"}) {
                TimeZone.setDefault(TimeZone.getTimeZone(zoneId));
                for (int i = 0; i < 500; i++) {
                    LogRecord r = JulXmlFormatTest.randomRecord(random);
                    String expected = JulXmlFormatTest.outcome(() -> jdk.format(r));
                    String actual = JulXmlFormatTest.outcome(() -> {
                        JulCapture c = ours.capture(r, null);
                        ByteBuffer b = codec.encode(c);
                        return ours.format(decoder.decode(ByteBuffer.wrap(b.array(), 0, b.position()).slice()),
                                new JulMessageFormats());
                    });
                    assertEquals(expected, actual, () -> "useInstant " + useInstant + " zone " + zoneId);
                    compared++;
                }
            }
        }
        assertTrue(compared >= 4000, "compared " + compared);
    }

    /**
     * A default zone its id does not name (an application's {@code SimpleTimeZone}: odd offsets, its own daylight
     * rules, a region's id over other rules) is journaled as its offset at the record's instant: the date read back
     * is the JDK's, across two years of instants (before 5 Dec: not journaled, {@code jul-journal-refused}).
     */
    @Test
    void shouldFormatARecordInACustomDefaultZoneReadBackFromItsFrameLikeTheJdksXmlFormatter() throws IOException {
        JulXmlFormatTest.configure(false);
        XMLFormatter jdk = new XMLFormatter();
        JulXmlFormat ours = new JulXmlFormat(false);
        JulXmlJournalCodec codec = new JulXmlJournalCodec();
        JulXmlJournalCodec.Decoder decoder = new JulXmlJournalCodec.Decoder();
        Random random = new Random(3302);
        TimeZone renamed = TimeZone.getTimeZone("America/New_York");
        renamed.setID("Custom/Renamed");
        for (TimeZone custom : new TimeZone[] {
            new SimpleTimeZone(5 * 3600_000 + 17 * 60_000 + 1_234, "Custom/Nowhere"),
            new SimpleTimeZone(-(3 * 3600_000 + 30 * 60_000), "Custom/Daylight", Calendar.MARCH, 8, -Calendar.SUNDAY,
                    7_200_000, Calendar.NOVEMBER, 1, -Calendar.SUNDAY, 7_200_000, 3_600_000),
            new SimpleTimeZone(0, "Europe/Paris"), renamed}) {
            TimeZone.setDefault(custom);
            for (int i = 0; i < 400; i++) {
                LogRecord r = JulXmlFormatTest.randomRecord(random);
                String expected = JulXmlFormatTest.outcome(() -> jdk.format(r));
                String actual = JulXmlFormatTest.outcome(() -> {
                    ByteBuffer b = codec.encode(ours.capture(r, null));
                    return ours.format(decoder.decode(ByteBuffer.wrap(b.array(), 0, b.position()).slice()),
                            new JulMessageFormats());
                });
                assertEquals(expected, actual, custom.getID());
            }
        }
    }

    /** A default zone of the application's own class is not asked for its offset on the caller's thread: not journaled. */
    @Test
    void shouldRefuseToJournalARecordWhoseDefaultZoneIsOfTheApplicationsClass() throws IOException {
        JulXmlFormatTest.configure(false);
        TimeZone.setDefault(new SimpleTimeZone(3600_000, "Custom/Subclass") { });
        JulXmlFormat ours = new JulXmlFormat(false);
        JulCapture c = ours.capture(record("in a zone of the application's class", 0), null);
        assertThrows(IllegalArgumentException.class, () -> new JulXmlJournalCodec().encode(c));
    }

    /** The killed run's first record never reached the empty file: recovery writes the head, then the records. */
    @Test
    void shouldWriteTheHeadBeforeTheRecordsOfAFileTheKillLeftEmpty() throws Exception {
        Path log = Files.createFile(dir.resolve("app.log"));
        MappedLogJournal j = journal(log, 0);
        String one = append(j, record("one", 1));
        String two = append(j, record("two & <three>", 2));
        assertEquals(2, JulJournalRecovery.recover(log, false).lines());
        assertEquals(HEAD + one + two, Files.readString(log));
        assertFalse(Files.exists(MappedLogJournal.journalOf(log)), "journal removed");
    }

    /**
     * A kill right after a rotation: the new file is empty, its first record placed after the head at 0, neither
     * in it. {@code spool recover} writes head and records into it: not the sign of a file emptied since the kill
     * (whose lines would go beside it), which a first line past 0 is for a journal without a head.
     */
    @Test
    void shouldRecoverIntoAFileEmptyRightAfterARotationNotBesideIt() throws Exception {
        Path log = Files.createFile(dir.resolve("app.log"));
        MappedLogJournal j = journal(log, 0);
        long first = j.append(frame(record("one", 1)), length);
        j.filePos(first, HEAD.length()); // the drainer's beforeWrite: the head first, at 0
        String one = text(record("one", 1));
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals(HEAD + one, Files.readString(log));
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("app.log"), files.map(p -> p.getFileName().toString()).toList(), "no side file");
        }
    }

    /**
     * Killed inside a rotation, after the old stream's close wrote the tail and before the rename: the records
     * still queued belong to the next file, so they follow a head, as plain JUL's next run appending there writes one.
     */
    @Test
    void shouldWriteAHeadBeforeRecordsAfterATailARotationsCloseWrote() throws Exception {
        String one = text(record("one", 1));
        Path log = Files.writeString(dir.resolve("app.log"), HEAD + one + "</log>\n");
        MappedLogJournal j = journal(log, 0);
        String two = append(j, record("two", 2));
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals(HEAD + one + "</log>\n" + HEAD + two, Files.readString(log));
    }

    /** The head and the first record reached the file: only the queued record is added, no second head. */
    @Test
    void shouldNotWriteAHeadTheFileHasWhenTheFirstRecordReachedIt() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "older\n");
        MappedLogJournal j = journal(log, 6);
        long first = j.append(frame(record("one", 1)), length);
        String one = text(record("one", 1));
        Files.writeString(log, HEAD + one, java.nio.file.StandardOpenOption.APPEND);
        j.filePos(first, 6 + HEAD.length());
        String two = append(j, record("two", 2));
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals("older\n" + HEAD + one + two, Files.readString(log));
    }

    /** A file that ends inside the head (the kill cut the sink's write short): its rest, then the records. */
    @Test
    void shouldCompleteAHeadTheKillCutShort() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "older\n" + HEAD.substring(0, 20));
        MappedLogJournal j = journal(log, 6);
        String one = append(j, record("one", 1));
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals("older\n" + HEAD + one, Files.readString(log));
    }

    /** The handler wrote its head before Spool journaled its records: none is added before them. */
    @Test
    void shouldAddNoHeadWhenTheHandlerHadWrittenItBeforeTheJournal() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), HEAD + "<record>\n</record>\n");
        MappedLogJournal j = journal(log, -1);
        String one = append(j, record("one", 1));
        assertEquals(1, JulJournalRecovery.recover(log, false).lines());
        assertEquals(HEAD + "<record>\n</record>\n" + one, Files.readString(log));
    }

    private static MappedLogJournal journal(Path log, long headAt) throws IOException {
        MappedLogJournal j = MappedLogJournal.create(MappedLogJournal.journalOf(log), MappedLogJournal.XML_MAGIC,
                JulXmlFormat.INSTANT + "\n" + HEAD, StandardCharsets.UTF_8);
        j.headAt(headAt);
        return j;
    }

    private int length;

    private byte[] frame(LogRecord r) {
        ByteBuffer b = new JulXmlJournalCodec().encode(new JulXmlFormat(true).capture(r, null));
        length = b.position();
        return java.util.Arrays.copyOf(b.array(), length);
    }

    /** Journals {@code r} as queued (never written); its text as the writer would write it. */
    private String append(MappedLogJournal j, LogRecord r) {
        assertTrue(j.append(frame(r), length) >= 0);
        return text(r);
    }

    private static String text(LogRecord r) {
        return new XMLFormatter().format(r);
    }

    private static LogRecord record(String message, long sequence) {
        LogRecord r = new LogRecord(Level.INFO, message);
        r.setLoggerName("app");
        r.setSequenceNumber(sequence);
        r.setLongThreadID(7);
        r.setSourceClassName("com.example.App");
        r.setSourceMethodName("run");
        r.setInstant(Instant.parse("2026-12-05T03:00:00.123456789Z"));
        return r;
    }
}
