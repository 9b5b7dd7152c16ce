package dev.spool.buffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The buffer's snapshot entry: {@code putSnapshot} of new content racing a {@code flush()}
 * followed by a {@code readBuffered} (one actor: JCStress runs no more actors than CPUs). The file holds the old content on disk first. A reader sees the new
 * content whole or nothing buffered (null: it reads the file itself), never a torn or older
 * buffered copy; once a later flush returned, the disk holds the new content (the last write
 * wins; no false conflict diverts it). One buffer for all states (flush interval 0: no timer),
 * one file per state. Result: (put returned true: 1, reader: 0 null / 1 old / 2 new / 9 torn,
 * disk after the arbiter's flush: 1 old / 2 new / 9 torn / 8 unreadable).
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "flushed and read before the put: nothing buffered; flushed later: new on disk")
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE, desc = "read after the put (flushed or not): the new content; new on disk")
@Outcome(expect = FORBIDDEN, desc = "refused, a torn or stale read, or the new content not on disk after a flush")
@State
public class SnapshotPutFlushReadTest {
    static final SharedBuffer BUFFER = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
    private final Path file = StressFiles.fileWithOld();

    @Actor
    public void writer(III_Result r) {
        try {
            r.r1 = BUFFER.putSnapshot(file, StressFiles.NEW) ? 1 : 0;
        } catch (IOException e) {
            r.r1 = 7;
        }
    }

    @Actor
    public void flusherThenReader(III_Result r) {
        try {
            BUFFER.flush();
        } catch (FlushException e) {
            // shows as the new content missing on disk
        }
        try {
            r.r2 = StressFiles.kind(BUFFER.readBuffered(file));
        } catch (IOException e) {
            r.r2 = 7;
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        try {
            BUFFER.flush();
        } catch (FlushException e) {
            // shows as the new content missing on disk
        }
        r.r3 = StressFiles.onDisk(file);
        StressFiles.delete(file);
    }
}
