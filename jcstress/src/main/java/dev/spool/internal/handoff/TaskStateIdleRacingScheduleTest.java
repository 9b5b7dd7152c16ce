package dev.spool.internal.handoff;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ConcurrentLinkedQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The lost wake-up the pools' Dekker pair rules out: a producer queues a record while the running
 * thread, having found nothing, goes idle.
 *
 * <p>The task is running. The producer offers to the task's input queue, then schedules the task
 * ({@link TaskState#schedule()}; the winner would offer it to the ready queue). The running thread
 * stores idle ({@link TaskState#idle()}), then reads the input and schedules the task again if it
 * found something, as both pools' turns end. Result: (producer scheduled it, runner scheduled it).
 * Exactly one must: with neither, the record waits with no thread coming; with both, the task
 * would stand in the ready queue twice from one wake-up.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the producer saw idle and scheduled the task")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the producer saw running; the runner saw the record and scheduled again")
@Outcome(expect = FORBIDDEN, desc = "a record queued with nobody scheduling its task, or two schedulers")
@State
public class TaskStateIdleRacingScheduleTest {
    private final TaskState state = new TaskState();
    private final ConcurrentLinkedQueue<Object> input = new ConcurrentLinkedQueue<>();

    public TaskStateIdleRacingScheduleTest() {
        state.schedule();
        state.begin();
    }

    @Actor
    public void producer(II_Result r) {
        input.offer(Boolean.TRUE);
        r.r1 = state.schedule() ? 1 : 0;
    }

    @Actor
    public void runnerEndingItsTurn(II_Result r) {
        state.idle();
        r.r2 = !input.isEmpty() && state.schedule() ? 1 : 0;
    }
}
