package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushReport;
import dev.spool.buffer.SharedBuffer;
import dev.spool.events.EventLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files Spool writes get the permissions the folder's other files would: a rewritten file keeps
 * its own mode (a 0600 secret stays 0600, a 0664 file is not narrowed by the umask), a new file or
 * event file gets what a plain create under the process umask gives, and a conflict file is never
 * more open than the file whose content it holds.
 */
class FilePermissionsTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepEachFilesModeAndGiveNewFilesTheUmaskDefault() throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        Path plain = Files.createFile(dir.resolve("plain-create"));
        Set<PosixFilePermission> umaskDefault = Files.getPosixFilePermissions(plain);
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            for (String mode : new String[] {"rw-------", "rw-rw-r--", "rw-r-----"}) {
                Path f = dir.resolve("m-" + mode + ".json");
                Files.writeString(f, "{}");
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
                buffer.putSnapshot(f, "{\"a\":1}".getBytes());
                buffer.flush();
                assertEquals("{\"a\":1}", Files.readString(f));
                assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f + " changed mode");
            }
            Path fresh = dir.resolve("fresh.json");
            buffer.putSnapshot(fresh, "{}".getBytes());
            buffer.flush();
            assertEquals(umaskDefault, Files.getPosixFilePermissions(fresh), "a new file must get the umask default");

            Path secret = dir.resolve("secret.json");
            Files.writeString(secret, "{}");
            Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
            buffer.putSnapshot(secret, "{\"v\":0}".getBytes());
            buffer.flush();
            buffer.putSnapshot(secret, "{\"v\":1}".getBytes());
            Files.writeString(secret, "{\"outside\":true}"); // keeps mode 0600
            FlushReport r = buffer.flushWithReport();
            assertEquals(1, r.conflicts().size());
            Path conflict = r.conflicts().get(0).conflictFile();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(conflict)),
                    "a conflict file must not expose a 0600 file's content");
        }
        Path events = dir.resolve("e.spool");
        try (EventLog log = EventLog.open(events)) {
            log.emit("x");
        }
        assertEquals(umaskDefault, Files.getPosixFilePermissions(events));
        assertTrue(Files.isRegularFile(events));
    }
}
