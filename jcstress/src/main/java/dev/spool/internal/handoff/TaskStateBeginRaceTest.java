package dev.spool.internal.handoff;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A task standing in the ready queue twice (the pool's lost-schedule repair offered it again) is
 * polled by two pool threads at once: exactly one may run it.
 *
 * <p>The task is scheduled once; both actors call {@link TaskState#begin()}. Result: (actor 1
 * began, actor 2 began, turns counted by the arbiter).
 */
@JCStressTest
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one thread runs the task, the other skips the extra entry")
@Outcome(expect = FORBIDDEN, desc = "both threads run the task at once, or neither does")
@State
public class TaskStateBeginRaceTest {
    private final TaskState state = new TaskState();

    public TaskStateBeginRaceTest() {
        state.schedule();
    }

    @Actor
    public void poolThreadA(III_Result r) {
        r.r1 = state.begin() ? 1 : 0;
    }

    @Actor
    public void poolThreadB(III_Result r) {
        r.r2 = state.begin() ? 1 : 0;
    }

    @Arbiter
    public void turns(III_Result r) {
        r.r3 = state.turns();
    }
}
