package dev.spool.sink;

import java.util.concurrent.locks.LockSupport;

/** Back-off for short waits: spin, then yield, then park for 50 microseconds at a time. */
final class Idle {
    private Idle() {
    }

    /** Steps that only spin or yield (a few microseconds): a "moment". */
    static final int SPINS = 128;

    static int step(int count) {
        if (count < 64) {
            Thread.onSpinWait();
        } else if (count < SPINS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(50_000L);
        }
        return count + 1;
    }
}
