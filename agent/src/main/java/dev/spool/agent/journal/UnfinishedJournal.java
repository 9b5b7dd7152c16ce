package dev.spool.agent.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A journal its process was killed while making (issue 33): {@link MappedLogJournal#create} allocates the
 * file's blocks (zeros) and writes the header after them, and a frame is stored only once {@code create}
 * returned, so a file that holds nothing but zeros never held a line. A start of routing removes it
 * ({@link #removeIfNeverWritten}) instead of setting it aside as an orphan beside the log: with journals put
 * away while idle and made again at the next line, a kill lands inside a creation now and then (seen: one
 * {@code .orphan-} file in 10 kills of a host listing its log folder every 5 ms). Anything else that is not a
 * journal is left to the caller (kept, named). Stateless; any thread.
 */
public final class UnfinishedJournal {
    private static final int CHUNK = 64 << 10;

    private UnfinishedJournal() {
    }

    /**
     * Removes {@code journal} when every byte of it is zero; the note saying so, else null (not removed, as
     * when it cannot be read).
     */
    public static String removeIfNeverWritten(Path journal) {
        try {
            if (!zeros(journal)) {
                return null;
            }
            Files.delete(journal);
            return "journal " + journal + " removed: it holds only zeros (its process died while making it; it never held a line)";
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean zeros(Path journal) throws IOException {
        try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(CHUNK);
            long at = 0;
            for (int n; (n = ch.read(b.clear(), at)) >= 0; at += n) {
                for (int i = 0; i < n; i++) {
                    if (b.get(i) != 0) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
