package dev.spool.buffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The kill switch ({@code setEnabled(false)}: flush, then refuse) racing an in-flight write.
 * The writer does what the agent's Jackson hook does: {@code putSnapshot}, and if refused, the
 * plain write itself. The new content must never be lost: refused and written by the caller,
 * or accepted and written by the kill switch's flush, or accepted just after that flush and
 * still buffered (written by the next flush or close). One buffer per state (closed by the
 * arbiter). Result: (put accepted: 1, disk right after both: 1 old / 2 new, disk after close:
 * 1 old / 2 new).
 */
@JCStressTest
@Outcome(id = "0, 2, 2", expect = ACCEPTABLE, desc = "refused after the switch: the caller wrote it itself")
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE, desc = "accepted before the switch's flush: written by it")
@Outcome(id = "1, 1, 2", expect = ACCEPTABLE_INTERESTING,
        desc = "accepted while the switch flushed: still buffered after the switch returned (a reader going around "
                + "the buffer sees the old content until the next flush); written at close")
@Outcome(expect = FORBIDDEN, desc = "the write is lost (old content after close) or torn")
@State
public class KillSwitchInFlightWriteTest {
    private final SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
    private final Path file = StressFiles.fileWithOld();

    @Actor
    public void hostWrite(III_Result r) {
        try {
            if (buffer.putSnapshot(file, StressFiles.NEW)) {
                r.r1 = 1;
            } else {
                Files.write(file, StressFiles.NEW);
                r.r1 = 0;
            }
        } catch (IOException e) {
            r.r1 = 7;
        }
    }

    @Actor
    public void killSwitch() {
        buffer.setEnabled(false);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = StressFiles.onDisk(file);
        try {
            buffer.close();
        } catch (FlushException e) {
            // shows as the old content after close
        }
        r.r3 = StressFiles.onDisk(file);
        StressFiles.delete(file);
    }
}
