package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Removes the temp files ({@link AtomicFiles}) that a crashed Spool process left in a folder: a
 * kill between a temp file's create and its rename leaves {@code .<name>.spool-tmp-...} behind,
 * and no one else ever renames or removes it.
 *
 * <p><b>What is removed</b>, and only from the one folder given (not its sub-folders): a name that
 * is exactly one of Spool's temp names ({@link TempName}), a regular file (never a symlink, a
 * folder or anything else at such a name), and
 * <ul>
 *   <li>a current-format name whose owner is provably gone ({@link TempOwner#ownerGone}: the same
 *       pid namespace and host, and the pid is not running or now belongs to a process started at
 *       another time), when the file belongs to this process's user or this process is root (a
 *       {@code /proc} mounted with {@code hidepid} hides other users' processes, which would look
 *       gone); or</li>
 *   <li>a legacy name (no owner in it), or one whose owner cannot be judged (another pid namespace
 *       or host, no {@code /proc}), last modified more than {@link #STALE_AGE_MILLIS} (one hour)
 *       ago. A temp file lives for one write of one document: milliseconds. An owner still alive
 *       after an hour inside one write (stopped with SIGSTOP, a suspended VM) then finds its rename
 *       failing: that flush fails, is reported and counted, and the content stays buffered for the
 *       next flush, which writes a new temp file. Nothing is lost.</li>
 * </ul>
 * Kept: this process's own temp files (a write in progress on another thread), those of live
 * owners, young ones of owners that cannot be judged; conflict files ({@code .spool-conflict-}: the
 * user's data) and recovery folders are never temp names.
 *
 * <p>Thread-safe (stateless); any number of sweeps may run at once, in any processes: a file
 * another sweep removed first is skipped.
 * <pre>{@code
 * StaleTemps.Sweep s = StaleTemps.sweep(Path.of("/var/data"));
 * s.removed();   // the files removed
 * }</pre>
 */
@Internal
public final class StaleTemps {
    /** Age after which a temp file whose owner cannot be judged is taken as left by a dead process. */
    public static final long STALE_AGE_MILLIS = TimeUnit.HOURS.toMillis(1);

    /**
     * What one sweep found.
     *
     * @param removed the temp files removed
     * @param kept    the temp files kept, each with why
     * @param errors  files or the folder that could not be read or removed, each with the error
     */
    public record Sweep(List<Path> removed, List<String> kept, List<String> errors) {}

    private StaleTemps() {}

    /**
     * Removes the stale temp files directly in {@code folder} (see the class comment). Never
     * throws for the folder's or a file's I/O errors: they are in {@link Sweep#errors()}.
     */
    public static Sweep sweep(Path folder) {
        return sweep(folder, TempOwner.self(), System.currentTimeMillis());
    }

    static Sweep sweep(Path folder, TempOwner self, long nowMillis) {
        List<Path> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        try (DirectoryStream<Path> names = Files.newDirectoryStream(folder)) {
            for (Path p : names) {
                String name = p.getFileName().toString();
                if (!name.contains(AtomicFiles.TEMP_MARK)) continue;
                TempName n = TempName.parse(name);
                if (n == null) continue;
                try {
                    String keep = whyKeep(p, n, self, nowMillis);
                    if (keep != null) {
                        kept.add(p + ": " + keep);
                    } else if (Files.deleteIfExists(p)) {
                        removed.add(p);
                    }
                } catch (NoSuchFileException gone) {
                    // removed by another sweep meanwhile
                } catch (IOException | RuntimeException e) {
                    errors.add(p + ": " + e);
                }
            }
        } catch (IOException | RuntimeException e) {
            errors.add(folder + ": " + e);
        }
        return new Sweep(List.copyOf(removed), List.copyOf(kept), List.copyOf(errors));
    }

    /** Null when {@code p} (named {@code n}) is a stale temp file to remove; else why it stays. */
    static String whyKeep(Path p, TempName n, TempOwner self, long nowMillis) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) return "not a regular file";
        if (!n.legacy() && self.owns(n)) return "this process's own, being written";
        if (self.judges(n)) {
            if (!self.ownerGone(n)) return "its writer, pid " + n.pid() + ", is running";
            if (sameUser(p)) return null;
            // another user's: its process may only be hidden from us (hidepid); judged by age below
        }
        long age = nowMillis - a.lastModifiedTime().toMillis();
        if (age > STALE_AGE_MILLIS) return null;
        return (n.legacy() ? "no owner in its name" : self.judges(n) ? "another user's (its process may be hidden)"
                : "written in another pid namespace or on another host")
                + ", and modified less than " + TimeUnit.MILLISECONDS.toMinutes(STALE_AGE_MILLIS) + " minutes ago";
    }

    /** Whether {@code p} belongs to this process's user, or this process is root. */
    private static boolean sameUser(Path p) throws IOException {
        int mine = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return mine == 0 || mine == (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    }
}
