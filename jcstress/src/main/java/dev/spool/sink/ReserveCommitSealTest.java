package dev.spool.sink;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Reserve/copy/commit racing a seal, with the writer looking at the sealed buffer.
 *
 * <p>A producer reserves 8 bytes of a 16-byte buffer, fills them and commits; the other actor
 * seals the buffer and then looks at it as the writer does: if {@code fullyCommitted()}, it
 * reads {@code [0, limit)} (two actors: JCStress runs no more actors than CPUs, and CI has two).
 * Result: (producer: 0 reserved / 1 refused, limit, writer: 0 did not seal (impossible here) /
 * 1 not yet committed / 2 committed and intact bytes / 3 committed but torn bytes).
 */
@JCStressTest
@Outcome(id = "0, 8, 1", expect = ACCEPTABLE_INTERESTING, desc = "sealed before the producer committed: the writer must (and does) wait")
@Outcome(id = "0, 8, 2", expect = ACCEPTABLE, desc = "reserved before the seal; the writer sees every byte committed")
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "sealed first: the writer writes an empty buffer")
@Outcome(expect = FORBIDDEN, desc = "a committed range the writer cannot see, a reservation beyond the limit, or a refused one inside it")
@State
public class ReserveCommitSealTest {
    private static final byte FILL = 0x5A;
    private final SinkBuffer buf = new SinkBuffer(16, false);

    public ReserveCommitSealTest() {
        buf.open();
    }

    @Actor
    public void producer(III_Result r) {
        long at = buf.reserve(8);
        if (at >= 0) {
            for (int i = 0; i < 8; i++) {
                buf.data.put((int) at + i, FILL);
            }
            buf.commit(8);
            r.r1 = 0;
        } else {
            r.r1 = 1;
        }
    }

    @Actor
    public void sealerThenWriter(III_Result r) {
        if (!buf.seal()) {
            r.r3 = 0;
        } else if (!buf.fullyCommitted()) {
            r.r3 = 1;
        } else {
            int limit = buf.limit;
            r.r3 = 2;
            for (int i = 0; i < limit; i++) {
                if (buf.data.get(i) != FILL) {
                    r.r3 = 3;
                }
            }
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = buf.limit;
    }
}
