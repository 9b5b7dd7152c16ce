package dev.spool.events;

import dev.spool.internal.jfr.SpoolJfr;
import dev.spool.sink.ByteSink;
import dev.spool.sink.JournalLayout;
import dev.spool.sink.SinkJournal;
import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * At the open of an event file (locked): replays the journal a killed writer left
 * ({@link JournalRecovery}), then creates this writer's journal ({@link SinkJournal}) when the
 * settings ask for one ({@code spool.sink.journal}; either back end: the {@code mmap} one's producers
 * fill buffers its writer copies into the mapping later, so they need the journal as much). Never fails the open:
 * a journal that cannot be replayed or created is reported on the sink (errors, last error) and
 * the sink then works as without a journal.
 */
final class EventJournals {
    /** The journal to give the sink (or null), and what to report on it. */
    record Start(SinkJournal journal, long frames, long bytes, String problem) {
        void report(ByteSink sink) {
            sink.recordRecovery(frames, bytes);
            if (problem != null) {
                sink.countError(problem);
            }
        }
    }

    private EventJournals() {
    }

    static Start start(Path file, FileChannel channel, SinkSettings settings) {
        String key = fileKey(file);
        JournalRecovery.Result r;
        try {
            r = JournalRecovery.recover(file, channel, key);
        } catch (IOException | RuntimeException e) {
            r = new JournalRecovery.Result(0, 0, "journal " + JournalLayout.journalOf(file) + " not replayed: " + e
                    + "; kept, and this open writes no journal", false);
        }
        if (r.frames() > 0) {
            SpoolJfr.journalRecovered(file, r.frames(), r.bytes());
        }
        String problem = r.problem();
        SinkJournal journal = null;
        if (settings.journal() && r.pathFree()) {
            try {
                journal = SinkJournal.create(JournalLayout.journalOf(file), key, settings);
            } catch (IOException e) {
                problem = problem == null ? e.getMessage() : problem + "; " + e.getMessage();
            }
        }
        return new Start(journal, r.frames(), r.bytes(), problem);
    }

    /** The file's identity ({@code fileKey}, e.g. device and inode), or "" where the platform has none. */
    static String fileKey(Path file) {
        try {
            Object k = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return k == null ? "" : k.toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
