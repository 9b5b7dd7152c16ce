package dev.spool.internal.handoff;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scheduling state of one task (a sink's writer, a captured log's drain) served by the threads
 * of a pool through a {@link ParkingReadyQueue}: {@link #IDLE}, {@link #SCHEDULED} (in the ready
 * queue, or about to be), {@link #RUNNING}, {@link #ENDED}.
 *
 * <p><b>Assumptions.</b> Any thread calls {@link #schedule()} and, when it returns true, offers the
 * task to the ready queue. Only a pool thread that polled the task calls {@link #begin()}, and only
 * after {@code begin()} returned true does it call {@link #reschedule()}, {@link #idle()} or
 * {@link #end()}. One thread at a time calls {@link #lostSchedule()} (a pool's timer or sweeper).
 *
 * <p><b>Guarantees.</b> Lock-free, never blocks. A task runs on at most one thread at a time, even
 * when it stands in the ready queue twice ({@code begin()} is a compare-and-set from
 * {@code SCHEDULED}; an extra entry finds it running or idle and is skipped). A task whose
 * scheduler died between {@code schedule()} and its offer (a {@code StackOverflowError} in the
 * offer) is reported by {@code lostSchedule()} at the second look that finds it scheduled with no
 * turn begun in between; the checker offers it again.
 *
 * <pre>{@code
 * if (task.state.schedule()) { ready.offerAndWake(task); }          // a producer
 * if (task.state.begin()) { run(task); task.state.idle(); }          // the pool thread that polled it
 * if (task.state.lostSchedule()) { ready.offerAndWake(task); }      // the pool's periodic check
 * }</pre>
 */
public final class TaskState {
    public static final int IDLE = 0;
    public static final int SCHEDULED = 1;
    public static final int RUNNING = 2;
    public static final int ENDED = 3;

    private final AtomicInteger state = new AtomicInteger(IDLE);
    /** Turns begun (written by the running thread, read by the checker). */
    private volatile int turns;
    /** The checker's own: {@link #turns} when it last saw the task scheduled, or -1. */
    private int scheduledAtTurn = -1;

    /** The state now: one of {@link #IDLE}, {@link #SCHEDULED}, {@link #RUNNING}, {@link #ENDED}. */
    public int get() {
        return state.get();
    }

    /** Turns begun so far (diagnostics and tests). */
    public int turns() {
        return turns;
    }

    /** Any thread: idle to scheduled; true when this caller must offer the task to the ready queue. */
    public boolean schedule() {
        return state.get() == IDLE && state.compareAndSet(IDLE, SCHEDULED);
    }

    /** The pool thread that polled the task: scheduled to running; false for an extra entry (skip it). */
    public boolean begin() {
        if (!state.compareAndSet(SCHEDULED, RUNNING)) {
            return false;
        }
        turns++; // only the running thread writes it
        return true;
    }

    /** The running thread: back to scheduled; it then offers the task to the ready queue again. */
    public void reschedule() {
        state.set(SCHEDULED);
    }

    /**
     * The running thread: idle. A volatile store: the caller reads the task's inputs after it and
     * schedules again if any arrived (the producer's side of the Dekker pair is {@link #schedule()}).
     */
    public void idle() {
        state.set(IDLE);
    }

    /** The running thread: the task is over for good; {@link #schedule()} never succeeds again. */
    public void end() {
        state.set(ENDED);
    }

    /**
     * The checker (one thread at a time): true when the task was scheduled at the previous look too
     * and no turn began since, so it may never have reached the ready queue; the checker offers it
     * again (a second entry is harmless, see {@link #begin()}).
     */
    public boolean lostSchedule() {
        int t = turns;
        if (state.get() != SCHEDULED) {
            scheduledAtTurn = -1;
            return false;
        }
        if (scheduledAtTurn != t) {
            scheduledAtTurn = t;
            return false;
        }
        scheduledAtTurn = -1;
        return true;
    }
}
