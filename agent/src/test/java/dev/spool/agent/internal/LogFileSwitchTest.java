package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log file closed under the sink is reopened (same file, append) so the sink's retry writes what
 * it held, and the failure is still thrown; a file replaced or deleted meanwhile, or a failure of an
 * open stream, is not.
 */
class LogFileSwitchTest {

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReopenTheSameFileClosedUnderItAndStillThrowTheFailure() throws IOException {
        Path file = dir.resolve("app.log");
        FileOutputStream fos = new FileOutputStream(file.toFile());
        LogFileSwitch files = new LogFileSwitch();
        files.attach(fos, file.toString());
        files.write(b("one\n"), 0, 4);
        fos.getChannel().close(); // what Logback's FileAppenderResilienceTest does to the appender's stream
        assertThrows(IOException.class, () -> files.write(b("two\n"), 0, 4), "the sink records the failure");
        files.write(b("two\n"), 0, 4); // the sink's retry
        files.flush();
        assertEquals("one\ntwo\n", Files.readString(file));
        files.detach();
        assertThrows(IOException.class, () -> files.write(b("three\n"), 0, 6), "detached: no file");
        assertEquals("one\ntwo\n", Files.readString(file), "the reopened file was closed at detach");
    }

    @Test
    void shouldNotReopenAFileReplacedOrDeletedMeanwhile() throws IOException {
        Path file = dir.resolve("moved.log");
        FileOutputStream fos = new FileOutputStream(file.toFile());
        LogFileSwitch files = new LogFileSwitch();
        files.attach(fos, file.toString());
        fos.getChannel().close();
        Files.move(file, dir.resolve("moved.log.1"));
        Files.writeString(file, "someone else's\n");
        assertThrows(IOException.class, () -> files.write(b("x\n"), 0, 2));
        assertThrows(IOException.class, () -> files.write(b("x\n"), 0, 2), "still the closed stream: no reopen");
        assertEquals("someone else's\n", Files.readString(file));

        Path gone = dir.resolve("gone.log");
        FileOutputStream fos2 = new FileOutputStream(gone.toFile());
        LogFileSwitch other = new LogFileSwitch();
        other.attach(fos2, gone.toString());
        fos2.getChannel().close();
        Files.delete(gone);
        assertThrows(IOException.class, () -> other.write(b("x\n"), 0, 2));
        assertThrows(IOException.class, () -> other.write(b("x\n"), 0, 2));
        assertFalse(Files.exists(gone), "never created");
    }

    @Test
    void shouldNotReopenAFileSomeoneElseWroteToSinceTheSinkLastDid() throws IOException {
        Path file = dir.resolve("shared.log");
        FileOutputStream fos = new FileOutputStream(file.toFile());
        LogFileSwitch files = new LogFileSwitch();
        files.attach(fos, file.toString());
        files.write(b("one\n"), 0, 4);
        fos.getChannel().close();
        Files.writeString(file, "other\n", java.nio.file.StandardOpenOption.APPEND); // not the size the sink left
        assertThrows(IOException.class, () -> files.write(b("two\n"), 0, 4));
        assertThrows(IOException.class, () -> files.write(b("two\n"), 0, 4), "not reopened");
        assertEquals("one\nother\n", Files.readString(file));
    }

    @Test
    void shouldLeaveAFailureOfAnOpenStreamToTheSinksRetries() throws IOException {
        Path file = dir.resolve("full.log");
        Files.writeString(file, "");
        int[] calls = {0};
        OutputStream full = new OutputStream() { // a full disk: the stream stays open
            @Override
            public void write(int x) throws IOException {
                calls[0]++;
                throw new IOException("No space left on device");
            }

            @Override
            public void write(byte[] bytes, int off, int len) throws IOException {
                write(0);
            }
        };
        LogFileSwitch files = new LogFileSwitch();
        files.attach(full, file.toString());
        assertThrows(IOException.class, () -> files.write(b("x\n"), 0, 2));
        assertThrows(IOException.class, () -> files.write(b("x\n"), 0, 2));
        assertEquals(2, calls[0], "each retry goes to the same stream");
        assertEquals("", Files.readString(file));
    }
}
