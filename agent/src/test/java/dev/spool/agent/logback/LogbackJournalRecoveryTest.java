package dev.spool.agent.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.FileAppender;
import dev.spool.agent.journal.MappedLogJournal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Logback journal holding both kinds of frames (issue 33): events Spool deferred (replayed through the
 * appender's encoder) and bytes Logback encoded itself on the caller's thread ({@link MappedLogJournal#BYTES},
 * replayed as they are), as a killed run leaves it: each line once, in file order, a torn one completed.
 */
class LogbackJournalRecoveryTest {

    @TempDir
    Path dir;

    @Test
    void shouldReplayBytesFramesAsTheyAreAndEventFramesThroughTheEncoderOnceInOrder() throws Exception {
        Path log = dir.resolve("app.log");
        byte[] a = "A bytes line ü\n".getBytes(StandardCharsets.UTF_8);
        byte[] b = "B bytes line, torn by the kill\n".getBytes(StandardCharsets.UTF_8);
        byte[] c = "C bytes line never written\n".getBytes(StandardCharsets.UTF_8);
        byte[] d = "D bytes line done\n".getBytes(StandardCharsets.UTF_8);
        FileAppender<ILoggingEvent> appender = appender(log);
        MappedLogJournal journal = MappedLogJournal.create(LogbackJournalWriter.journalOf(log), MappedLogJournal.LOGBACK_MAGIC,
                "%msg%n", StandardCharsets.UTF_8);
        long fa = journal.appendBytes(a, 0, a.length, 0);
        long fb = journal.appendBytes(b, 0, b.length, a.length);
        long fc = journal.appendBytes(c, 0, c.length, a.length + b.length);
        long event = appendEvent(journal, appender, "E deferred event, never written"); // queued after C: no offset yet
        long fd = journal.appendBytes(d, 0, d.length, 0);
        journal.done(fd); // reached the file (and was trimmed from it since, say): never replayed
        assertFalse(fa < 0 || fb < 0 || fc < 0 || event < 0 || fd < 0, "frames not stored");
        journal.abandon(); // the process is killed: the journal stays
        try (var out = Files.newOutputStream(log)) {
            out.write(a);
            out.write(b, 0, 9); // B torn
        }

        LogbackJournalRecovery.Result r = LogbackJournalRecovery.recoverAtRoutingStart(appender, log);

        assertEquals("A bytes line ü\nB bytes line, torn by the kill\nC bytes line never written\nE deferred event, never written\n",
                Files.readString(log, StandardCharsets.UTF_8), r.describe(log));
        assertEquals(3, r.lines(), r.describe(log)); // the rest of B, C, E
        assertFalse(Files.exists(LogbackJournalWriter.journalOf(log)), "the journal stays after its recovery");
    }

    private static FileAppender<ILoggingEvent> appender(Path log) {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg%n");
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(context);
        appender.setFile(log.toString());
        appender.setAppend(true);
        appender.setEncoder(encoder);
        return appender; // not started: recovery only asks for its encoder and append flag
    }

    private static long appendEvent(MappedLogJournal journal, FileAppender<ILoggingEvent> appender, String message)
            throws ReflectiveOperationException {
        LoggerContext context = (LoggerContext) appender.getContext();
        LoggingEvent e = new LoggingEvent("fqcn", context.getLogger("x"), Level.INFO, message, null, null);
        e.prepareForDeferredProcessing();
        ByteBuffer payload = LogbackJournalCodec.of(ILoggingEvent.class).encode(e);
        return journal.append(payload.array(), payload.position());
    }
}
