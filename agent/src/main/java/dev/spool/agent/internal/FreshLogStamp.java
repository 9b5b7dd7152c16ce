package dev.spool.agent.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * The modification time of a routed Logback file that its appender just created, empty (issue 33).
 *
 * <p>Logback's time-based rolling names the period of an existing active file by its modification
 * time when the appender starts ({@code TimeBasedFileNamingAndTriggeringPolicyBase}), and its first
 * roll renames the file to that period's archive name, replacing a file already there. The kernel
 * stamps a file with a clock that can lag the wall clock by a scheduler tick (a few ms), so a file a
 * roll creates right after a second's boundary can carry the previous second. Plain Logback's first
 * write moves the stamp on a few ms later; a routed appender's first bytes reach the file only at the
 * sink's next write (up to {@code spool.events.visibility.max.ms}). A kill in between left an empty
 * active file stamped with the previous second: the next start named it after that second and its
 * first roll replaced that second's archive (a time-based rolling kill test lost a round's first
 * second of events, 13,842 of 209,155, once). So an empty file whose stamp lies in an earlier second,
 * less than a second ago, gets the wall clock's time at the start of routing, as plain's first write
 * would have given it; any other file is left as it is. Best effort: a failure changes nothing.
 *
 * <p>Stateless, thread-safe.
 */
final class FreshLogStamp {

    private FreshLogStamp() {
    }

    /** Stamps {@code file}, which the caller found empty, with the wall clock's time when its stamp is in the previous second. */
    static void stampIfJustCreated(Path file) {
        if (file == null) {
            return;
        }
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // Spool's own look and change, not the host's
        try {
            long now = System.currentTimeMillis();
            long stamp = Files.getLastModifiedTime(file).toMillis(); // through a link, as Logback's File.lastModified()
            if (stamp < now && now - stamp < 1000 && stamp / 1000 != now / 1000) {
                Files.setLastModifiedTime(file, FileTime.fromMillis(now));
            }
        } catch (IOException | RuntimeException e) {
            // the file's time stays the kernel's: what plain Logback leaves until its first write
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }
}
